import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse, type TestWorkspace } from './support/harness.js';
import { envelopes } from './support/endpoints.js';

/**
 * Rate limits: per client IP before authentication, per workspace after it, with 1-second windows
 * here. A burst over the budget gets 429 tooManyRequests with Retry-After, every response carries
 * RateLimit-Limit/-Remaining/-Reset, and the budget comes back after the window. The client IP is
 * taken from X-Forwarded-For only with TRUST_PROXY (in process there is no socket address).
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const limitHeaders = (res: TestResponse) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: res.headers.get('ratelimit-reset'),
  retryAfter: res.headers.get('retry-after'),
});

/** Waits until the current window of `windowMs` has just begun, so a burst fits inside one. */
async function waitForWindowStart(lastRefusal: TestResponse) {
  await sleep(Number(lastRefusal.headers.get('retry-after')) * 1000 + 50);
}

describe('per-IP rate limit, before authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_IP_POINTS: '3', RATE_LIMIT_IP_WINDOW_SECONDS: '1', TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  const from = (ip: string, token?: string) => t.request('GET', '/v1/tags', { token, headers: { 'x-forwarded-for': `${ip}, 10.9.9.9` } });

  it('refuses a burst with 429 and the headers, keeps other IPs apart, and recovers after the window', async () => {
    const burst: TestResponse[] = [];
    for (let i = 0; i < 5; i++) burst.push(await from('203.0.113.1'));
    // Unauthenticated calls spend the IP budget too: authentication comes after the limit.
    expect(burst.map((r) => r.status)).toEqual([401, 401, 401, 429, 429]);
    expect(burst.slice(0, 3).map((r) => limitHeaders(r))).toEqual([
      { limit: '3', remaining: '2', reset: '1', retryAfter: null },
      { limit: '3', remaining: '1', reset: '1', retryAfter: null },
      { limit: '3', remaining: '0', reset: '1', retryAfter: null },
    ]);
    expect(limitHeaders(burst[3])).toEqual({ limit: '3', remaining: '0', reset: '1', retryAfter: '1' });
    // The policy beside them (draft-ietf-httpapi-ratelimit-headers): 3 requests per 1-second window.
    for (const r of burst) expect(r.headers.get('ratelimit-policy')).toBe('3;w=1');
    expect(burst[3].body).toEqual({ ...envelopes.tooManyRequests, data: { budget: 'ip', retryAfterSeconds: 1 } });

    // Another client has its own budget.
    expect((await from('203.0.113.2')).status).toBe(401);

    await waitForWindowStart(burst[4]);
    const recovered = await from('203.0.113.1');
    expect(recovered.status).toBe(401);
    expect(limitHeaders(recovered)).toMatchObject({ limit: '3', remaining: '2' });
  });

  it('does not limit /healthz, /readyz and /metrics', async () => {
    for (let i = 0; i < 5; i++) await from('203.0.113.3');
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const res = await t.request('GET', path, { headers: { 'x-forwarded-for': '203.0.113.3' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});

describe('X-Forwarded-For without TRUST_PROXY', () => {
  it('is ignored: a client cannot pick a fresh budget by inventing addresses', async () => {
    const t = await createTestApp({ RATE_LIMIT_IP_POINTS: '2', RATE_LIMIT_IP_WINDOW_SECONDS: '60' });
    try {
      const statuses = [];
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) statuses.push((await t.request('GET', '/v1/tags', { headers: { 'x-forwarded-for': ip } })).status);
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await t.close();
    }
  });
});

describe('per-workspace rate limit, after authentication', () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_IP_POINTS: '1000', RATE_LIMIT_WORKSPACE_POINTS: '3', RATE_LIMIT_WORKSPACE_WINDOW_SECONDS: '1' });
    a = await t.workspace({ name: 'A' });
    b = await t.workspace({ name: 'B' });
  });
  afterAll(() => t.close());

  it("shares one budget among a workspace's tokens and schemes, refuses the burst, spares other workspaces, recovers", async () => {
    const calls = [
      () => t.request('GET', '/v1/tags', { token: a.developerToken }),
      () => t.request('GET', '/v1/tags', { token: a.developerToken, tokenInQuery: true }),
      () => t.request('GET', '/v1/tags', { token: a.userToken }),
      () => t.request('GET', '/v1/error-logs', { token: a.userToken }),
      () => t.graphql('{ __typename }', undefined, { token: a.developerToken }),
    ];
    const burst: TestResponse[] = [];
    for (const call of calls) burst.push(await call());
    expect(burst.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    // Once the caller is known, the headers describe the workspace budget.
    expect(burst.map((r) => limitHeaders(r))).toEqual([
      { limit: '3', remaining: '2', reset: '1', retryAfter: null },
      { limit: '3', remaining: '1', reset: '1', retryAfter: null },
      { limit: '3', remaining: '0', reset: '1', retryAfter: null },
      { limit: '3', remaining: '0', reset: '1', retryAfter: '1' },
      { limit: '3', remaining: '0', reset: '1', retryAfter: '1' },
    ]);
    expect(burst[3].body).toEqual({ ...envelopes.tooManyRequests, data: { budget: 'workspace', retryAfterSeconds: 1 } });
    // GraphQL reports the same error in its own format.
    expect(burst[4].body).toEqual({ errors: [{ message: 'Too many requests for this workspace: retry in 1 second', extensions: { defined: true, code: 'tooManyRequests', status: 429, data: { budget: 'workspace', retryAfterSeconds: 1 } } }] });

    const other = await t.request('GET', '/v1/tags', { token: b.developerToken });
    expect([other.status, other.headers.get('ratelimit-remaining')]).toEqual([200, '2']);

    await waitForWindowStart(burst[4]);
    const recovered = await t.request('GET', '/v1/tags', { token: a.developerToken });
    expect([recovered.status, recovered.headers.get('ratelimit-remaining')]).toEqual([200, '2']);
  });

  it('puts the headers on every response, errors included', async () => {
    const w = await t.workspace({ name: 'Headers' });
    const responses = [
      await t.request('GET', '/v1/tags', { token: w.developerToken }),
      await t.request('GET', '/v1/net-comments/999', { token: w.developerToken }),
      await t.request('GET', '/v1/nope', { token: w.developerToken }),
      await t.request('GET', '/v1/tags'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 404, 401]);
    for (const r of responses) expect(Object.values(limitHeaders(r)).slice(0, 3).every((v) => v !== null && /^\d+$/.test(v))).toBe(true);
  });
});
