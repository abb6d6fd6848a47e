import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { EnqueuedJob } from './types.js';
import type { NormalisedJob } from './enqueue.js';
import type { Logger } from '../observability/logger.js';

/**
 * graphile-worker's SQL, as the queue uses it on PostgreSQL. Its jobs live in WORKER_SCHEMA of the
 * same database; any number of processes run them (graphile locks each job with SKIP LOCKED).
 */

/**
 * `add_job` on the caller's executor (its transaction). `unsafe_dedupe` is graphile's
 * "first one wins" mode: a job already holding the key, waiting or running, is answered as it is
 * (revision bumped, nothing else changed), never replaced. Keys are cleared when a job fails for
 * good (see postgres-runner.ts), so only waiting and running jobs hold one, as on SQLite.
 */
export async function addPostgresJob(db: Executor, schema: string, job: NormalisedJob): Promise<EnqueuedJob> {
  const { rows } = await sql<{ id: string | number; revision: number }>`
    select id, revision from ${sql.id(schema, 'add_job')}(
      identifier => ${job.task}::text,
      payload => ${job.payload}::json,
      run_at => ${job.runAt}::timestamptz,
      max_attempts => ${job.maxAttempts}::int,
      job_key => ${job.key}::text,
      job_key_mode => 'unsafe_dedupe'
    )`.execute(db);
  const row = rows[0];
  return { id: String(row.id), created: job.key === null || row.revision === 0 };
}

/**
 * Installs or upgrades graphile-worker's schema. Processes starting together take turns (an
 * advisory lock per schema): graphile's own installer races on `create schema if not exists`.
 */
export async function migrateWorkerSchema(connectionString: string, schema: string, logger: Logger): Promise<void> {
  // Loaded here, not with the module: enqueueing (addPostgresJob) needs neither, and a process on SQLite neither.
  const [{ runMigrations }, { default: pg }, { graphileLogger }] = await Promise.all([import('graphile-worker'), import('pg'), import('./postgres-logger.js')]);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [`graphile-worker-migrate:${schema}`]);
    await runMigrations({ connectionString, schema, logger: graphileLogger(logger), maxPoolSize: 1 });
  } finally {
    await client.end();
  }
}

/** A try given back at shutdown does not count: graphile's failJob that follows then unlocks the job. */
export async function uncountTry(db: Executor, schema: string, jobId: string, workerId: string): Promise<void> {
  await sql`update ${sql.id(schema, '_private_jobs')} set attempts = greatest(attempts - 1, 0) where id = ${jobId}::bigint and locked_by = ${workerId}`.execute(db);
}

/** A job that failed for good frees its key (graphile keeps it; `unsafe_dedupe` would answer the dead job forever). */
export async function freeKey(db: Executor, schema: string, jobId: string): Promise<void> {
  await sql`update ${sql.id(schema, '_private_jobs')} set key = null where id = ${jobId}::bigint`.execute(db);
}
