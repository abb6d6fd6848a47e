import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../observability/logger.js';
import type { RunnerOptions } from './runner-options.js';
import { startSqliteRunner } from './sqlite-runner.js';
import type { JobRunner, TaskList } from './types.js';

/**
 * The durable job queue: `enqueue` (in the caller's transaction) and a runner built from a task
 * table. PostgreSQL runs jobs with graphile-worker in WORKER_SCHEMA of the same database, shared
 * by every server and worker process; SQLite keeps them in the `jobs` table of the same file, run
 * by the server process.
 */
export { enqueue, jobQueue, type JobQueue, type QueueSettings } from './enqueue.js';
export { DEFAULT_MAX_ATTEMPTS, JobReleasedError, retryDelayMs, type EnqueuedJob, type JobHelpers, type JobInfo, type JobRunner, type JobSpec, type TaskHandler, type TaskList } from './types.js';
export type { RunnerOptions } from './runner-options.js';

/** Starts running due jobs of `tasks` until `stop()`. On PostgreSQL this installs graphile-worker's schema first. */
export function startJobRunner(options: RunnerOptions): Promise<JobRunner> {
  // graphile-worker loads only on PostgreSQL: a process on SQLite does not carry it.
  if (options.database.engine === 'postgres') return import('./postgres-runner.js').then(({ startPostgresRunner }) => startPostgresRunner(options));
  return startSqliteRunner(options);
}

/**
 * Start-up work of every process that enqueues: PostgreSQL needs graphile-worker's schema (its
 * `add_job`) even where no worker runs. SQLite's table comes with the migrations.
 */
export async function prepareJobQueue(database: Database, config: Config, logger: Logger): Promise<void> {
  if (database.engine === 'postgres') await (await import('./postgres-queue.js')).migrateWorkerSchema(config.DATABASE_URL, config.WORKER_SCHEMA, logger);
}

/** A runner for this process's configuration (server and `npm run worker`). */
export function startConfiguredRunner(database: Database, config: Config, logger: Logger, tasks: TaskList): Promise<JobRunner> {
  return startJobRunner({
    database,
    databaseUrl: config.DATABASE_URL,
    tasks,
    concurrency: config.WORKER_CONCURRENCY,
    pollIntervalMs: config.WORKER_POLL_INTERVAL_MS,
    shutdownTimeoutMs: config.WORKER_SHUTDOWN_TIMEOUT_MS,
    workerSchema: config.WORKER_SCHEMA,
    heartbeatMs: config.WORKER_HEARTBEAT_MS,
    logger: logger.child({ component: 'jobs' }),
  });
}
