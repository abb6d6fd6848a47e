import type { Logger } from '../observability/logger.js';

/**
 * The engine-neutral vocabulary of the job queue. Everything outside src/queue speaks only these
 * types: which engine stores and runs a job (graphile-worker on PostgreSQL, the jobs table on
 * SQLite) is decided by the database the call is made on.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface JobSpec {
  /** The name of the handler in the runner's task table. */
  task: string;
  /** Stored as JSON; a `workspaceId` in it names the workspace a final failure is logged to. */
  payload: JsonValue;
  /** When the job becomes due; now when left out. */
  runAt?: Date | string;
  /**
   * De-duplication: while a job with this key is waiting or running, enqueueing another with the
   * same key changes nothing and answers the existing job (`created: false`). Once that job has
   * finished or failed for good, the key is free again.
   */
  key?: string;
  /** Tries in all, the first included (1..100); DEFAULT_MAX_ATTEMPTS when left out. */
  maxAttempts?: number;
  /**
   * A batch job: the payload is an array of items, and while a job of the same task and `key` waits
   * for its first try (not yet claimed), enqueueing appends the items to it, as long as it then
   * holds at most `max` items and is due no later than this job would be; otherwise a new job of
   * that key is added. A claimed job never changes. Its handler gets every item appended so far.
   * SQLite only: on PostgreSQL each enqueue adds a job, which graphile's workers share out.
   */
  batch?: { key: string; max: number };
}

export interface EnqueuedJob {
  id: string;
  /**
   * False when `key` matched a job that was already waiting or running (nothing was written), or
   * when a batch job's items joined the waiting job of its batch key (`id` is that job's).
   */
  created: boolean;
}

/** What a handler learns about the job it runs. */
export interface JobInfo {
  id: string;
  task: string;
  /** This try's number, from 1. */
  attempt: number;
  maxAttempts: number;
  key: string | null;
}

export interface JobHelpers {
  job: JobInfo;
  /**
   * Aborted when the process stops and this job did not finish within the shutdown timeout: the
   * job has been released for another process and this try must end now without acting further.
   */
  signal: AbortSignal;
  logger: Logger;
}

export type TaskHandler = (payload: any, helpers: JobHelpers) => Promise<void>;
export type TaskList = Readonly<Record<string, TaskHandler>>;

export interface JobRunner {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Stops taking jobs, lets running ones finish for up to the shutdown timeout, then releases the
   * rest (their try is not counted) so another process takes them. Resolves when nothing runs.
   */
  stop(): Promise<void>;
}

/** 10 tries: the retries wait e, e², ... e⁹ seconds, about 3.6 hours in all. */
export const DEFAULT_MAX_ATTEMPTS = 10;
export const MAX_ATTEMPTS_LIMIT = 100;

/**
 * The wait before the next try after `attempts` failed ones: e^attempts seconds (capped at e^10,
 * about 6 hours). graphile-worker's own formula, used on SQLite too so both engines retry alike.
 */
export const retryDelayMs = (attempts: number): number => Math.round(Math.exp(Math.min(attempts, 10)) * 1000);

/** The runner gave the job back at shutdown (see JobHelpers.signal); not a failure of the job. */
export class JobReleasedError extends Error {
  constructor() {
    super('Released unfinished when its worker stopped; another worker will run it');
    this.name = 'JobReleasedError';
  }
}
