import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { AppError } from '../errors/catalogue.js';
import type { Config } from '../config/config.js';

/** What the platform needs of a limiter: its budget, its window, taking a point, and reading what is spent. */
export interface Limiter {
  readonly points: number;
  readonly duration: number;
  consume(key: string): Promise<RateLimiterRes>;
  /** What `key` has spent in this window (null: nothing yet), without spending. */
  get(key: string): Promise<RateLimiterRes | null>;
}

export interface RateLimiters {
  ip: Limiter;
  workspace: Limiter;
  /** Webhook requests whose signature failed, per address (webhooks.routes.ts). */
  badWebhookSignature: Limiter;
}

/**
 * Stops asking a sick Redis. Once a command fails (a frozen Redis: after its 500 ms command
 * time-out; an unreachable one: at once), every limiter counts in this process's memory for
 * `retryAfterMs` before Redis is asked again, so no request waits on Redis more than once per period.
 */
class RedisBreaker {
  private openUntil = 0;
  constructor(
    private readonly retryAfterMs: number,
    private readonly onTrip: (err: unknown) => void,
  ) {}
  get open() {
    return Date.now() < this.openUntil;
  }
  trip(err: unknown) {
    if (this.open) return;
    this.openUntil = Date.now() + this.retryAfterMs;
    this.onTrip(err);
  }
}

/** A Redis budget shared by every process, with this process's memory standing in while Redis is sick. */
class SharedLimiter implements Limiter {
  constructor(
    private readonly shared: RateLimiterRedis,
    private readonly local: RateLimiterMemory,
    private readonly breaker: RedisBreaker,
  ) {}
  get points() {
    return this.local.points;
  }
  get duration() {
    return this.local.duration;
  }
  async consume(key: string): Promise<RateLimiterRes> {
    if (this.breaker.open) return this.local.consume(key);
    try {
      return await this.shared.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw err; // over the budget: an answer, not a failure
      this.breaker.trip(err);
      return this.local.consume(key);
    }
  }
  async get(key: string): Promise<RateLimiterRes | null> {
    if (this.breaker.open) return this.local.get(key);
    try {
      return await this.shared.get(key);
    } catch (err) {
      this.breaker.trip(err);
      return this.local.get(key);
    }
  }
}

/**
 * Fixed-window limiters: per client IP before authentication, per workspace after it. In memory by
 * default; in Redis when REDIS_URL is set so several processes share one budget, degrading to
 * per-process budgets (never to failed or stalled requests) while Redis is sick.
 */
export function createRateLimiters(config: Config, redis: Redis | null, keyPrefix = 'rl', onRedisTrip: (err: unknown) => void = () => {}): RateLimiters {
  const breaker = new RedisBreaker(config.REDIS_RETRY_AFTER_MS, onRedisTrip);
  const make = (name: string, points: number, duration: number): Limiter => {
    const opts = { keyPrefix: `${keyPrefix}:${name}`, points, duration };
    const local = new RateLimiterMemory(opts);
    return redis ? new SharedLimiter(new RateLimiterRedis({ ...opts, storeClient: redis }), local, breaker) : local;
  };
  return {
    ip: make('ip', config.RATE_LIMIT_IP_POINTS, config.RATE_LIMIT_IP_WINDOW_SECONDS),
    workspace: make('ws', config.RATE_LIMIT_WORKSPACE_POINTS, config.RATE_LIMIT_WORKSPACE_WINDOW_SECONDS),
    badWebhookSignature: make('whsig', config.WEBHOOK_BAD_SIGNATURE_POINTS, config.WEBHOOK_BAD_SIGNATURE_WINDOW_SECONDS),
  };
}

/**
 * The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers-07): budget, what is left, seconds
 * to reset, and the policy; named in lower case, as every answer keeps its headers (exchange.ts).
 */
const headersOf = (limiter: Limiter, res: RateLimiterRes): Record<string, string> => ({
  'ratelimit-limit': String(limiter.points),
  'ratelimit-remaining': String(Math.max(0, res.remainingPoints)),
  'ratelimit-reset': String(Math.max(0, Math.ceil(res.msBeforeNext / 1000))),
  'ratelimit-policy': `${limiter.points};w=${limiter.duration}`,
});

/**
 * 429 when `key` has already spent `limiter`'s budget in this window, without spending a point (a
 * budget of failures: only a failure spends, see `consume`).
 */
export async function assertBudgetLeft(limiter: Limiter, key: string, budget: Budget): Promise<void> {
  const spent = await limiter.get(key);
  if (spent !== null && spent.consumedPoints >= limiter.points) throw overBudget(limiter, spent, budget);
}

/**
 * Takes one point for `key`; returns the RateLimit-* headers to send (lower-case names), or throws
 * 429 tooManyRequests (default message; `data.budget` says which limit binds) carrying them plus
 * Retry-After.
 */
export async function consume(limiter: Limiter, key: string, budget: Budget): Promise<Record<string, string>> {
  try {
    return headersOf(limiter, await limiter.consume(key));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw overBudget(limiter, rejection, budget);
  }
}

export type Budget = 'ip' | 'workspace' | 'webhookSignature';

function overBudget(limiter: Limiter, res: RateLimiterRes, budget: Budget): AppError {
  const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  const headers = { ...headersOf(limiter, res), 'retry-after': String(retryAfter) };
  return new AppError('tooManyRequests', { data: { budget, retryAfterSeconds: retryAfter }, headers });
}
