import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadConfig, type Config } from './config/config.js';
import { createDatabase, type Database } from './db/database.js';
import { TokenCache } from './domain/auth/token-cache.js';
import type { AppDeps } from './deps.js';
import { createGraphQLContext, type GraphQLContext } from './graphql/context.js';
import { graphqlPlugins, maskError } from './graphql/yoga-options.js';
import { schema } from './graphql/schema.js';
import { graphiqlOptions, graphiqlPage, graphiqlPagePlugin } from './http/graphiql.plugin.js';
import { platformPlugin } from './http/platform.plugin.js';
import { createRateLimiters } from './http/rate-limit.js';
import { createLogger, type Logger } from './observability/logger.js';
import { jobQueue } from './queue/enqueue.js';
import { createChannelAdapter } from './channels/registry.js';
import { runInRequestScope } from './observability/request-scope.js';
import { systemRoutes } from './rest/system.routes.js';
import { webhookRoutes } from './rest/webhooks.routes.js';
import { Router } from './rest/router.js';
import { routes } from './rest/routes.js';

export interface App {
  deps: AppDeps;
  yoga: YogaServerInstance<Record<string, unknown>, GraphQLContext>;
  /** In-process entry point (tests, benchmarks): a WHATWG fetch handler. */
  fetch: (request: Request) => Promise<Response>;
  /** node:http request listener for the real server. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Resolves when the app is ready for traffic (Redis connected, or given up on). */
  ready: () => Promise<void>;
  /** Shutdown has begun: /readyz answers 503 from now on (requests are still served). */
  beginDrain: () => void;
  close: () => Promise<void>;
}

export interface BuildAppOptions {
  config?: Config;
  database?: Database;
  logger?: Logger;
  /** Separates rate-limit buckets of apps sharing one Redis (tests); one per process by default. */
  rateLimitKeyPrefix?: string;
}

/** Builds the whole service without listening: GraphQL Yoga with the REST router as a plugin. */
export function buildApp(options: BuildAppOptions = {}): App {
  const config = options.config ?? loadConfig();
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const database = options.database ?? createDatabase(config.DATABASE_URL, logger);
  // Rate limiting must never make a request wait for Redis: while it is unreachable, commands fail
  // at once (no offline queue) or after a short timeout, and the in-memory insurance limiter counts.
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 500 })
    : null;
  // One warning per outage, not one per reconnection attempt.
  let redisDown = false;
  redis?.on('error', (err) => {
    if (redisDown) return;
    redisDown = true;
    logger.warn({ err }, 'redis unreachable; rate limits fall back to this process until it is back');
  });
  const onRedisTrip = (err: unknown) =>
    logger.warn({ err }, `redis command failed; rate limits count in this process for ${config.REDIS_RETRY_AFTER_MS} ms before asking redis again`);
  redis?.on('ready', () => {
    if (redisDown) logger.info('redis reachable again; rate limits are shared');
    redisDown = false;
  });
  // Settles once Redis is connected or has failed to connect (at most 2 s): a process that takes
  // traffic before that would count on its own while the others share a budget.
  const redisSettled = redis
    ? new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        redis.once('ready', done);
        redis.once('error', done);
      })
    : Promise.resolve();

  const deps: AppDeps = {
    config,
    database,
    logger,
    tokenCache: new TokenCache(config.TOKEN_CACHE_SECONDS * 1000),
    limiters: createRateLimiters(config, redis, options.rateLimitKeyPrefix ?? 'rl', onRedisTrip),
    lifecycle: { draining: false },
    queue: jobQueue({ workerSchema: config.WORKER_SCHEMA }),
    adapter: createChannelAdapter(config, database.db),
  };

  const router = new Router(routes);
  // GraphiQL from the package, rendered (and its script hashed for the page's policy) once, here.
  const graphiql = config.GRAPHIQL ? graphiqlOptions(config) : null;
  const graphiqlHtml = graphiql ? graphiqlPage(graphiql) : null;
  const yoga = createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // The platform plugin caps bodies by Content-Length (and refuses POSTs without one), which
    // keeps the protection without the per-request cost of Yoga's streaming limiter.
    maxRequestBodySize: false,
    multipart: false,
    // Browsers may call both APIs from the origins of CORS_ORIGINS (any, by default). Tokens
    // travel in headers, never cookies, so credentials are never allowed: without that, Yoga
    // would answer any origin with Access-Control-Allow-Credentials: true. Scripts must be able to
    // read the request id, rate-limit, caching and idempotency headers.
    cors: {
      origin: config.CORS_ORIGINS,
      credentials: false,
      exposedHeaders: [
        'X-Request-Id', 'X-Db-Statements', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy',
        'Retry-After', 'Allow', 'ETag', 'Location', 'Idempotent-Replayed',
      ],
      maxAge: 600,
    },
    logging: false,
    maskedErrors: { maskError: (error, message) => maskError(error, message, logger) },
    graphiql: graphiql ?? false,
    renderGraphiQL: (options) => graphiqlPage(options).html,
    context: ({ request }) => createGraphQLContext(deps, request),
    plugins: [
      platformPlugin(deps, router, systemRoutes(deps, router), '/graphql', webhookRoutes(deps)),
      ...graphqlPlugins(config),
      ...(graphiqlHtml ? [graphiqlPagePlugin(graphiqlHtml, '/graphql')] : []),
    ],
  });

  // Each request gets its own scope (request id, SQL statement count) around all of Yoga's work.
  const newScope = () => ({ requestId: randomUUID(), statements: 0, startedAt: process.hrtime.bigint() });
  return {
    deps,
    yoga,
    fetch: (request) => runInRequestScope(newScope(), () => Promise.resolve(yoga.fetch(request))),
    listener: (req, res) => runInRequestScope(newScope(), () => void yoga(req, res)),
    ready: () => redisSettled,
    beginDrain: () => {
      deps.lifecycle.draining = true;
    },
    close: async () => {
      await database.destroy();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
