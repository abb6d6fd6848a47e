import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient, type TestWorkspace } from './support/harness.js';
import { redisUrl } from './support/engine.js';

/**
 * With REDIS_URL, rate-limit budgets live in Redis: two server processes (here two app instances
 * on one database) share one budget. Without it, each process counts alone. When Redis stops
 * answering, each process falls back to counting alone instead of failing requests.
 */
describe.skipIf(!redisUrl)('rate limits shared through Redis (TEST_REDIS_URL)', () => {
  let t: TestApp;
  let second: TestClient;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: redisUrl!, RATE_LIMIT_IP_POINTS: '1000', RATE_LIMIT_WORKSPACE_POINTS: '4', RATE_LIMIT_WORKSPACE_WINDOW_SECONDS: '60' });
    second = await t.sibling();
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it('two instances spend one workspace budget', async () => {
    const statuses = [];
    for (const client of [t, second, t, second, second, t]) {
      const res = await client.request('GET', '/v1/tags', { token: ws.developerToken });
      statuses.push([res.status, res.headers.get('ratelimit-remaining')]);
    }
    expect(statuses).toEqual([
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
      [429, '0'],
    ]);
  });
});

describe('rate limits without Redis', () => {
  it('are counted by each process alone', async () => {
    const t = await createTestApp({ REDIS_URL: '', RATE_LIMIT_WORKSPACE_POINTS: '2', RATE_LIMIT_WORKSPACE_WINDOW_SECONDS: '60' });
    try {
      const second = await t.sibling();
      const ws = await t.workspace();
      const statuses = [];
      for (const client of [t, t, t, second, second, second]) statuses.push((await client.request('GET', '/v1/tags', { token: ws.developerToken })).status);
      expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
    } finally {
      await t.close();
    }
  });

  it('fall back to the process when Redis does not answer, without failing or slowing requests', async () => {
    // Nothing listens on port 1: every Redis command fails.
    const t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_WORKSPACE_POINTS: '2', RATE_LIMIT_WORKSPACE_WINDOW_SECONDS: '60' });
    try {
      const ws = await t.workspace();
      const started = Date.now();
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.request('GET', '/v1/tags', { token: ws.developerToken })).status);
      expect(statuses).toEqual([200, 200, 429]);
      // Waiting on Redis would cost each request about a second (three: 3 s); the margin is for a loaded machine.
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      await t.close();
    }
  });
});
