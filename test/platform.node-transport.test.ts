import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubSignature } from '../src/domain/events/webhook-signature.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { testEngine } from './support/engine.js';

/**
 * The server answers from node:http (http/exchange.ts fromNode/writeNode), tests mostly in process
 * through the fetch handler (fromFetch/toResponse). The same requests, sent both ways, get the same
 * answers: status, body and the headers a client reads. Plus what only a socket shows: HEAD
 * without a body, a chunked body cut at the limit, a request id per exchange.
 */
describe(`the node:http transport answers as the in-process one (${testEngine})`, () => {
  const secret = 'transport-secret-0123456789';
  let t: TestApp;
  let ws: TestWorkspace;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_APP_SECRET: secret, BODY_LIMIT_BYTES: '2048', COMPRESSION_MIN_BYTES: '100' });
    ws = await t.workspace();
    for (let i = 0; i < 12; i++) await t.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: `Tag number ${i}` } });
    server = createServer(t.app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** What a client sees of an answer: status, body, and the headers that vary with the request (ids and dates left out). */
  const seen = async (response: Response) => {
    const keep = ['content-type', 'cache-control', 'x-content-type-options', 'referrer-policy', 'etag', 'allow', 'access-control-allow-origin', 'access-control-expose-headers', 'vary', 'ratelimit-limit', 'ratelimit-policy', 'idempotent-replayed', 'location', 'content-encoding', 'x-db-statements'];
    const headers = Object.fromEntries(keep.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])));
    return { status: response.status, headers, body: await response.text() };
  };
  const both = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
    // As a socket client sends them: its length declared, and no compression (fetch asks for gzip unless told).
    const headers = { 'accept-encoding': 'identity', ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }), ...init.headers };
    const overSocket = await fetch(base + path, { method, headers, body: init.body });
    const inProcess = await t.app.fetch(new Request(`http://localhost${path}`, { method, headers, body: init.body }));
    return { socket: await seen(overSocket), process: await seen(inProcess) };
  };
  const auth = () => ({ authorization: `Bearer ${ws.developerToken}` });

  it('REST reads, writes and errors answer alike', async () => {
    const json = { ...auth(), 'content-type': 'application/json' };
    const cases: [string, string, { headers?: Record<string, string>; body?: string }][] = [
      ['GET', '/v1/tags', { headers: auth() }],
      ['GET', '/api/v1/tags', { headers: { ...auth(), origin: 'https://app.example' } }],
      ['GET', '/v1/tags?token=' + ws.developerToken, {}],
      ['GET', '/v1/tags?colour=red', { headers: auth() }],
      ['GET', '/v1/tags', {}],
      ['DELETE', '/v1/tags', { headers: auth() }],
      ['GET', '/v1/nowhere', { headers: auth() }],
      ['POST', '/v1/tags', { headers: json, body: '{"name": "x' }],
      ['POST', '/v1/tags', { headers: { ...auth(), 'content-type': 'text/plain' }, body: '{"name":"y"}' }],
      ['POST', '/v1/tags', { headers: json, body: JSON.stringify({ name: 'z'.repeat(3000) }) }],
      ['OPTIONS', '/v1/tags', { headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } }],
      ['GET', '/healthz', {}],
      ['POST', '/healthz', {}],
    ];
    for (const [method, path, init] of cases) {
      const { socket, process } = await both(method, path, init);
      expect({ method, path, ...socket }).toEqual({ method, path, ...process });
    }
  });

  it('a write, and its replay by Idempotency-Key, answer alike', async () => {
    const headers = { ...auth(), 'content-type': 'application/json', 'idempotency-key': 'transport-1' };
    const first = await fetch(`${base}/v1/tags`, { method: 'POST', headers, body: JSON.stringify({ name: 'Made over a socket' }) });
    expect(first.status).toBe(200);
    const created = await first.json();
    const replayed = await t.app.fetch(new Request('http://localhost/v1/tags', { method: 'POST', headers, body: JSON.stringify({ name: 'Made over a socket' }) }));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(created);
  });

  it('ETag and 304, HEAD without a body, and compression over the socket', async () => {
    const first = await fetch(`${base}/v1/tags`, { headers: auth() });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    const again = await fetch(`${base}/v1/tags`, { headers: { ...auth(), 'if-none-match': etag } });
    expect([again.status, await again.text()]).toEqual([304, '']);

    const head = await rawRequest('HEAD', '/v1/tags', auth());
    expect([head.status, head.body.length, head.headers['etag']]).toEqual([200, 0, etag]);

    const zipped = await rawRequest('GET', '/v1/tags', { ...auth(), 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.body).toString('utf8'))).toEqual(await first.json());
  });

  it('a chunked body past the limit is 413 without a declared length; every exchange gets its own request id', async () => {
    const chunks = ['{"name": "', 'y'.repeat(1500), 'y'.repeat(1500), '"}'];
    const res = await rawRequest('POST', '/v1/tags', { ...auth(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunks);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ code: 'payloadTooLarge', data: { limitBytes: 2048 } });
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) ids.add((await fetch(`${base}/healthz`)).headers.get('x-request-id')!);
    expect(ids.size).toBe(3);
    expect((await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'mine-1' } })).headers.get('x-request-id')).toBe('mine-1');
  });

  it('GraphQL over POST and GET, and its refusals, answer alike', async () => {
    const query = JSON.stringify({ query: '{ tags { name } }' });
    const cases: [string, string, { headers?: Record<string, string>; body?: string }][] = [
      ['POST', '/graphql', { headers: { ...auth(), 'content-type': 'application/json' }, body: query }],
      ['GET', `/graphql?query=${encodeURIComponent('{ tags { name } }')}`, { headers: auth() }],
      ['POST', '/graphql', { headers: { ...auth(), 'content-type': 'application/json' }, body: '{"query": ' }],
      ['POST', '/graphql', { headers: { 'content-type': 'application/json' }, body: query }],
      ['PUT', '/graphql', { headers: auth() }],
    ];
    for (const [method, path, init] of cases) {
      const { socket, process } = await both(method, path, init);
      expect({ method, path, ...socket }).toEqual({ method, path, ...process });
    }
    const data = JSON.parse((await both('POST', '/graphql', { headers: { ...auth(), 'content-type': 'application/json' }, body: query })).socket.body);
    expect(data.data.tags).toHaveLength(13);
  });

  it('a signed webhook over the socket is verified on the raw bytes', async () => {
    const body = JSON.stringify({ object: 'instagram', entry: [] });
    const ok = await fetch(`${base}/webhooks/photo`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(secret, body) }, body });
    expect(ok.status).toBe(200);
    const bad = await fetch(`${base}/webhooks/photo`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(secret, `${body} `) }, body });
    expect(bad.status).toBe(401);
  });

  /** A request as raw bytes (fetch hides HEAD bodies and decodes gzip, and declares the length of what it sends). */
  function rawRequest(method: string, path: string, headers: Record<string, string>, chunks: string[] = []): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(base + path, { method, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }
});
