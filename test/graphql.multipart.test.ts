import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * `Accept: multipart/mixed` (the incremental-delivery transport clients use for @defer/@stream):
 * the answer is streamed chunked, without a Content-Length, so Node's own HTTP client (which
 * refused the old answer with HPE_INVALID_CONTENT_LENGTH) reads it.
 */
describe(`POST /graphql with Accept: multipart/mixed (${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Multipart' });
    await t.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: 'Streamed' } });
    server = createServer(t.app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** One POST with node:http, read to the end. */
  const post = (query: string, accept: string) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const body = JSON.stringify({ query });
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/graphql',
          headers: { authorization: `Bearer ${ws.developerToken}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  /** The JSON parts of a multipart/mixed body with the given boundary. */
  const parts = (body: string, boundary: string) =>
    body
      .split(`--${boundary}`)
      .map((part) => part.split('\r\n\r\n')[1]?.trim())
      .filter((json): json is string => Boolean(json))
      .map((json) => JSON.parse(json) as unknown);

  it('answers a query as one part, chunked, that node:http reads', async () => {
    const res = await post('{ tags { name } }', 'multipart/mixed');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const boundary = /boundary="?([^";]+)"?/.exec(res.headers['content-type'] ?? '')?.[1];
    expect(res.headers['content-type']).toMatch(/^multipart\/mixed; boundary=/);
    expect(parts(res.body, boundary!)).toEqual([{ data: { tags: [{ name: 'Streamed' }] } }]);
  });

  it('a refused document comes as a part too, with the envelope in extensions (422, as under application/graphql-response+json)', async () => {
    const res = await post('{ tags { colour } }', 'multipart/mixed');
    expect(res.status).toBe(422);
    const boundary = /boundary="?([^";]+)"?/.exec(res.headers['content-type'] ?? '')?.[1];
    expect(parts(res.body, boundary!)).toEqual([
      {
        errors: [
          expect.objectContaining({
            message: 'Cannot query field "colour" on type "Tag".',
            extensions: expect.objectContaining({ code: 'invalidRequestData', status: 422 }),
          }),
        ],
      },
    ]);
  });

  it('a client that prefers JSON still gets JSON with a Content-Length', async () => {
    const res = await post('{ tags { name } }', 'application/json, multipart/mixed;q=0.5');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(JSON.parse(res.body)).toEqual({ data: { tags: [{ name: 'Streamed' }] } });
  });
});
