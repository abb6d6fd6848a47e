import type { Database } from '../db/database.js';
import type { Logger } from '../observability/logger.js';
import type { TaskList } from './types.js';

export interface RunnerOptions {
  /** Our database: SQLite claims and runs jobs on it; both engines write final-failure error logs with it. */
  database: Database;
  /** PostgreSQL: the URL graphile-worker opens its own pool with (its LISTEN connection and job locks). */
  databaseUrl: string;
  tasks: TaskList;
  concurrency: number;
  pollIntervalMs: number;
  /** How long stop() lets running jobs finish before releasing them. */
  shutdownTimeoutMs: number;
  /** PostgreSQL: graphile-worker's schema. */
  workerSchema: string;
  logger: Logger;
  /** PostgreSQL: the workers' heartbeat; a worker silent for four of them has its jobs unlocked (postgres-heartbeats.ts). */
  heartbeatMs?: number;
  /** SQLite: how long a claim holds a job without renewal (renewed every third of it while the job runs). */
  leaseMs?: number;
}
