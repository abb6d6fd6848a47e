import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/observability/logger.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { testEngine } from './support/engine.js';

/**
 * GET /healthz: the process is up (never touches the database). GET /readyz: the database answers;
 * 503 serviceUnavailable when it does not (closed under the app, nothing listening, or a server
 * that accepts connections and never replies).
 */
const unavailable = { defined: false, code: 'serviceUnavailable', status: 503, message: 'The database is not reachable' };

async function probe(databaseUrl: string) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl });
  const app = buildApp({ config, logger: createLogger('silent') });
  try {
    const get = async (path: string) => {
      const res = await app.fetch(new Request(`http://localhost${path}`));
      return { status: res.status, body: await res.json() };
    };
    return { healthz: await get('/healthz'), readyz: await get('/readyz') };
  } finally {
    await app.close();
  }
}

describe('health and readiness probes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answer 200 without a token while the database is up', async () => {
    const health = await t.request('GET', '/healthz');
    expect([health.status, health.body]).toEqual([200, { status: 'ok' }]);
    expect(health.headers.get('x-db-statements')).toBe('0');
    const ready = await t.request('GET', '/readyz');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ok', database: testEngine }]);
  });

  it('/readyz is 503 once the database is closed under the app; /healthz stays 200', async () => {
    const other = await createTestApp();
    try {
      await other.database.destroy();
      const ready = await other.request('GET', '/readyz');
      expect([ready.status, ready.body]).toEqual([503, unavailable]);
      expect((await other.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await other.close().catch(() => {});
    }
  });

  it('/readyz is 503 when nothing listens at the PostgreSQL address', async () => {
    const { healthz, readyz } = await probe('postgres://postgres@127.0.0.1:1/test');
    expect(healthz).toEqual({ status: 200, body: { status: 'ok' } });
    expect(readyz).toEqual({ status: 503, body: unavailable });
  });

  describe('a PostgreSQL server that accepts connections and never replies', () => {
    let silent: Server;
    let port: number;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      silent = createServer((socket) => void sockets.push(socket));
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      port = (silent.address() as { port: number }).port;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silent.close(r));
    });

    it('/readyz gives up within seconds with 503', async () => {
      const started = Date.now();
      const { readyz } = await probe(`postgres://postgres@127.0.0.1:${port}/test`);
      expect(readyz).toEqual({ status: 503, body: unavailable });
      // Bounded by the 3-second connection time-out, with room for a loaded machine; without it,
      // the probe would hang until the test's own 30-second limit.
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
});
