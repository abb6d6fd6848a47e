import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.js';
import { endpoints, envelopes, unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';

/**
 * Plan limits: after the trial ends, writes (POST) are 403 trialExpired; while the monthly active
 * contacts reach the limit, 403 macLimitReached. Reads and deletes stay open. A monthly active
 * contact was created this calendar month (UTC) or has a message this month.
 */
const writes = endpoints.filter((e) => e.method === 'POST');
const open = endpoints.filter((e) => e.method !== 'POST');

const now = new Date();
const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

describe('trial and monthly-active-contact gates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
  });
  afterAll(() => t.close());

  describe('trial ended', () => {
    const trialEndsAt = iso(Date.now() - 60_000);
    let ws: Awaited<ReturnType<TestApp['workspace']>>;
    beforeAll(async () => {
      ws = await t.workspace({ name: 'Expired', trialEndsAt });
    });

    for (const endpoint of writes) {
      it(`${endpoint.name}: 403 trialExpired, and nothing is written`, async () => {
        const call = await endpoint.prepare(t, ws.id);
        const before = await rowCounts(t, ws.id);
        for (const token of endpoint.workspaceTokensOnly ? [ws.developerToken] : [ws.developerToken, ws.userToken]) {
          const res = await t.request(call.method, call.path, { body: call.body, token });
          expect(res.status).toBe(403);
          expect(res.body).toEqual({ ...envelopes.trialExpired, data: { trialEndedAt: trialEndsAt } });
        }
        expect(await rowCounts(t, ws.id)).toEqual(before);
      });
    }
    for (const endpoint of open) {
      it(`${endpoint.name}: still open`, async () => {
        const call = await endpoint.prepare(t, ws.id);
        const res = await t.request(call.method, call.path, { body: call.body, token: ws.developerToken });
        expect({ status: res.status, code: res.body?.code }).toEqual({ status: call.ok, code: undefined });
      });
    }
  });

  it('lets writes through while the trial has not ended', async () => {
    const ws = await t.workspace({ name: 'Trialing', trialEndsAt: iso(Date.now() + 7 * DAY) });
    for (const endpoint of writes) {
      const call = await endpoint.prepare(t, ws.id);
      const res = await t.request(call.method, call.path, { body: call.body, token: ws.developerToken });
      expect(res.status, endpoint.name).toBe(call.ok);
    }
  });

  describe('monthly active contact limit', () => {
    it('counts contacts created this UTC month or with a message this month, and refuses writes at the limit', async () => {
      const ws = await t.workspace({ name: 'Capped', macLimit: 4 });
      const f = fixtures(t.db, ws.id);
      const before = monthStart.getTime();
      // Active: created at the first instant of the month; created earlier but messaged this month.
      await f.contact({ email: 'new@example.com', createdAt: iso(before) });
      await f.contact({ email: 'messaged@example.com', createdAt: iso(before - 40 * DAY), lastMessageAt: iso(before) });
      // Not active: created a millisecond before the month; messaged only last month; silent.
      await f.contact({ email: 'edge@example.com', createdAt: iso(before - 1) });
      await f.contact({ email: 'lastmonth@example.com', createdAt: iso(before - 40 * DAY), lastMessageAt: iso(before - 1) });
      await f.contact({ email: 'silent@example.com', createdAt: iso(before - 90 * DAY) });
      // Another workspace's active contacts do not count.
      const other = await t.workspace({ name: 'Other' });
      for (let i = 0; i < 5; i++) await fixtures(t.db, other.id).contact({ email: `o${i}@example.com`, createdAt: iso(Date.now()) });

      // 2 active of 4: two more contacts may be created (each becomes active).
      for (const email of ['third@example.com', 'fourth@example.com']) {
        const res = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email } });
        expect(res.status, email).toBe(200);
      }
      // 4 of 4: the limit is reached.
      const refused = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'fifth@example.com' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ ...envelopes.macLimitReached, data: { limit: 4, active: 4 } });
      expect(await t.db.selectFrom('contacts').select('id').where('email', '=', 'fifth@example.com').execute()).toEqual([]);

      for (const endpoint of writes) {
        const call = await endpoint.prepare(t, ws.id);
        const res = await t.request(call.method, call.path, { body: call.body, token: ws.developerToken });
        expect(res.body, endpoint.name).toEqual({ ...envelopes.macLimitReached, data: { limit: 4, active: expect.any(Number) } });
      }
      for (const endpoint of open) {
        const call = await endpoint.prepare(t, ws.id);
        const res = await t.request(call.method, call.path, { body: call.body, token: ws.developerToken });
        expect(res.status, endpoint.name).toBe(call.ok);
      }
    });

    it('refuses every write when the limit is 0', async () => {
      const ws = await t.workspace({ name: 'Zero', macLimit: 0 });
      const res = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'a@example.com' } });
      expect(res.body).toEqual({ ...envelopes.macLimitReached, data: { limit: 0, active: 0 } });
    });

    it('reports trialExpired first when both gates close', async () => {
      const ws = await t.workspace({ name: 'Both', macLimit: 0, trialEndsAt: iso(Date.now() - DAY) });
      const res = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'a@example.com' } });
      expect(res.body.code).toBe('trialExpired');
    });

    it('ignores workspaces without a limit', async () => {
      const ws = await t.workspace({ name: 'Unlimited' });
      for (let i = 0; i < 5; i++) await fixtures(t.db, ws.id).contact({ email: `u${i}@example.com`, createdAt: iso(Date.now()) });
      expect((await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'more@example.com' } })).status).toBe(200);
    });
  });
});

async function rowCounts(t: TestApp, workspaceId: number) {
  const count = async (table: 'contacts' | 'comment_automations') =>
    (await t.db.selectFrom(table).select('id').where('workspace_id', '=', workspaceId).execute()).length;
  const followed = await t.db.selectFrom('conversations').select('id').where('workspace_id', '=', workspaceId).where('followed', '=', 1).execute();
  return { contacts: await count('contacts'), automations: await count('comment_automations'), followed: followed.length };
}
