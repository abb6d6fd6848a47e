import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { TokenCache } from '../domain/auth/token-cache.js';
import type { EventFeeds } from '../domain/workspace-events/event-feed.js';
import type { RateLimiters } from './rate-limit.js';
import type { Logger } from '../observability/logger.js';
import type { LoopWatchdog } from '../observability/loop-watchdog.js';
import type { JobQueue } from '../queue/enqueue.js';
import type { ChannelAdapter } from '../domain/channels/channel-adapter.js';
import type { ImageServices } from '../domain/dynamic-images/dynamic-image-render.service.js';
import type { ContactFileServices } from '../domain/contact-transfers/contact-file.service.js';

/** What the HTTP layer needs from the process: built once in app.ts, passed down explicitly. */
export interface AppDeps {
  config: Config;
  database: Database;
  logger: Logger;
  tokenCache: TokenCache;
  limiters: RateLimiters;
  /** Set once shutdown begins: /readyz answers 503 so load balancers stop sending traffic. */
  lifecycle: { draining: boolean };
  /** Enqueues jobs in the caller's transaction (this process's WORKER_SCHEMA on PostgreSQL). */
  queue: JobQueue;
  /** The channel adapter (CHANNEL_ADAPTER): the sandbox's outbox by default, or the Graph API. */
  adapter: ChannelAdapter;
  /** The event-loop watchdog (the server's; none in process): requests in flight, stalls for /readyz. */
  watchdog: LoopWatchdog;
  /** This process's live streams of workspace events (GraphQL subscriptions), and their readers. */
  events: EventFeeds;
  /** Dynamic images: the drawing pool, the render store and the link settings (IMAGE_* and PUBLIC_BASE_URL). */
  images: ImageServices & { close(): Promise<void> };
  /** Contact CSV files: where their bytes are kept, and PUBLIC_BASE_URL for their signed links. */
  files: ContactFileServices;
}
