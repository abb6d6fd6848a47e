import { createYoga, type GraphQLParams, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadConfig, type Config } from './config/config.js';
import { createDatabase, type Database } from './db/database.js';
import { TokenCache } from './domain/auth/token-cache.js';
import type { AppDeps } from './http/app-deps.js';
import { createGraphQLContext, type GraphQLContext } from './graphql/context.js';
import { graphqlPlugins, maskError } from './graphql/yoga-options.js';
import { schema } from './graphql/schema.js';
import { graphiqlOptions, graphiqlPage } from './http/graphiql.plugin.js';
import { fromFetch, fromNode, toResponse, writeNode } from './http/exchange.js';
import { createPlatform, type GraphQLServerContext } from './platform.js';
import { AppError } from './errors/catalogue.js';
import { createRateLimiters } from './http/rate-limit.js';
import { connectRedis } from './http/redis-client.js';
import { shareWakeups } from './http/event-wakeups.js';
import { createEventFeeds } from './domain/workspace-events/event-feed.js';
import { eventsRecorded } from './domain/workspace-events/workspace-event.service.js';
import { createLogger, type Logger } from './observability/logger.js';
import { noWatchdog, type LoopWatchdog } from './observability/loop-watchdog.js';
import { jobQueue } from './queue/enqueue.js';
import { createChannelAdapter } from './channels/registry.js';
import { systemRoutes } from './rest/system.routes.js';
import { webhookRoutes } from './rest/webhooks.routes.js';
import { createImageServices } from './imaging/image-services.js';
import { dynamicImageLinkRoutes } from './rest/dynamic-image-links.routes.js';
import { contactFileRoutes } from './rest/contact-files.routes.js';
import { webAppRoutes } from './rest/web-app.routes.js';
import { Router } from './rest/router.js';
import { routes } from './rest/routes/index.js';
import { createContactFileServices } from './domain/contact-transfers/contact-file.service.js';

export interface App {
  deps: AppDeps;
  yoga: YogaServerInstance<GraphQLServerContext, GraphQLContext>;
  /** In-process entry point (tests, benchmarks): a WHATWG fetch handler. */
  fetch: (request: Request) => Promise<Response>;
  /** node:http request listener for the real server. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Resolves when the app is ready for traffic (Redis connected, or given up on). */
  ready: () => Promise<void>;
  /** Shutdown has begun: /readyz answers 503 from now on (requests are still served; event streams end). */
  beginDrain: () => void;
  close: () => Promise<void>;
}

export interface BuildAppOptions {
  config?: Config;
  database?: Database;
  logger?: Logger;
  /** Separates rate-limit buckets of apps sharing one Redis (tests); one per process by default. */
  rateLimitKeyPrefix?: string;
  /** The process's event-loop watchdog (server.ts starts one); none by default. */
  watchdog?: LoopWatchdog;
}

/** Builds the whole service without listening: the platform's front controller, with Yoga for /graphql. */
export function buildApp(options: BuildAppOptions = {}): App {
  const config = options.config ?? loadConfig();
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const database = options.database ?? createDatabase(config.DATABASE_URL);
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, config.REDIS_RETRY_AFTER_MS, logger) : null;

  const deps: AppDeps = {
    config,
    database,
    logger,
    tokenCache: new TokenCache(config.TOKEN_CACHE_SECONDS * 1000),
    limiters: createRateLimiters(config, redis?.redis ?? null, options.rateLimitKeyPrefix ?? 'rl', redis?.onTrip),
    lifecycle: { draining: false },
    queue: jobQueue({ workerSchema: config.WORKER_SCHEMA }),
    adapter: createChannelAdapter(config, database.db),
    watchdog: options.watchdog ?? noWatchdog,
    events: createEventFeeds({ db: database.db, pollMs: config.EVENTS_POLL_MS, perWorkspace: config.SUBSCRIPTIONS_PER_WORKSPACE, logger }),
    images: createImageServices(config, database.engine, logger),
    files: createContactFileServices(config, database.engine),
  };
  // Events recorded in this process wake its subscriptions at once, and, through Redis, those of
  // the other server processes; theirs wake ours. Everything else is found by polling.
  const wakeups = redis ? shareWakeups(redis.redis, logger, (workspaceId) => deps.events.wake(workspaceId)) : null;
  const unlisten = eventsRecorded.listen((workspaceId) => {
    deps.events.wake(workspaceId);
    wakeups?.publish(workspaceId);
  });

  const router = new Router(routes);
  // GraphiQL from the package, rendered (and its script hashed for the page's policy) once, here.
  const graphiql = config.GRAPHIQL ? graphiqlPage(graphiqlOptions(config)) : null;
  // Yoga executes GraphQL only: the platform (platform.ts) answers everything else and does
  // the platform's work (CORS, limits, authentication, headers, logs) for /graphql too.
  const yoga = createYoga<GraphQLServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // The platform caps bodies by Content-Length (and refuses POSTs without one) and reads them.
    maxRequestBodySize: false,
    multipart: false,
    cors: false,
    graphiql: false,
    logging: false,
    maskedErrors: { maskError: (error, message) => maskError(error, message) },
    context: ({ state }) => createGraphQLContext(deps, state),
    plugins: [platformParams(), ...graphqlPlugins(config, logger)],
  });
  const platform = createPlatform(deps, { router, publicRoutes: { ...systemRoutes(deps, router), ...dynamicImageLinkRoutes(deps), ...contactFileRoutes(deps), ...webAppRoutes(config.WEB_APP_DIR) }, webhooks: webhookRoutes(deps), graphqlPath: '/graphql', yoga, graphiql });

  return {
    deps,
    yoga,
    fetch: async (request) => toResponse(await platform.serve(fromFetch(request)), request.method === 'HEAD'),
    listener: (req, res) => {
      platform.serve(fromNode(req)).then(
        (answer) => writeNode(res, answer),
        (err: unknown) => {
          // serve() answers every error itself; this is a last resort, never a crashed process.
          logger.error({ err }, 'could not answer a request');
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify(new AppError('INTERNAL_SERVER_ERROR').toEnvelope()));
        },
      );
    },
    ready: async () => {
      await Promise.all([redis?.settled, wakeups?.settled]);
    },
    beginDrain: () => {
      deps.lifecycle.draining = true;
      // Open event streams end now (each says why), so their connections close and a client
      // subscribes again elsewhere; new ones are refused while the process drains.
      deps.events.drain();
    },
    close: async () => {
      unlisten();
      deps.events.drain();
      wakeups?.close();
      await deps.images.close();
      await database.destroy();
      await redis?.close();
    },
  };
}

/** Yoga takes the GraphQL parameters the platform read (graphql-params.ts) instead of reading the body again. */
function platformParams(): Plugin<Record<string, unknown>, GraphQLServerContext> {
  return {
    onRequestParse({ serverContext, setRequestParser }) {
      setRequestParser(() => serverContext.params as GraphQLParams);
    },
  };
}
