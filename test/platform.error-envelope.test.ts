import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse, type TestWorkspace } from './support/harness.js';
import { envelopes, forbidden, unlimited } from './support/endpoints.js';
import { invalidRequestData, malformedJson } from './support/rest.js';

/**
 * Every error the platform produces, as the contract's envelope {defined, code, status, message,
 * data?} with `status` equal to the HTTP status and a JSON content type. Codes outside the
 * contract's table are "undefined errors" (defined: false). 500 and 503 have their own files
 * (platform.internal-error, platform.probes); the rate limit's 429 is also in platform.rate-limit.
 */
function expectEnvelope(res: TestResponse, body: Record<string, unknown>) {
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.body).toEqual(body);
  expect(res.status).toBe(body.status);
}

describe('error envelope for every platform error code', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ ...unlimited, BODY_LIMIT_BYTES: '1000' });
    ws = await t.workspace({ name: 'Acme' });
  });
  afterAll(() => t.close());

  it('401 UNAUTHORIZED and 401 INVALID_CHATBOT_TOKEN', async () => {
    expectEnvelope(await t.request('GET', '/v1/tags'), envelopes.UNAUTHORIZED);
    expectEnvelope(await t.request('GET', '/v1/tags', { token: 'mdev_nope' }), envelopes.INVALID_CHATBOT_TOKEN);
  });

  it('403 FORBIDDEN, trialExpired and macLimitReached', async () => {
    expectEnvelope(
      await t.request('GET', '/v1/workspaces', { token: ws.userToken }),
      forbidden({ reason: 'workspaceTokenRequired', acceptedSchemes: ['developerAccessToken', 'tokenInSearchParams'] }),
    );
    const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2020-01-01T00:00:00.000Z' });
    expectEnvelope(await t.request('POST', '/v1/contacts', { token: expired.developerToken, body: { email: 'a@example.com' } }), {
      ...envelopes.trialExpired,
      data: { trialEndedAt: '2020-01-01T00:00:00.000Z' },
    });
    const capped = await t.workspace({ name: 'Capped', macLimit: 0 });
    expectEnvelope(await t.request('POST', '/v1/contacts', { token: capped.developerToken, body: { email: 'a@example.com' } }), {
      ...envelopes.macLimitReached,
      data: { limit: 0, active: 0 },
    });
  });

  it('404 notFound for an unknown path, with or without a token', async () => {
    for (const path of ['/index.html', '/docs/assets/unknown.js', '/v1', '/v1/', '/api/v1/', '/api/tags', '/v1//tags', '/v1/unknown', '/v1/tags/1/extra', '/graphql/extra', '/V1/TAGS']) {
      for (const token of [undefined, ws.developerToken]) {
        expectEnvelope(await t.request('GET', path, { token }), { ...envelopes.notFound, data: { method: 'GET', path } });
      }
    }
  });

  it('405 methodNotAllowed with an Allow header on a known path', async () => {
    const cases: [string, string, string][] = [
      ['PUT', '/v1/tags', 'GET, POST, HEAD'],
      // The /api alias and a trailing slash find the same routes.
      ['PUT', '/api/v1/tags/', 'GET, POST, HEAD'],
      ['PUT', '/api/v1/contacts/count', 'GET, HEAD'],
      ['PUT', '/v1/photo-comments', 'GET, POST, HEAD'],
      // A literal path under a parameter's parent: /v1/photo-comments/photo-media is not an id.
      ['DELETE', '/v1/photo-comments/photo-media', 'GET, HEAD'],
      ['GET', '/v1/conversations/1/archive', 'POST'],
      ['POST', '/v1/net-lead-ads/1', 'GET, PATCH, DELETE, HEAD'],
      // A fixed path beside a parameter one answers for itself: /v1/net-lead-ads/pages is not an id.
      ['POST', '/v1/net-lead-ads/pages', 'GET, HEAD'],
      ['PATCH', '/v1/contacts', 'POST, GET, HEAD'],
      // A literal path is not answered for by a parameter one: /v1/contacts/count takes GET only.
      ['POST', '/v1/contacts/count', 'GET, HEAD'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['DELETE', '/metrics', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await t.request(method, path, { token: ws.developerToken });
      expectEnvelope(res, { defined: false, code: 'methodNotAllowed', status: 405, message: `${method} is not allowed here; use ${allow}` });
      expect(res.headers.get('allow')).toBe(allow);
    }
    // Without a token too: the method is wrong whoever asks.
    expect((await t.request('PUT', '/v1/tags')).status).toBe(405);
    // /graphql answers in GraphQL's error format, with the same code in extensions.
    const gql = await t.request('PUT', '/graphql');
    expect([gql.status, gql.headers.get('allow')]).toEqual([405, 'GET, POST']);
    expect(gql.body).toEqual({ errors: [{ message: 'PUT is not allowed here; use GET, POST', extensions: { defined: false, code: 'methodNotAllowed', status: 405 } }] });
  });

  it('411 lengthRequired for POST /graphql without Content-Length', async () => {
    const res = await t.app.fetch(
      new Request('http://localhost/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.developerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
    );
    expect(res.status).toBe(411);
    expect(await res.json()).toEqual({
      errors: [{ message: 'POST /graphql needs a Content-Length header', extensions: { defined: false, code: 'lengthRequired', status: 411 } }],
    });
  });

  it('413 payloadTooLarge for a body over BODY_LIMIT_BYTES, declared or streamed', async () => {
    const big = { email: `${'a'.repeat(1000)}@example.com` };
    const tooLarge = { defined: false, code: 'payloadTooLarge', status: 413, message: 'The request body is too large', data: { limitBytes: 1000 } };
    expectEnvelope(await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: big }), tooLarge);
    // A chunked upload declares no length: it is cut off once it passes the limit.
    const chunks = [new TextEncoder().encode('{"email":"'), new TextEncoder().encode('a'.repeat(2000)), new TextEncoder().encode('@example.com"}')];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const res = await t.app.fetch(
      new Request('http://localhost/v1/contacts', {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.developerToken}`, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge);
    expect(await t.db.selectFrom('contacts').select('id').execute()).toEqual([]);
    // POST /graphql is capped by its Content-Length before anything runs.
    const gql = await t.graphql(`{ __typename } # ${'x'.repeat(1000)}`, undefined, { token: ws.developerToken });
    expect([gql.status, gql.body]).toEqual([413, { errors: [{ message: 'The request body is larger than the limit of 1000 bytes', extensions: { defined: false, code: 'payloadTooLarge', status: 413, data: { limitBytes: 1000 } } }] }]);
  });

  it('415 unsupportedMediaType for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expectEnvelope(await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: 'email=a@example.com', headers: { 'content-type': type } }), {
        defined: false,
        code: 'unsupportedMediaType',
        status: 415,
        message: 'Request bodies must be sent as application/json',
      });
    }
    // JSON with a charset or a +json type is JSON.
    const ok = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'json@example.com' }, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(ok.status).toBe(200);
  });

  it('400 malformedJson for a body that does not parse', async () => {
    const res = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: '{"email": "a@example.com",' });
    expectEnvelope(res, malformedJson());
  });

  it('422 invalidRequestData with data.issues [{message, path}] for input that fails its schema', async () => {
    const res = await t.request('GET', '/v1/dynamic-images?perPage=0', { token: ws.developerToken });
    expectEnvelope(res, invalidRequestData([{ message: expect.any(String), path: ['query', 'perPage'] }]));
    const body = await t.request('POST', '/v1/photo-comments', { token: ws.developerToken, body: { name: '' } });
    expect(body.status).toBe(422);
    for (const issue of body.body.data.issues) {
      expect(Object.keys(issue).sort()).toEqual(['message', 'path']);
      expect(typeof issue.message).toBe('string');
      expect(issue.path[0]).toBe('body');
      expect(issue.path.every((p: unknown) => typeof p === 'string' || typeof p === 'number')).toBe(true);
    }
  });

  it('429 tooManyRequests with Retry-After', async () => {
    const limited = await createTestApp({ RATE_LIMIT_IP_POINTS: '1', RATE_LIMIT_IP_WINDOW_SECONDS: '60' });
    try {
      await limited.request('GET', '/v1/tags');
      const res = await limited.request('GET', '/v1/tags');
      expectEnvelope(res, { ...envelopes.tooManyRequests, data: { budget: 'ip', retryAfterSeconds: Number(res.headers.get('retry-after')) } });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
