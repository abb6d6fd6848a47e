import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Logger } from '../observability/logger.js';

/** The Redis connection that shares rate limits between processes (REDIS_URL), and when it settled. */
export interface RedisClient {
  redis: Redis;
  /** Resolves once Redis is connected or has failed to connect (at most 2 s). */
  settled: Promise<void>;
  /** A command failed or timed out: rate limits count in this process for a while (rate-limit.ts). */
  onTrip: (err: unknown) => void;
  close: () => Promise<void>;
}

// The Redis client loads only with REDIS_URL: a process without it does not carry it.
const requireModule = createRequire(import.meta.url);
const loadRedis = () => (requireModule('ioredis') as typeof import('ioredis')).Redis;

/**
 * Rate limiting must never make a request wait for Redis: while it is unreachable, commands fail
 * at once (no offline queue) or after a short timeout, and the in-memory insurance limiter counts.
 * An outage is logged once, not once per reconnection attempt.
 */
export function connectRedis(url: string, retryAfterMs: number, logger: Logger): RedisClient {
  const redis = new (loadRedis())(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 500 });
  let down = false;
  redis.on('error', (err) => {
    if (down) return;
    down = true;
    logger.warn({ err }, 'redis unreachable; rate limits fall back to this process until it is back');
  });
  redis.on('ready', () => {
    if (down) logger.info('redis reachable again; rate limits are shared');
    down = false;
  });
  // A process that takes traffic before Redis answers would count on its own while the others share a budget.
  const settled = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', done);
    redis.once('error', done);
  });
  return {
    redis,
    settled,
    onTrip: (err) => logger.warn({ err }, `redis command failed; rate limits count in this process for ${retryAfterMs} ms before asking redis again`),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
