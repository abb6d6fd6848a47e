import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, notFound } from './support/rest.js';

describe('DELETE /v1/net-lead-ads/{id}', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const del = (id: string | number, token = ws.developerToken) => api.request('DELETE', `/v1/net-lead-ads/${id}`, { token });
  const remaining = async (workspaceId: number) =>
    (await t.db.selectFrom('lead_ad_automations').select('name').where('workspace_id', '=', workspaceId).orderBy('id').execute()).map((r) => r.name);

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  it('deletes the automation permanently and answers {success: true}; again is 404', async () => {
    const f = fixtures(t.db, ws.id);
    const doomed = await f.leadAd('Doomed');
    await f.leadAd('Kept');

    const res = await del(doomed);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    // Gone from the database: nothing is left that could answer a new lead.
    expect(await remaining(ws.id)).toEqual(['Kept']);

    const again = await del(doomed);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(notFound('Lead-ad automation'));
  });

  it("is 404 for another workspace's automation, and leaves it alone", async () => {
    const foreign = await fixtures(t.db, other.id).leadAd('Not yours');
    const res = await del(foreign);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound('Lead-ad automation'));
    expect(await remaining(other.id)).toEqual(['Not yours']);
  });

  it('is 404 for an id that never existed, 422 for one that is not a digit string', async () => {
    for (const id of ['0', '424242', '99999999999999999999']) {
      const res = await del(id);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual(notFound('Lead-ad automation'));
    }
    for (const id of ['abc', '12x', '-3']) {
      const res = await del(id);
      expect(res.status, id).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
    }
  });

  it('needs a full-permission token but stays open after the trial', async () => {
    const f = fixtures(t.db, ws.id);
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    const target = await f.leadAd('Read-only cannot delete');
    const refused = await del(target, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(forbidden({ reason: 'readOnlyToken' }));

    const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
    const stale = await fixtures(t.db, expired.id).leadAd('Stale');
    const res = await del(stale, expired.userToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
  });
});
