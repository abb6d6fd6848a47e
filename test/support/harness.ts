import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { prepareJobQueue } from '../../src/queue/index.js';
import { issueToken } from '../../src/domain/auth/token.service.js';
import { createWorkspace, type CreatedWorkspace } from '../../src/domain/workspaces/workspace.service.js';
import type { CreateWorkspaceInput } from '../../src/domain/workspaces/workspace.schema.js';
import { createLogger } from '../../src/observability/logger.js';
import { freshDatabaseUrl, redisUrl } from './engine.js';
import { randomBytes } from 'node:crypto';

export interface TestWorkspace {
  id: number;
  developerToken: string;
  userToken: string;
  created: CreatedWorkspace;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  /** Send the token as ?token= instead of the Authorization header. */
  tokenInQuery?: boolean;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestAppOptions {
  /** Collect the app's log lines (parsed JSON) in `t.logs`, at LOG_LEVEL (default `info`). */
  captureLogs?: boolean;
  /** Collect the SQL text of every statement the database runs in `t.statements`. */
  captureStatements?: boolean;
}

export interface TestApp {
  app: App;
  database: Database;
  db: Database['db'];
  config: Config;
  request: <T = any>(method: string, path: string, options?: RequestOptions) => Promise<TestResponse<T>>;
  graphql: <T = any>(query: string, variables?: Record<string, unknown>, options?: RequestOptions) => Promise<TestResponse<T>>;
  workspace: (input?: Partial<CreateWorkspaceInput>) => Promise<TestWorkspace>;
  token: (workspaceId: number, input: Parameters<typeof issueToken>[2]) => Promise<string>;
  /** Log lines written so far (only with `captureLogs`). */
  logs: Record<string, any>[];
  /** SQL texts of the statements run so far, oldest first (only with `captureStatements`; empty it to start over). */
  statements: string[];
  /**
   * A second app instance (as a second server process would be) on the same database and, when
   * Redis is configured, the same rate-limit keys. Closed with the first.
   */
  sibling: () => Promise<TestClient>;
  close: () => Promise<void>;
}

/** Requests against one app instance. */
export interface TestClient {
  app: App;
  request: TestApp['request'];
}

/** Drives an app in process through its fetch handler, as an HTTP client would. */
function clientFor(app: App): TestApp['request'] {
  return async <T>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    let target = path;
    if (options.token !== undefined) {
      if (options.tokenInQuery) target += `${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(options.token)}`;
      else headers.authorization = `Bearer ${options.token}`;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
      // Real clients send Content-Length with a fixed body; POST /graphql requires it.
      headers['content-length'] ??= String(Buffer.byteLength(body));
    }
    const response = await app.fetch(new Request(`http://localhost${target}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* non-JSON bodies (metrics, HTML) stay text */
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };
}

/**
 * The real app on a fresh, migrated database of the engine under test, driven in process through
 * its fetch handler. `env` overrides configuration exactly as environment variables would.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { url, drop } = await freshDatabaseUrl();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: options.captureLogs ? 'info' : 'silent',
    DATABASE_URL: url,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...env,
  });
  const logs: Record<string, any>[] = [];
  const logger = options.captureLogs
    ? createLogger(config.LOG_LEVEL, { write: (line: string) => void logs.push(JSON.parse(line)) })
    : createLogger(config.LOG_LEVEL);
  const statements: string[] = [];
  const database = createDatabase(url, options.captureStatements ? { onStatement: (sql) => void statements.push(sql) } : {});
  await migrateToLatest(database.db);
  // As the server starts (src/server.ts): on PostgreSQL, enqueueing needs graphile-worker's schema.
  // Without it, a test that enqueues passed only when another file had installed it first.
  await prepareJobQueue(database, config, logger);
  const rateLimitKeyPrefix = `test-${randomBytes(4).toString('hex')}`;
  const app = buildApp({ config, database, logger, rateLimitKeyPrefix });
  await app.ready();
  const request = clientFor(app);
  const siblings: App[] = [];

  return {
    app,
    database,
    db: database.db,
    config,
    request,
    graphql: (query, variables, options = {}) => request('POST', '/graphql', { ...options, body: { query, variables } }),
    workspace: async (input = {}) => {
      const created = await createWorkspace(database.db, { name: 'Test Workspace', ...input });
      return { id: created.workspace.id, developerToken: created.tokens.developer.token, userToken: created.tokens.user.token, created };
    },
    token: async (workspaceId, input) => (await issueToken(database.db, workspaceId, input)).token,
    logs,
    statements,
    sibling: async () => {
      // Shares the database handle, so closing it must be left to the first app.
      const twin = buildApp({ config, database: { ...database, destroy: async () => {} }, logger, rateLimitKeyPrefix });
      siblings.push(twin);
      await twin.ready();
      return { app: twin, request: clientFor(twin) };
    },
    close: async () => {
      for (const twin of siblings) await twin.close();
      await app.close();
      await drop();
    },
  };
}

/**
 * The real app on an existing database (one a CLI command or a server process made), driven in
 * process. The caller owns the database: `close` disconnects without dropping it.
 */
export async function openTestApp(databaseUrl: string, env: Record<string, string> = {}): Promise<TestClient & { close: () => Promise<void> }> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, ...(redisUrl ? { REDIS_URL: redisUrl } : {}), ...env });
  const app = buildApp({ config, logger: createLogger('silent'), rateLimitKeyPrefix: `test-${randomBytes(4).toString('hex')}` });
  await app.ready();
  return { app, request: clientFor(app), close: () => app.close() };
}
