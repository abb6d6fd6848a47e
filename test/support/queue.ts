import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { inject } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';
import { startJobRunner, type JobHelpers, type JobRunner, type TaskList } from '../../src/queue/index.js';
import { testEngine } from './engine.js';

/**
 * Helpers for the job-queue tests: a per-test graphile-worker schema, runners over the real queue
 * with the test's own task table, the queue's stored jobs read back as the engine keeps them, and
 * waiting for a fact with a deadline (never a fixed sleep).
 */

/**
 * PostgreSQL: a graphile-worker schema of this test alone, so parallel test files never share
 * jobs. Named like the test schemas (t_<run start>_<hex>) so the run's teardown drops it with them.
 */
export const workerSchemaForTest = (): string =>
  testEngine === 'postgres' ? `t_${inject('testRunStart')}_${randomBytes(6).toString('hex')}` : 'graphile_worker';

/** Silent; QUEUE_TEST_LOG_LEVEL=warn (say) shows the runners' own log lines when a test needs explaining. */
export const quietLogger = createLogger(process.env.QUEUE_TEST_LOG_LEVEL ?? 'silent');

/** What a runner hands a task, for a test that runs a task itself: try `attempt` of `maxAttempts`. */
export const manualJobHelpers = (attempt = 1, maxAttempts = 10): JobHelpers => ({ job: { id: 'manual', task: 'manual', attempt, maxAttempts, key: null }, signal: new AbortController().signal, logger: quietLogger });

export interface TestRunnerOptions {
  database: Database;
  databaseUrl: string;
  workerSchema: string;
  tasks: TaskList;
  concurrency?: number;
  shutdownTimeoutMs?: number;
  leaseMs?: number;
  pollIntervalMs?: number;
  /** Where the runner logs (its jobs' failures and retries); silent unless given. */
  logger?: Logger;
}

export function startTestRunner(o: TestRunnerOptions): Promise<JobRunner> {
  return startJobRunner({
    database: o.database,
    databaseUrl: o.databaseUrl,
    workerSchema: o.workerSchema,
    tasks: o.tasks,
    concurrency: o.concurrency ?? 2,
    pollIntervalMs: o.pollIntervalMs ?? 100,
    shutdownTimeoutMs: o.shutdownTimeoutMs ?? 5_000,
    leaseMs: o.leaseMs,
    logger: o.logger ?? quietLogger,
  });
}

/** Polls `probe` until it answers something truthy; fails with `what` after the deadline. */
export async function waitFor<T>(what: string, probe: () => Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface StoredJob {
  id: string;
  task: string;
  payload: unknown;
  runAt: string;
  attempts: number;
  maxAttempts: number;
  key: string | null;
  lastError: string | null;
  /** Locked by a worker right now. */
  running: boolean;
  /** Failed its last try; kept for inspection. */
  failed: boolean;
}

/** Every job the queue holds, by id: SQLite's jobs table, or graphile-worker's job table (its `jobs` view leaves the payload out). */
export async function storedJobs(database: Database, workerSchema: string): Promise<StoredJob[]> {
  if (database.engine === 'sqlite') {
    const rows = await database.db.selectFrom('jobs').selectAll().orderBy('id').execute();
    return rows.map((r) => ({
      id: String(r.id), task: r.task, payload: JSON.parse(r.payload), runAt: r.run_at, attempts: r.attempts, maxAttempts: r.max_attempts,
      key: r.key, lastError: r.last_error, running: r.locked_by !== null, failed: r.failed_at !== null,
    }));
  }
  const { rows } = await sql<{ id: string; task_identifier: string; payload: unknown; run_at: string; attempts: number; max_attempts: number; key: string | null; last_error: string | null; locked_at: string | null }>`
    select j.id, t.identifier as task_identifier, j.payload, j.run_at, j.attempts, j.max_attempts, j.key, j.last_error, j.locked_at
    from ${sql.id(workerSchema, '_private_jobs')} j join ${sql.id(workerSchema, '_private_tasks')} t on t.id = j.task_id order by j.id`.execute(database.db);
  return rows.map((r) => ({
    id: String(r.id), task: r.task_identifier, payload: r.payload, runAt: new Date(r.run_at).toISOString(), attempts: r.attempts, maxAttempts: r.max_attempts,
    key: r.key, lastError: r.last_error, running: r.locked_at !== null, failed: r.locked_at === null && r.attempts >= r.max_attempts,
  }));
}

/** A table the test tasks record their runs in (in the test's own database). */
export async function createRunsTable(database: Database): Promise<void> {
  const pg = database.engine === 'postgres';
  await sql`create table test_job_runs (
    id ${sql.raw(pg ? 'serial primary key' : 'integer primary key autoincrement')},
    label text not null,
    runner text not null,
    attempt integer not null,
    ran_at_ms ${sql.raw(pg ? 'bigint' : 'integer')} not null
  )`.execute(database.db);
}

export async function recordRun(database: Database, label: string, runner: string, attempt: number): Promise<void> {
  await sql`insert into test_job_runs (label, runner, attempt, ran_at_ms) values (${label}, ${runner}, ${attempt}, ${Date.now()})`.execute(database.db);
}

export interface Run {
  label: string;
  runner: string;
  attempt: number;
  ranAtMs: number;
}

export async function runs(database: Database): Promise<Run[]> {
  const { rows } = await sql<{ label: string; runner: string; attempt: number; ran_at_ms: number | string }>`select label, runner, attempt, ran_at_ms from test_job_runs order by id`.execute(database.db);
  return rows.map((r) => ({ label: r.label, runner: r.runner, attempt: Number(r.attempt), ranAtMs: Number(r.ran_at_ms) }));
}
