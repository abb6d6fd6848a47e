import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { runProgram, startServer, startWorker } from './support/processes.js';
import { workerSchemaForTest } from './support/queue.js';

/**
 * The process types of the job queue as an operator starts them: the server runs workers unless
 * RUN_WORKERS=false, and `npm run worker` (src/worker.ts) runs them without the HTTP server on
 * PostgreSQL, stopping cleanly on SIGTERM; on SQLite it refuses in one line.
 */
describe(`job worker processes on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  const workerSchema = workerSchemaForTest();
  beforeAll(async () => {
    target = await freshDatabaseUrl();
  });
  afterAll(async () => {
    await target.drop();
  });

  const loggedWorkers = (stdout: string) => stdout.split('\n').some((line) => line.includes('"msg":"job workers running"'));

  it('the server runs the job workers by default, not with RUN_WORKERS=false, and stops cleanly on SIGTERM', async () => {
    const env = { DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema, SEED_DEMO: 'false' };
    const withWorkers = await startServer(env);
    const first = await withWorkers.stop();
    expect(first.code).toBe(0);
    expect(loggedWorkers(first.stdout)).toBe(true);

    const without = await startServer({ ...env, RUN_WORKERS: 'false' });
    const second = await without.stop();
    expect(second.code).toBe(0);
    expect(loggedWorkers(second.stdout)).toBe(false);
  }, 90_000);

  it('validates the worker settings like every other variable', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message.split('\n').slice(1);
      }
    };
    expect(problems({ RUN_WORKERS: 'maybe', WORKER_CONCURRENCY: '0', WORKER_POLL_INTERVAL_MS: '1.5', WORKER_SHUTDOWN_TIMEOUT_MS: 'soon', WORKER_SCHEMA: 'Jobs-1' })).toEqual([
      '  RUN_WORKERS: must be true or false (got "maybe")',
      '  WORKER_CONCURRENCY: must be positive (got "0")',
      '  WORKER_POLL_INTERVAL_MS: must be a whole number (got "1.5")',
      '  WORKER_SHUTDOWN_TIMEOUT_MS: must be a number (got "soon")',
      '  WORKER_SCHEMA: must be a lower-case schema name (letters, digits, _; at most 63) (got "Jobs-1")',
    ]);
    expect(problems({ WORKER_CONCURRENCY: '101' })).toEqual(['  WORKER_CONCURRENCY: must be at most 100 (got "101")']);
    const defaults = loadConfig({});
    expect([defaults.RUN_WORKERS, defaults.WORKER_CONCURRENCY, defaults.WORKER_POLL_INTERVAL_MS, defaults.WORKER_SHUTDOWN_TIMEOUT_MS, defaults.WORKER_SCHEMA]).toEqual([true, 4, 1000, 10000, 'graphile_worker']);
  });

  it.runIf(testEngine === 'sqlite')('npm run worker refuses on SQLite, in one line', async () => {
    const result = await runProgram('src/worker.ts', [], { DATABASE_URL: target.url });
    expect(result).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'npm run worker needs PostgreSQL (DATABASE_URL=postgres://...): on SQLite the server process runs the jobs (RUN_WORKERS=true, the default)\n',
    });
  });

  it.runIf(testEngine === 'postgres')('two `npm run worker` processes start on one database and stop cleanly on SIGTERM', async () => {
    const start = () => startWorker({ DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema, LOG_LEVEL: 'silent' });
    const workers = [start(), start()];
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.child.kill('SIGTERM');
    const finished = await Promise.all(workers.map((w) => w.exited));
    for (const f of finished) {
      expect(f).toEqual({
        code: 0,
        signal: null,
        stdout: `Job worker running (postgres, schema ${workerSchema}, 4 jobs at a time); SIGTERM stops it gracefully\n`,
        stderr: '',
      });
    }
  }, 90_000);
});
