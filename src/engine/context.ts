import type { Config } from '../config/config.js';
import type { Executor } from '../db/database.js';
import type { ChannelAdapter } from '../channels/channel-adapter.js';
import type { Logger } from '../observability/logger.js';
import type { JobQueue } from '../queue/enqueue.js';

/**
 * What the engine's jobs work with, built once per process (server or `npm run worker`) and passed
 * to every task explicitly. Adapter calls never run inside a transaction of `db`.
 */
export interface EngineDeps {
  db: Executor;
  adapter: ChannelAdapter;
  queue: JobQueue;
  config: Config;
  logger: Logger;
}

/** The engine's dependencies from the app's (the server) or from scratch (`npm run worker`). */
export const engineDepsOf = (d: { database: { db: Executor }; adapter: ChannelAdapter; queue: JobQueue; config: Config; logger: Logger }): EngineDeps => ({
  db: d.database.db,
  adapter: d.adapter,
  queue: d.queue,
  config: d.config,
  logger: d.logger.child({ component: 'engine' }),
});
