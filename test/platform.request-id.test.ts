import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Every response carries X-Request-Id: a fresh UUID, or the client's own when it is 1-128
 * characters of [A-Za-z0-9_.:-] (anything else could forge log lines, so it is replaced). The
 * access log line of the request carries the same id.
 */
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_IP_POINTS: '1000' }, { captureLogs: true });
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it('is generated for every response: success, errors, probes, GraphQL', async () => {
    const responses = [
      await t.request('GET', '/v1/tags', { token: ws.developerToken }),
      await t.request('GET', '/v1/tags'),
      await t.request('GET', '/nowhere'),
      await t.request('PUT', '/v1/tags', { token: ws.developerToken }),
      await t.request('GET', '/healthz'),
      await t.request('GET', '/metrics'),
      await t.graphql('{ __typename }', undefined, { token: ws.developerToken }),
    ];
    // Answered by Yoga's own plugins: the GraphiQL page and a CORS preflight.
    responses.push(await t.request('GET', '/graphql', { headers: { accept: 'text/html' } }));
    responses.push(await t.request('OPTIONS', '/v1/tags', { headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } }));
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 405, 200, 200, 200, 200, 204]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(uuid);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is on the preflight and GraphiQL page too, with their metrics and log lines', async () => {
    const page = await t.request('GET', '/graphql', { headers: { accept: 'text/html', 'x-request-id': 'graphiql-1' } });
    expect([page.status, page.headers.get('x-request-id')]).toEqual([200, 'graphiql-1']);
    expect(t.logs.find((l) => l.requestId === 'graphiql-1' && l.msg === 'request')).toMatchObject({ route: '/graphql', status: 200, method: 'GET' });
  });

  it("keeps the client's own id", async () => {
    for (const own of ['abc-123', 'trace.4bf92f3577b34da6:00f067aa0ba902b7', 'x'.repeat(128), 'A_Z']) {
      const res = await t.request('GET', '/v1/tags', { token: ws.developerToken, headers: { 'x-request-id': own } });
      expect(res.headers.get('x-request-id')).toBe(own);
    }
  });

  it('replaces an id that is too long or has other characters', async () => {
    for (const bad of ['x'.repeat(129), 'has space', 'line\tbreak', '<script>', 'semi;colon', 'ünïcode']) {
      const res = await t.request('GET', '/v1/tags', { token: ws.developerToken, headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id'), bad).toMatch(uuid);
    }
  });

  it('is on the access log line of the request, with route, status and statement count', async () => {
    const res = await t.request('GET', '/v1/tags', { token: ws.developerToken, headers: { 'x-request-id': 'logged-1' } });
    const line = t.logs.find((l) => l.requestId === 'logged-1' && l.msg === 'request');
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      msg: 'request',
      requestId: 'logged-1',
      method: 'GET',
      route: '/v1/tags',
      status: 200,
      ms: expect.any(Number),
      statements: Number(res.headers.get('x-db-statements')),
      workspaceId: ws.id,
    });
    // Tokens never reach the log.
    expect(JSON.stringify(t.logs)).not.toContain(ws.developerToken);
  });
});
