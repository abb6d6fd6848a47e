import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
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

export interface TestApp {
  app: App;
  database: Database;
  db: Database['db'];
  request: <T = any>(method: string, path: string, options?: RequestOptions) => Promise<TestResponse<T>>;
  graphql: <T = any>(query: string, variables?: Record<string, unknown>, options?: RequestOptions) => Promise<TestResponse<T>>;
  workspace: (input?: Partial<CreateWorkspaceInput>) => Promise<TestWorkspace>;
  token: (workspaceId: number, input: Parameters<typeof issueToken>[2]) => Promise<string>;
  close: () => Promise<void>;
}

/**
 * The real app on a fresh, migrated database of the engine under test, driven in process through
 * its fetch handler. `env` overrides configuration exactly as environment variables would.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { url, drop } = await freshDatabaseUrl();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...env,
  });
  const database = createDatabase(url, createLogger('silent'));
  await migrateToLatest(database.db);
  const app = buildApp({ config, database, logger: createLogger(config.LOG_LEVEL), rateLimitKeyPrefix: `test-${randomBytes(4).toString('hex')}` });

  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> => {
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

  return {
    app,
    database,
    db: database.db,
    request,
    graphql: (query, variables, options = {}) => request('POST', '/graphql', { ...options, body: { query, variables } }),
    workspace: async (input = {}) => {
      const created = await createWorkspace(database.db, { name: 'Test Workspace', ...input });
      return { id: created.workspace.id, developerToken: created.tokens.developer.token, userToken: created.tokens.user.token, created };
    },
    token: async (workspaceId, input) => (await issueToken(database.db, workspaceId, input)).token,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}
