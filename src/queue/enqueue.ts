import { isPostgres, type Executor } from '../db/database.js';
import { DEFAULT_MAX_ATTEMPTS, MAX_ATTEMPTS_LIMIT, type EnqueuedJob, type JobSpec } from './types.js';
import { addPostgresJob } from './postgres-queue.js';
import { insertSqliteJob } from './sqlite-queue.js';
import { wakeRunners } from './wake.js';

export interface QueueSettings {
  /** PostgreSQL: graphile-worker's schema (config WORKER_SCHEMA). */
  workerSchema: string;
}

/** A job spec checked and put in storable form: a bad spec is a programming error, thrown at once. */
export interface NormalisedJob {
  task: string;
  payload: string;
  runAt: string;
  key: string | null;
  maxAttempts: number;
  /** A batch job: its key, the most items it may hold, and its own items (JSON text of each). */
  batch: { key: string; max: number; items: string[] } | null;
}

export function normaliseJob(job: JobSpec, now = new Date()): NormalisedJob {
  if (typeof job.task !== 'string' || job.task.length === 0 || job.task.length > 200) throw new TypeError('enqueue: task must be a name of 1-200 characters');
  const payload = JSON.stringify(job.payload ?? null);
  if (payload === undefined) throw new TypeError('enqueue: payload must be JSON-serialisable');
  const runAt = job.runAt === undefined ? now : new Date(job.runAt);
  if (Number.isNaN(runAt.getTime())) throw new TypeError(`enqueue: runAt is not a date (${String(job.runAt)})`);
  const maxAttempts = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) throw new TypeError(`enqueue: maxAttempts must be a whole number from 1 to ${MAX_ATTEMPTS_LIMIT}`);
  if (job.key !== undefined && (typeof job.key !== 'string' || job.key.length === 0 || job.key.length > 500)) throw new TypeError('enqueue: key must be 1-500 characters');
  let batch: NormalisedJob['batch'] = null;
  if (job.batch !== undefined) {
    const { key, max } = job.batch;
    if (typeof key !== 'string' || key.length === 0 || key.length > 500) throw new TypeError('enqueue: batch.key must be 1-500 characters');
    if (!Number.isInteger(max) || max < 1 || max > 10_000) throw new TypeError('enqueue: batch.max must be a whole number from 1 to 10000');
    if (!Array.isArray(job.payload) || job.payload.length === 0) throw new TypeError('enqueue: a batch job takes an array of items as its payload');
    if (job.payload.length > max) throw new TypeError('enqueue: a batch job holds at most batch.max items');
    if (job.key !== undefined) throw new TypeError('enqueue: a batch job has no key of its own');
    batch = { key, max, items: job.payload.map((item) => JSON.stringify(item)) };
  }
  return { task: job.task, payload, runAt: runAt.toISOString(), key: job.key ?? null, maxAttempts, batch };
}

/**
 * Enqueues a job on `db`: pass the transaction of the change that causes the job, so the job
 * exists exactly when that change commits (a rollback leaves no job). See JobSpec for `key`.
 *
 * PostgreSQL: graphile-worker's `add_job` in the caller's transaction (its NOTIFY reaches the
 * workers at commit). SQLite: a row of `jobs`, and a wake-up for this process's runners.
 */
export async function enqueue(db: Executor, job: JobSpec, settings: QueueSettings = { workerSchema: 'graphile_worker' }): Promise<EnqueuedJob> {
  const spec = normaliseJob(job);
  if (isPostgres(db)) return addPostgresJob(db, settings.workerSchema, spec);
  const enqueued = await insertSqliteJob(db, spec);
  // A batch job's items may have joined a job that waits: it is due, so the runners look too.
  if (enqueued.created || spec.batch) wakeRunners();
  return enqueued;
}

/** `enqueue` bound to this process's settings: what the app passes around (deps.queue). */
export interface JobQueue {
  enqueue(db: Executor, job: JobSpec): Promise<EnqueuedJob>;
}

export const jobQueue = (settings: QueueSettings): JobQueue => ({ enqueue: (db, job) => enqueue(db, job, settings) });
