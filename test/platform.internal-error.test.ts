import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.js';
import { envelopes } from './support/endpoints.js';

/**
 * Anything unexpected is 500 INTERNAL_SERVER_ERROR with the default message, and nothing else: no
 * stack, no SQL, no driver message reaches the caller. The failure is logged with the request id
 * the caller got in X-Request-Id. Triggered for real: the database is changed or closed under the
 * running app (a column renamed, the connection closed).
 */
describe('unexpected errors', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => {});
    t = undefined;
  });

  const expectOpaque500 = (res: { status: number; body: unknown; text: string; headers: Headers }) => {
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(envelopes.INTERNAL_SERVER_ERROR);
    expect(res.text).not.toMatch(/select|from|tags|sqlite|relation|destroyed|stack|\.ts:\d+|\n\s+at /i);
  };

  it('a table changed under the app: 500, and the SQL error is logged with the request id', async () => {
    t = await createTestApp({}, { captureLogs: true });
    const ws = await t.workspace();
    expect((await t.request('GET', '/v1/tags', { token: ws.developerToken })).status).toBe(200);
    await sql`alter table tags rename column name to label`.execute(t.db);

    const res = await t.request('GET', '/v1/tags', { token: ws.developerToken, headers: { 'x-request-id': 'req-broken-tags' } });
    expectOpaque500(res);
    expect(res.headers.get('x-request-id')).toBe('req-broken-tags');

    const lines = t.logs.filter((l) => l.requestId === 'req-broken-tags');
    const unhandled = lines.find((l) => l.msg === 'unhandled error');
    expect(unhandled).toMatchObject({ level: 50, requestId: 'req-broken-tags', err: { message: expect.stringMatching(/name/) } });
    expect(unhandled!.err.stack).toMatch(/\n\s+at /);
    const failedSql = lines.find((l) => l.msg === 'sql statement failed');
    expect(failedSql).toMatchObject({ level: 50, sql: expect.stringMatching(/from "tags"/) });
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ level: 30, status: 500, route: '/v1/tags', method: 'GET', workspaceId: ws.id });
  });

  it('the database closed under the app: 500 on every endpoint, and the server keeps answering', async () => {
    t = await createTestApp({}, { captureLogs: true });
    const ws = await t.workspace();
    // The token is cached, so the request gets past authentication before touching the database.
    expect((await t.request('GET', '/v1/error-logs', { token: ws.developerToken })).status).toBe(200);
    await t.database.destroy();

    const res = await t.request('GET', '/v1/error-logs', { token: ws.developerToken });
    expectOpaque500(res);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.logs.find((l) => l.msg === 'unhandled error' && l.requestId === requestId)).toBeDefined();

    // An uncached token needs the database to authenticate: that is unexpected too, not a 401.
    expectOpaque500(await t.request('GET', '/v1/tags', { token: `mdev_${'Z'.repeat(43)}` }));
    // The process is still up and says so; readiness reports the database (platform.probes).
    expect((await t.request('GET', '/healthz')).status).toBe(200);
  });
});
