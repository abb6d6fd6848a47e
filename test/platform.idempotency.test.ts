import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { photoCommentBody } from './support/fixtures.js';

/**
 * Idempotency-Key on POST and PATCH: the first answer is kept per workspace and key for 24 hours
 * and replayed to a retry of the same request; the same key with another request is 422; retries
 * sent while the first runs wait for its answer; another workspace's key is its own.
 */
describe('Idempotency-Key', () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  const post = (ws: TestWorkspace, key: string | undefined, body: unknown, path = '/v1/contacts') =>
    t.request('POST', path, { token: ws.developerToken, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const contactsOf = async (ws: TestWorkspace) => (await t.db.selectFrom('contacts').select('email').where('workspace_id', '=', ws.id).execute()).map((c) => c.email);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_WORKSPACE_POINTS: '1000' });
    a = await t.workspace({ name: 'A' });
    b = await t.workspace({ name: 'B' });
  });
  afterAll(() => t.close());

  it('replays the first answer to a retry of the same request, without running it again', async () => {
    const first = await post(a, 'create-ada', { email: 'ada@example.com', firstName: 'Ada' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await post(a, 'create-ada', { email: 'ada@example.com', firstName: 'Ada' });
    expect({ status: retry.status, body: retry.body, replayed: retry.headers.get('idempotent-replayed') }).toEqual({ status: 200, body: first.body, replayed: 'true' });
    expect(await contactsOf(a)).toEqual(['ada@example.com']);
    // Without the key, the same request runs again (and meets the duplicate rule).
    expect((await post(a, undefined, { email: 'ada@example.com', firstName: 'Ada' })).status).toBe(422);
  });

  it('replays a 201 too, and GraphQL mutations', async () => {
    const first = await post(a, 'automation-1', photoCommentBody(), '/v1/photo-comments');
    expect(first.status).toBe(201);
    const retry = await post(a, 'automation-1', photoCommentBody(), '/v1/photo-comments');
    expect([retry.status, retry.body]).toEqual([201, first.body]);
    expect(await t.db.selectFrom('comment_automations').select('id').where('workspace_id', '=', a.id).execute()).toHaveLength(1);

    const mutation = { query: 'mutation($input: CreateContactInput!) { createContact(input: $input) { email } }', variables: { input: { email: 'gql@example.com' } } };
    const g1 = await t.request('POST', '/graphql', { token: a.developerToken, body: mutation, headers: { 'idempotency-key': 'gql-1' } });
    const g2 = await t.request('POST', '/graphql', { token: a.developerToken, body: mutation, headers: { 'idempotency-key': 'gql-1' } });
    expect(g1.body).toEqual({ data: { createContact: { email: 'gql@example.com' } } });
    expect([g2.body, g2.headers.get('idempotent-replayed')]).toEqual([g1.body, 'true']);
  });

  it('refuses the same key with another request (body, path or method) with 422 validation', async () => {
    await post(a, 'reused', { email: 'one@example.com' });
    const other = await post(a, 'reused', { email: 'two@example.com' });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ defined: true, code: 'validation', status: 422, message: 'Validation error', data: { reason: 'idempotencyKeyReused', header: 'Idempotency-Key' } });
    expect((await post(a, 'reused', photoCommentBody(), '/v1/photo-comments')).body.data.reason).toBe('idempotencyKeyReused');
    expect(await contactsOf(a)).not.toContain('two@example.com');
  });

  it('keeps keys per workspace', async () => {
    const inB = await post(b, 'create-ada', { email: 'ada@example.com', firstName: 'Ada B' });
    expect([inB.status, inB.headers.get('idempotent-replayed'), inB.body.firstName]).toEqual([200, null, 'Ada B']);
    expect(await contactsOf(b)).toEqual(['ada@example.com']);
  });

  it('makes concurrent retries wait for the first answer: one contact, one answer', async () => {
    const body = { email: 'race@example.com', firstName: 'Race' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(a, 'race', body)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
    expect((await contactsOf(a)).filter((e) => e === 'race@example.com')).toHaveLength(1);
  });

  it('keeps answers that ran (422 included) but not those that did not run (403), and forgets keys after 24 hours', async () => {
    const bad = await post(a, 'invalid', { email: 'not an email' });
    expect(bad.status).toBe(422);
    expect((await post(a, 'invalid', { email: 'not an email' })).headers.get('idempotent-replayed')).toBe('true');

    const readOnly = await t.token(a.id, { kind: 'developer', readOnly: true, name: 'ro' });
    const refused = await t.request('POST', '/v1/contacts', { token: readOnly, body: { email: 'ro@example.com' }, headers: { 'idempotency-key': 'ro' } });
    expect(refused.status).toBe(403);
    expect((await post(a, 'ro', { email: 'ro@example.com' })).headers.get('idempotent-replayed')).toBeNull();

    await t.db.updateTable('idempotency_keys').set({ created_at: new Date(Date.now() - 24 * 3600 * 1000 - 1000).toISOString() }).where('key', '=', 'invalid').execute();
    expect((await post(a, 'invalid', { email: 'not an email' })).headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a key that is empty, too long or not visible ASCII', async () => {
    for (const key of ['x'.repeat(256), 'with space', 'naïve']) {
      const res = await t.request('POST', '/v1/contacts', { token: a.developerToken, body: { email: 'k@example.com' }, headers: { 'idempotency-key': key } });
      expect(res.body, key).toEqual({
        defined: true, code: 'invalidRequestData', status: 422, message: 'Input validation failed',
        data: { issues: [{ message: 'Idempotency-Key must be 1 to 255 visible ASCII characters', path: ['headers', 'Idempotency-Key'] }] },
      });
    }
  });
});
