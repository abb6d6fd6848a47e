import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData, notFound } from './support/rest.js';

describe('POST /v1/conversations/{id}/unfollow', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  const unfollow = (id: string | number, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    api.request('POST', `/v1/conversations/${id}/unfollow`, { token: ws.developerToken, ...options });
  const stored = (id: number) =>
    t.db.selectFrom('conversations').select(['followed', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const newConversation = async (workspaceId = ws.id) => {
    const f = fixtures(t.db, workspaceId);
    return f.conversation({ contactId: await f.contact({}) });
  };

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it('sets followed to false and answers {success: true}; repeating it is harmless', async () => {
    const id = await newConversation();
    expect(await stored(id)).toEqual({ followed: expect.anything(), updated_at: T0 });

    const res = await unfollow(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const after = await stored(id);
    expect(Boolean(after.followed)).toBe(false);
    expect(after.updated_at).not.toBe(T0);

    const again = await unfollow(id, { token: ws.userToken });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true });
    expect(Boolean((await stored(id)).followed)).toBe(false);
  });

  it("is 404 for an unknown id or another workspace's conversation, which stays followed", async () => {
    const foreign = await newConversation((await t.workspace({ name: 'Other' })).id);
    for (const id of [foreign, 0, 987654, '99999999999999999999']) {
      const res = await unfollow(id);
      expect(res.status, String(id)).toBe(404);
      expect(res.body).toEqual(notFound('Conversation'));
    }
    expect(Boolean((await stored(foreign)).followed)).toBe(true);
  });

  it('is 422 for an id that is not a digit string', async () => {
    const res = await unfollow('first');
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
  });

  it('takes no body: none or {} is fine, any field is 422', async () => {
    const id = await newConversation();
    expect((await unfollow(id, { body: {} })).body).toEqual({ success: true });
    expect((await unfollow(id, { body: '' })).body).toEqual({ success: true });
    const res = await unfollow(id, { body: { followed: false } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "followed"', path: ['body', 'followed'] }]));
    const notObject = await unfollow(id, { body: '[]' });
    expect(notObject.status).toBe(422);
    expect(notObject.body).toEqual(invalidRequestData([{ message: 'Invalid input: expected object, received array', path: ['body'] }]));
  });
});
