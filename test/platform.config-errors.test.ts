import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { ServerExitedError, startServer } from './support/processes.js';

/**
 * Bad configuration stops the real server before it listens: exit code 1, nothing on stdout, and
 * on stderr one line per bad variable naming it (passwords in URLs masked), without a stack trace.
 * The same for start-up failures the operator can fix: a database that cannot be opened, a port in
 * use.
 */
async function failedStart(env: Record<string, string>) {
  try {
    // A start that fails loads the whole app first: seconds of module loading on an idle 2-core
    // machine, 15 s and more while the rest of the suite keeps both cores busy. The wait is for the exit,
    // which these starts always reach; the default 20 s was shorter than a loaded machine needs.
    const server = await startServer({ SEED_DEMO: 'false', ...env }, { timeoutMs: START_WAIT_MS });
    await server.stop();
    throw new Error('the server started');
  } catch (err) {
    if (!(err instanceof ServerExitedError)) throw err;
    return err.finished;
  }
}

const START_WAIT_MS = 60_000;

describe('bad configuration stops the server with a message naming the variable', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'msgapi-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cases: [string, Record<string, string>, string][] = [
    ['a port that is not a number', { PORT: 'abc' }, '  PORT: must be a port number (0-65535) (got "abc")'],
    ['a port out of range', { PORT: '70000' }, '  PORT: must be a port number (0-65535) (got "70000")'],
    ['a database URL of another engine', { DATABASE_URL: 'mysql://app:s3cret@db.example/app' }, '  DATABASE_URL: must be a SQLite file path (or sqlite:PATH, sqlite://PATH, file:PATH) or a postgres:// URL (got "mysql://app:***@db.example/app")'],
    ['a Redis URL that is not redis://', { REDIS_URL: 'http://127.0.0.1:6379' }, '  REDIS_URL: must be a redis:// URL (got "http://127.0.0.1:6379")'],
    ['a zero rate limit', { RATE_LIMIT_WORKSPACE_POINTS: '0' }, '  RATE_LIMIT_WORKSPACE_POINTS: must be positive (got "0")'],
    ['a fractional window', { RATE_LIMIT_IP_WINDOW_SECONDS: '1.5' }, '  RATE_LIMIT_IP_WINDOW_SECONDS: must be a whole number (got "1.5")'],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, expect.stringMatching(/^ {2}LOG_LEVEL: .+ \(got "loud"\)$/)],
    ['a database URL with a scheme the service does not serve', { DATABASE_URL: 'sqlite:mysql://db/app' }, `  DATABASE_URL: ${'must be a SQLite file path (or sqlite:PATH, sqlite://PATH, file:PATH) or a postgres:// URL'} (got "sqlite:mysql://db/app")`],
    ['an empty SQLite path', { DATABASE_URL: 'sqlite://' }, `  DATABASE_URL: ${'must be a SQLite file path (or sqlite:PATH, sqlite://PATH, file:PATH) or a postgres:// URL'} (got "sqlite://")`],
    ['CORS origins that are not origins', { CORS_ORIGINS: 'https://app.example.com, *.example.com' }, '  CORS_ORIGINS: must be * or a comma-separated list of origins like https://app.example.com (not "*.example.com") (got "https://app.example.com, *.example.com")'],
    ['a metrics token too short to be secret', { METRICS_TOKEN: 'abc' }, '  METRICS_TOKEN: must be at least 16 characters (got "abc")'],
    ['a flag that is not a boolean', { SEED_DEMO: 'maybe' }, '  SEED_DEMO: must be true or false (got "maybe")'],
    ['an unknown NODE_ENV', { NODE_ENV: 'staging' }, expect.stringMatching(/^ {2}NODE_ENV: .+ \(got "staging"\)$/)],
  ] as never;

  // Each rule, checked where the server checks it (the same function, in process)...
  for (const [what, env, line] of cases) {
    it(`${what}: ${Object.keys(env).join(', ')}`, () => {
      let message = '';
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message.split('\n')).toEqual(['Invalid configuration:', line]);
    });
  }

  // ...and the real server refusing to start, naming every bad variable at once.
  it('the server exits 1 before listening, with one line per bad variable on stderr', async () => {
    const result = await failedStart({ PORT: '-1', BODY_LIMIT_BYTES: 'lots', DATABASE_URL: 'mysql://app:s3cret@db.example/app' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        'Invalid configuration:',
        '  PORT: must be a port number (0-65535) (got "-1")',
        '  DATABASE_URL: must be a SQLite file path (or sqlite:PATH, sqlite://PATH, file:PATH) or a postgres:// URL (got "mysql://app:***@db.example/app")',
        '  BODY_LIMIT_BYTES: must be a number (got "lots")',
        '',
      ].join('\n'),
    );
  });

  it('a database that cannot be opened: DATABASE_URL named, exit 1', async () => {
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, 'x');
    const result = await failedStart({ DATABASE_URL: join(file, 'app.db') });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Failed to start: DATABASE_URL: cannot open or migrate the database: .+\n$/);
    const unreachable = await failedStart({ DATABASE_URL: 'postgres://app:s3cret@127.0.0.1:1/app' });
    expect(unreachable.stderr).toMatch(/^Failed to start: DATABASE_URL: cannot open or migrate the database: .*ECONNREFUSED.*\n$/);
    expect(unreachable.stderr).not.toContain('s3cret');
  }, 2 * START_WAIT_MS);

  it('a port already in use: PORT named, exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await failedStart({ PORT: String(port), DATABASE_URL: join(dir, 'port.db') });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`Failed to start: PORT: 127.0.0.1:${port} is already in use\n`);
    } finally {
      blocker.close();
    }
  }, START_WAIT_MS);
});
