import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { photoCommentBody } from './support/fixtures.js';

/**
 * A created automation answers 201 with `Location`, the address that reads it back:
 * GET /v1/photo-comments/{id} (photoComments.get), which finds only photo automations of the
 * token's workspace.
 */
describe('POST /v1/photo-comments answers Location; GET /v1/photo-comments/{id} reads it', () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    a = await t.workspace({ name: 'A' });
    b = await t.workspace({ name: 'B' });
  });
  afterAll(() => t.close());

  it('reads back exactly what the create answered', async () => {
    const created = await t.request('POST', '/v1/photo-comments', { token: a.developerToken, body: photoCommentBody() });
    expect(created.status).toBe(201);
    const location = created.headers.get('location');
    expect(location).toBe(`/v1/photo-comments/${created.body.id}`);
    const read = await t.request('GET', location!, { token: a.developerToken });
    expect([read.status, read.body]).toEqual([200, created.body]);
  });

  it('is 404 for another workspace, for a net automation and for an unknown id', async () => {
    const created = await t.request('POST', '/v1/photo-comments', { token: a.developerToken, body: photoCommentBody() });
    const notFound = { defined: true, code: 'notFound', status: 404, message: 'Resource not found', data: { resource: 'Comment automation' } };
    expect((await t.request('GET', `/v1/photo-comments/${created.body.id}`, { token: b.developerToken })).body).toEqual(notFound);
    expect((await t.request('GET', '/v1/photo-comments/999999', { token: a.developerToken })).body).toEqual(notFound);
    const net = await t.db
      .insertInto('comment_automations')
      .values({ ...(await t.db.selectFrom('comment_automations').selectAll().where('id', '=', Number(created.body.id)).executeTakeFirstOrThrow()), id: undefined, channel: 'net', type: 'chat' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await t.request('GET', `/v1/photo-comments/${net.id}`, { token: a.developerToken })).body).toEqual(notFound);
    expect((await t.request('GET', `/v1/net-comments/${net.id}`, { token: a.developerToken })).status).toBe(200);
  });
});
