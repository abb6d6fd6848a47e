import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { storedAutomation } from './support/comment-automations.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData, notFound } from './support/rest.js';

describe('GET /v1/net-comments/{id}', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let atRoot: number;
  let inFolder: number;
  let photo: number;
  let foreign: number;
  const get = (id: string | number, token = ws.developerToken) => api.request('GET', `/v1/net-comments/${id}`, { token });

  const automation = (id: number, name: string, folderId: string | null) => storedAutomation(id, name, 'net', { folderId });

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    atRoot = await f.commentAutomation('net', 'Root rule');
    inFolder = await f.commentAutomation('net', 'Filed rule', { folderId: '77' });
    photo = await f.commentAutomation('photo', 'Photo rule');
    const other = await t.workspace({ name: 'Other' });
    foreign = await fixtures(t.db, other.id).commentAutomation('net', 'Not yours');
  });
  afterAll(() => t.close());

  it('returns the whole automation with folderId null at the root', async () => {
    const res = await get(atRoot);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(automation(atRoot, 'Root rule', null));
    expect(Object.keys(res.body)).toContain('folderId');
  });

  it('returns the folderId of an automation in a folder', async () => {
    const res = await get(inFolder, ws.userToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(automation(inFolder, 'Filed rule', '77'));
  });

  it('is 422 for an id that is not a digit string', async () => {
    for (const id of ['abc', '1a', '-1', '1.5', '%201', '+1']) {
      const res = await get(id);
      expect(res.status, id).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
    }
  });

  it("is 404 for a photo-network automation, another workspace's, or an id that does not exist", async () => {
    for (const id of [photo, foreign, 0, 999999, '99999999999999999999']) {
      const res = await get(id);
      expect(res.status, String(id)).toBe(404);
      expect(res.body).toEqual(notFound('Comment automation'));
    }
  });
});
