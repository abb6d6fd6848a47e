import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { AppError } from '../errors/catalogue.js';
import type { Config } from '../config/config.js';

export interface RateLimiters {
  ip: RateLimiterAbstract;
  workspace: RateLimiterAbstract;
}

/**
 * Fixed-window limiters: per client IP before authentication, per workspace after it. In memory by
 * default; in Redis when REDIS_URL is set so several processes share one budget (with an in-memory
 * insurance limiter so a Redis outage degrades to per-process limits instead of failing requests).
 */
export function createRateLimiters(config: Config, redis: Redis | null, keyPrefix = 'rl'): RateLimiters {
  const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const opts = { keyPrefix: `${keyPrefix}:${name}`, points, duration };
    if (!redis) return new RateLimiterMemory(opts);
    return new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts) });
  };
  return {
    ip: make('ip', config.RATE_LIMIT_IP_POINTS, config.RATE_LIMIT_IP_WINDOW_SECONDS),
    workspace: make('ws', config.RATE_LIMIT_WORKSPACE_POINTS, config.RATE_LIMIT_WORKSPACE_WINDOW_SECONDS),
  };
}

const headersOf = (limiter: RateLimiterAbstract, res: RateLimiterRes): Record<string, string> => ({
  'RateLimit-Limit': String(limiter.points),
  'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
  'RateLimit-Reset': String(Math.max(0, Math.ceil(res.msBeforeNext / 1000))),
});

/**
 * Takes one point for `key`; returns the RateLimit-* headers to send, or throws 429 tooManyRequests
 * (default message; `data.budget` says which limit binds) carrying them plus Retry-After.
 */
export async function consume(limiter: RateLimiterAbstract, key: string, budget: 'ip' | 'workspace'): Promise<Record<string, string>> {
  try {
    return headersOf(limiter, await limiter.consume(key));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    const headers = { ...headersOf(limiter, rejection), 'Retry-After': String(retryAfter) };
    throw new AppError('tooManyRequests', { data: { budget, retryAfterSeconds: retryAfter }, headers });
  }
}
