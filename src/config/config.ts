import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * Every setting the service reads from the environment, validated once at start-up so that a typo
 * stops the process with the variable's name instead of surfacing as odd behaviour later.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Seconds before each try of a webhook delivery; exported so the API reference states the schedule it runs by default. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '0,5,300,1800,7200,18000,36000,36000';

const positiveInt = z.coerce.number({ message: 'must be a number' }).int('must be a whole number').positive('must be positive');
const nonNegativeInt = z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more');

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce
    .number({ message: 'must be a port number (0-65535)' })
    .int('must be a port number (0-65535)')
    .min(0, 'must be a port number (0-65535)')
    .max(65535, 'must be a port number (0-65535)')
    .default(4000),
  DATABASE_URL: z
    .string()
    .min(1)
    .default('data/app.db')
    .transform((value, ctx) => {
      const target = databaseTarget(value);
      if (target === null) {
        ctx.addIssue({ code: 'custom', message: 'must be a SQLite file path (or sqlite:PATH, sqlite://PATH, file:PATH) or a postgres:// URL' });
        return z.NEVER;
      }
      return target;
    }),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo workspace when the database has no workspace yet. */
  SEED_DEMO: booleanFlag.default(true),
  RATE_LIMIT_IP_POINTS: positiveInt.default(600),
  RATE_LIMIT_IP_WINDOW_SECONDS: positiveInt.default(10),
  RATE_LIMIT_WORKSPACE_POINTS: positiveInt.default(120),
  RATE_LIMIT_WORKSPACE_WINDOW_SECONDS: positiveInt.default(10),
  /** Use X-Forwarded-For for the client IP; only behind a proxy you control. */
  TRUST_PROXY: booleanFlag.default(false),
  /** Largest accepted request body, in bytes. */
  BODY_LIMIT_BYTES: positiveInt.default(1_000_000),
  /** How long a token lookup is cached; a revocation takes effect within this time. */
  TOKEN_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  GRAPHIQL: booleanFlag.optional(),
  /** Let GraphiQL keep the Headers tab (tokens) in the browser's localStorage. */
  GRAPHIQL_PERSIST_HEADERS: booleanFlag.default(false),
  /** The contacts web app's build, served at /app/; unset: examples/contacts-web/dist of this checkout. */
  WEB_APP_DIR: z.string().min(1).optional(),
  INTROSPECTION: booleanFlag.optional(),
  GRAPHQL_MAX_DEPTH: positiveInt.default(8),
  GRAPHQL_MAX_COST: positiveInt.default(5000),
  GRAPHQL_MAX_ALIASES: positiveInt.default(30),
  GRAPHQL_MAX_TOKENS: positiveInt.default(2000),
  /** Field nodes of an operation once its fragments are spread out (measured without spreading them). */
  GRAPHQL_MAX_FIELDS: positiveInt.default(1000),
  /** Fragment spreads written in one document. */
  GRAPHQL_MAX_FRAGMENT_SPREADS: positiveInt.default(100),
  /** Directives of an operation, fragments spread out. */
  GRAPHQL_MAX_DIRECTIVES: positiveInt.default(50),
  /** Directives on any one field, fragment spread or inline fragment. */
  GRAPHQL_MAX_DIRECTIVES_PER_FIELD: positiveInt.default(4),
  /**
   * Operations with more fields than this (fragments spread out) run on graphql-js instead of being
   * compiled by graphql-jit: compiling takes time in proportion to the fields, once per document, on
   * the event loop, where a large document would hold back every other request (bench/README.md).
   */
  GRAPHQL_JIT_MAX_FIELDS: nonNegativeInt.default(400),
  /** Nesting of arrays and objects in any JSON the service reads (bodies, GraphQL variables). */
  JSON_MAX_DEPTH: positiveInt.max(1000, 'must be at most 1000').default(64),
  /** Expose X-Db-Statements (SQL statements run for the request). */
  EXPOSE_DB_STATEMENTS: booleanFlag.optional(),
  /**
   * Check every REST answer against its route's response schema (a mismatch is a 500 naming the
   * route). On by default outside production, where the tests run every route: the check costs
   * more than a cheap read itself, and the schemas do not change what they check.
   */
  CHECK_RESPONSES: booleanFlag.optional(),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  /**
   * Event-loop watchdog (a worker thread): a loop blocked longer than this is logged with the
   * requests in flight and fails /readyz until it has run freely for as long again.
   */
  EVENT_LOOP_STALL_MS: positiveInt.default(5_000),
  /** A loop blocked longer than this kills the process (SIGKILL) for its supervisor to replace; 0 never does. */
  EVENT_LOOP_ABORT_MS: nonNegativeInt.default(30_000),
  /**
   * After SIGTERM, how long the server keeps serving (with /readyz at 503 and `Connection: close`
   * on every answer) so a load balancer stops sending before the port closes.
   */
  SHUTDOWN_DRAIN_MS: nonNegativeInt.default(5_000),
  /** Slow clients: a request's headers, and the whole request, must arrive within these times. */
  HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  /** How long an idle keep-alive connection is kept open. */
  KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(5_000),
  /** Open connections per server process; beyond it a new connection gets 503 with Retry-After at once. */
  MAX_CONNECTIONS: positiveInt.default(512),
  /** Server processes sharing the port (node:cluster); 1 runs the server in this process. */
  WEB_CONCURRENCY: positiveInt.max(64, 'must be at most 64').default(1),
  /** Origins allowed to call the API from a browser: `*` (any, never with credentials) or a comma-separated list. */
  CORS_ORIGINS: z
    .string()
    .default('*')
    .transform((v, ctx) => {
      if (v.trim() === '*') return '*' as const;
      const origins = v.split(',').map((o) => o.trim()).filter(Boolean);
      const bad = origins.find((o) => !/^https?:\/\/[^/\s]+$/i.test(o));
      if (bad !== undefined || origins.length === 0) {
        ctx.addIssue({ code: 'custom', message: `must be * or a comma-separated list of origins like https://app.example.com${bad ? ` (not ${JSON.stringify(bad)})` : ''}` });
        return z.NEVER;
      }
      return origins;
    }),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Responses at least this large are compressed (gzip or br) when the client accepts it. */
  COMPRESSION_MIN_BYTES: nonNegativeInt.default(1024),
  /** After a Redis command times out, rate limits are counted in this process for this long before Redis is asked again. */
  REDIS_RETRY_AFTER_MS: positiveInt.default(5_000),
  /** How the engine reaches the networks: `sandbox` records every action in the outbox; `http` calls the Graph API. */
  CHANNEL_ADAPTER: z.enum(['sandbox', 'http'], { message: 'must be sandbox or http' }).default('sandbox'),
  /** The Graph API's base URL with its version (`https://graph.example.com/v21.0`); required by CHANNEL_ADAPTER=http. */
  GRAPH_API_BASE_URL: z.string().regex(/^https?:\/\/[^\s/]+/i, 'must be an http(s):// URL').optional(),
  /** The access token the HTTP adapter sends (Authorization: Bearer); required by CHANNEL_ADAPTER=http. */
  GRAPH_API_ACCESS_TOKEN: z.string().optional(),
  /** Each Graph API request is abandoned after this long (a retryable failure). */
  GRAPH_API_TIMEOUT_MS: positiveInt.default(10_000),
  /**
   * Our app's id on the networks (the primary receiver of the inboxes' messages): thread control
   * compares the thread owner a network names with it.
   */
  CHANNEL_APP_ID: z.string().min(1).max(100).default('messaging-api'),
  /** The app a thread is handed to when we pass or release it without naming one (the networks' inbox app, or a human-agent tool). */
  HANDOVER_TARGET_APP_ID: z.string().min(1).max(100).default('page-inbox'),
  /** The networks' app secret: POST /webhooks/* must carry X-Hub-Signature-256 made with it. Unset: webhooks answer 503. */
  WEBHOOK_APP_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  /** What the networks' subscription handshake (GET /webhooks/*) must send as hub.verify_token. Unset: the handshake is refused. */
  WEBHOOK_VERIFY_TOKEN: z.string().min(1).optional(),
  /** The largest webhook body taken (a network batches many changes in one delivery); larger is 413 before anything is read. */
  WEBHOOK_BODY_LIMIT_BYTES: positiveInt.default(5_000_000),
  /**
   * Webhook requests with a bad or missing signature an address may send per window: past it, its
   * webhook requests are 429 before their body is read or hashed (the networks sign every delivery,
   * so only a misconfigured or hostile sender spends this budget).
   */
  WEBHOOK_BAD_SIGNATURE_POINTS: positiveInt.default(30),
  WEBHOOK_BAD_SIGNATURE_WINDOW_SECONDS: positiveInt.default(60),
  /** Run the job queue's workers in the server process (both engines); `npm run worker` runs them without the server (PostgreSQL). */
  RUN_WORKERS: booleanFlag.default(true),
  /** Jobs one process runs at the same time. */
  WORKER_CONCURRENCY: positiveInt.max(100, 'must be at most 100').default(4),
  /** How often an idle worker looks for due jobs (PostgreSQL is also woken by LISTEN/NOTIFY; SQLite by an enqueue in the same process). */
  WORKER_POLL_INTERVAL_MS: positiveInt.max(60_000, 'must be at most 60000').default(1_000),
  /** After SIGTERM, how long running jobs may take to finish before they are released for another process. */
  WORKER_SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  /** PostgreSQL: how often each process records that its workers live; a worker silent for 4 beats is taken for dead and its jobs are unlocked. */
  WORKER_HEARTBEAT_MS: positiveInt.min(100, 'must be at least 100').max(300_000, 'must be at most 300000').default(15_000),
  /**
   * `host:port`s outbound requests may reach whatever their address (comma-separated): the guard
   * against private addresses lets these through. For receivers on loopback in tests; empty in
   * production.
   */
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const hosts = v.split(',').map((h) => h.trim()).filter(Boolean);
      const bad = hosts.find((h) => !/^[^\s:/]+:\d{1,5}$|^\[[0-9a-f:.]+\]:\d{1,5}$/i.test(h));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of host:port (not ${JSON.stringify(bad)})` });
        return z.NEVER;
      }
      return hosts;
    }),
  /** Seconds before each retry of a failed webhook delivery (comma-separated); after the last, the delivery has failed. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_WEBHOOK_RETRY_SCHEDULE)
    .transform((v, ctx) => {
      const delays = v.split(',').map((d) => Number(d.trim()));
      if (delays.length === 0 || delays.some((d) => !Number.isFinite(d) || d < 0)) {
        ctx.addIssue({ code: 'custom', message: 'must be comma-separated seconds, each 0 or more' });
        return z.NEVER;
      }
      return delays.map((d) => d * 1000);
    }),
  /** A webhook whose every delivery has failed for this long is disabled. */
  WEBHOOK_DISABLE_AFTER_SECONDS: positiveInt.default(5 * 24 * 3600),
  /** A webhook attempt must connect within this, and be answered within the second. */
  WEBHOOK_CONNECT_TIMEOUT_MS: positiveInt.default(5_000),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(15_000),
  /** How often the fan-out and subscriptions look for new events (they are also woken at once in the process that records them). */
  EVENTS_POLL_MS: positiveInt.max(60_000, 'must be at most 60000').default(500),
  /** Open GraphQL event subscriptions per workspace and process; one more is refused (429). */
  SUBSCRIPTIONS_PER_WORKSPACE: positiveInt.default(20),
  /**
   * The address clients reach this service at, without a trailing slash: public links (a dynamic
   * image's imageUrl) start with it. Default http://localhost:<PORT>.
   */
  PUBLIC_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i, 'must be an http(s):// URL without a query')
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  /** Signs public dynamic-image links (at least 32 characters); unset: a key the service makes once and keeps in the database. */
  DYNAMIC_IMAGE_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** How long a signed per-contact image link (renderUrl) stays good. */
  DYNAMIC_IMAGE_LINK_TTL_SECONDS: positiveInt.default(30 * 24 * 3600),
  /** Threads drawing dynamic images (off the request thread); each is recycled after IMAGE_RENDER_RECYCLE_AFTER renders. */
  IMAGE_RENDER_THREADS: positiveInt.max(16, 'must be at most 16').default(2),
  /** Renders that may wait for a thread; one more is refused at once with 503 and Retry-After. */
  IMAGE_RENDER_QUEUE: nonNegativeInt.max(1000, 'must be at most 1000').default(16),
  IMAGE_RENDER_RECYCLE_AFTER: positiveInt.default(500),
  /** A whole render (its pictures fetched, then drawn) ends within this. */
  IMAGE_RENDER_TIMEOUT_MS: positiveInt.default(10_000),
  /** Each remote picture: fetched within this, at most this many bytes and pixels (read from its header, before decoding). */
  IMAGE_PICTURE_TIMEOUT_MS: positiveInt.default(3_000),
  IMAGE_PICTURE_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
  IMAGE_PICTURE_MAX_PIXELS: positiveInt.default(25_000_000),
  /** Where rendered PNGs are kept on SQLite (default: `renders/` beside the database file); on PostgreSQL they are kept in the database. */
  IMAGE_STORE_DIR: z.string().min(1).optional(),
  /** Where contact CSV files (imports, exports) are kept on SQLite (default: `files/` beside the database file); on PostgreSQL they are kept in the database. */
  CONTACT_FILE_DIR: z.string().min(1).optional(),
  /** Past this many bytes of stored renders, the least recently used are deleted. */
  IMAGE_STORE_MAX_BYTES: positiveInt.default(512 * 1024 * 1024),
  /** PostgreSQL: the schema graphile-worker keeps its jobs in (created at start-up). */
  WORKER_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case schema name (letters, digits, _; at most 63)')
    .default('graphile_worker'),
}).superRefine((c, ctx) => {
  if (c.CHANNEL_ADAPTER !== 'http') return;
  for (const name of ['GRAPH_API_BASE_URL', 'GRAPH_API_ACCESS_TOKEN'] as const) {
    if (c[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when CHANNEL_ADAPTER is http' });
  }
});

export type Config = z.infer<typeof configSchema> & {
  GRAPHIQL: boolean;
  INTROSPECTION: boolean;
  EXPOSE_DB_STATEMENTS: boolean;
  CHECK_RESPONSES: boolean;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty variables mean "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (${present[String(i.path[0])] === undefined ? 'not set' : `got ${JSON.stringify(withoutPassword(present[String(i.path[0])]))}`})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dev = c.NODE_ENV !== 'production';
  return {
    ...c,
    GRAPHIQL: c.GRAPHIQL ?? dev,
    INTROSPECTION: c.INTROSPECTION ?? dev,
    EXPOSE_DB_STATEMENTS: c.EXPOSE_DB_STATEMENTS ?? dev,
    CHECK_RESPONSES: c.CHECK_RESPONSES ?? dev,
  };
}

/** A URL's password never reaches a terminal or a log: `postgres://me:***@host/db`. */
const withoutPassword = (value: string | undefined) => value?.replace(/^([a-z][\w+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

/**
 * What DATABASE_URL names: a postgres:// URL as given, or the path of a SQLite file, written as a
 * plain path or as `sqlite:PATH`, `sqlite://PATH` (`sqlite:///abs/path` is absolute), `file:PATH`
 * or a `file:///abs/path` URL. Null for anything else with a scheme (`mysql://...`), so a URL the
 * service cannot open is never taken for a file name.
 */
export function databaseTarget(value: string): string | null {
  if (isPostgresUrl(value)) return value;
  if (value === ':memory:') return value;
  let path: string;
  if (/^file:\/\//i.test(value)) {
    try {
      path = fileURLToPath(value);
    } catch {
      return null;
    }
  } else {
    const m = /^(?:sqlite:\/\/|sqlite:|file:)(.*)$/i.exec(value);
    path = m ? m[1] : value;
  }
  // A scheme of two or more letters is a URL we do not serve (one letter is a Windows drive).
  if (path === '' || /^[a-z][a-z0-9+.-]+:/i.test(path)) return null;
  return path;
}
