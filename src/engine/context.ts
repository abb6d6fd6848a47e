import type { Config } from '../config/config.js';
import type { Executor } from '../db/database.js';
import type { ChannelAdapter } from '../domain/channels/channel-adapter.js';
import type { ImageServices } from '../domain/dynamic-images/dynamic-image-render.service.js';
import type { ContactFileServices } from '../domain/contact-transfers/contact-file.service.js';
import type { Logger } from '../observability/logger.js';
import type { JobQueue } from '../queue/enqueue.js';
import { createAutomationCache, type AutomationCache } from './comments/automation-cache.js';
import type { CommentChunkReads } from './comments/chunk-reads.js';
import type { CounterTally } from './comments/counter-tally.js';

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
  /** The compiled active comment automations, kept for the life of the process (automation-cache.ts). */
  automations: AutomationCache;
  /** Dynamic images: the bake job draws a saved template's static layer with it. */
  images: ImageServices;
  /** Contact CSV files: imports read them, exports write them. */
  files: ContactFileServices;
  /** What time it is for the engine's schedules (sequence steps); tests move it. */
  clock: Clock;
  /**
   * Set inside an event job's chunk transaction (an adapter that writes in it, the sandbox;
   * process-event.ts): actions due at once run there and then, inside it, instead of as jobs of
   * their own. How an action's unexpected failure is undone: with the whole chunk (`chunk`, its
   * first try, which process-event.ts runs again with savepoints) or with its own savepoint.
   */
  inline?: 'chunk' | 'savepoint';
  /** Set inside an event job's chunk transaction: the automations' counters it adds to, written at its end. */
  counters?: CounterTally;
  /** Set in a chunk's first try: what it reads once for all its comment events (chunk-reads.ts). */
  chunkReads?: CommentChunkReads;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The engine's dependencies from the app's (the server) or from scratch (`npm run worker`). */
export const engineDepsOf = (d: { database: { db: Executor }; adapter: ChannelAdapter; queue: JobQueue; config: Config; logger: Logger; images: ImageServices; files: ContactFileServices }): EngineDeps => ({
  db: d.database.db,
  adapter: d.adapter,
  queue: d.queue,
  config: d.config,
  logger: d.logger.child({ component: 'engine' }),
  automations: createAutomationCache(),
  images: d.images,
  files: d.files,
  clock: systemClock,
});
