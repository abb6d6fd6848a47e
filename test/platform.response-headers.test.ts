import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Headers every answer carries (nosniff, no referrer, no caching of token-dependent answers), a
 * validator on successful reads (ETag, 304 on If-None-Match), and compression (br or gzip as the
 * client prefers, from COMPRESSION_MIN_BYTES).
 */
describe('response headers', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const raw = (path: string, headers: Record<string, string> = {}) => t.app.fetch(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${ws.developerToken}`, ...headers } }));
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_WORKSPACE_POINTS: '1000', COMPRESSION_MIN_BYTES: '200' });
    ws = await t.workspace();
    for (let i = 0; i < 20; i++) await t.db.insertInto('tags').values({ workspace_id: ws.id, name: `tag number ${i}`, created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z' }).execute();
  });
  afterAll(() => t.close());

  it('security headers and no-store on answers, errors and GraphQL alike', async () => {
    const answers = [
      await t.request('GET', '/v1/tags', { token: ws.developerToken }),
      await t.request('GET', '/v1/tags'),
      await t.request('GET', '/v1/nope', { token: ws.developerToken }),
      await t.graphql('{ tags { name } }', undefined, { token: ws.developerToken }),
      await t.request('GET', '/healthz'),
    ];
    for (const res of answers) {
      expect({
        nosniff: res.headers.get('x-content-type-options'),
        referrer: res.headers.get('referrer-policy'),
        cache: res.headers.get('cache-control'),
      }).toEqual({ nosniff: 'nosniff', referrer: 'no-referrer', cache: 'no-store' });
    }
  });

  it('an ETag on successful reads; 304 without a body when it still matches, 200 once it does not', async () => {
    const first = await raw('/v1/tags');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
    const body = await first.text();

    const again = await raw('/v1/tags', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // Any of several validators, and the strong form of the same tag, match too.
    expect((await raw('/v1/tags', { 'if-none-match': `"other", ${etag.slice(2)}` })).status).toBe(304);

    await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'etag@example.com' } });
    await t.db.insertInto('tags').values({ workspace_id: ws.id, name: 'one more', created_at: '2026-11-02T00:00:00.000Z', updated_at: '2026-11-02T00:00:00.000Z' }).execute();
    const changed = await raw('/v1/tags', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(JSON.parse(await changed.text()).data).toHaveLength(JSON.parse(body).data.length + 1);
    // Errors and writes carry none.
    expect((await raw('/v1/net-comments/999')).headers.get('etag')).toBeNull();
  });

  it('compresses with the encoding the client prefers, from COMPRESSION_MIN_BYTES; small answers stay plain', async () => {
    const plain = await (await raw('/v1/tags')).text();
    expect(plain.length).toBeGreaterThan(200);

    const br = await raw('/v1/tags', { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.headers.get('content-encoding'), br.headers.get('vary')]).toEqual(['br', 'Accept-Encoding']);
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(plain);

    const gz = await raw('/v1/tags', { 'accept-encoding': 'br;q=0.5, gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(plain);

    const identity = await raw('/v1/tags', { 'accept-encoding': 'identity' });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toBe(plain);

    const small = await raw('/healthz', { 'accept-encoding': 'gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toEqual({ status: 'ok' });
  });

  it('compresses GraphQL answers as it compresses REST ones', async () => {
    const body = JSON.stringify({ query: '{ tags { name createdAt } }' });
    const post = (headers: Record<string, string> = {}) =>
      t.app.fetch(
        new Request('http://localhost/graphql', {
          method: 'POST',
          headers: { authorization: `Bearer ${ws.developerToken}`, 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
          body,
        }),
      );
    const plain = await (await post()).text();
    expect(plain.length).toBeGreaterThan(200);
    const gz = await post({ 'accept-encoding': 'gzip' });
    expect([gz.status, gz.headers.get('content-encoding'), gz.headers.get('content-type')]).toEqual([200, 'gzip', 'application/json; charset=utf-8']);
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(plain);
  });
});

describe('CORS', () => {
  const preflight = (t: TestApp, origin: string) =>
    t.app.fetch(new Request('http://localhost/v1/tags', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, idempotency-key' } }));

  it('by default any origin may call, never with credentials', async () => {
    const t = await createTestApp();
    try {
      const ws = await t.workspace();
      const pre = await preflight(t, 'https://evil.example');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://evil.example');
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, idempotency-key');
      const res = await t.request('GET', '/v1/tags', { token: ws.developerToken, headers: { origin: 'https://app.example' } });
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Policy');
    } finally {
      await t.close();
    }
  });

  it('with CORS_ORIGINS only those origins are allowed', async () => {
    const t = await createTestApp({ CORS_ORIGINS: 'https://app.example.com, https://admin.example.com' });
    try {
      const allowed = await preflight(t, 'https://admin.example.com');
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
      expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
      const other = await preflight(t, 'https://evil.example');
      expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    } finally {
      await t.close();
    }
  });
});

describe('METRICS_TOKEN', () => {
  it('keeps /metrics closed without the token; the API is unaffected', async () => {
    const token = 'metrics-secret-0123456789';
    const t = await createTestApp({ METRICS_TOKEN: token });
    try {
      const none = await t.request('GET', '/metrics');
      expect([none.status, none.body.code, none.headers.get('www-authenticate')]).toEqual([401, 'UNAUTHORIZED', 'Bearer realm="metrics"']);
      expect((await t.request('GET', '/metrics', { headers: { authorization: 'Bearer metrics-secret-012345678' } })).status).toBe(401);
      const ok = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('http_requests_total');
      expect((await t.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
