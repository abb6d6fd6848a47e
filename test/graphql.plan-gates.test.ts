import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { fieldError } from './support/graphql.js';
import { operations, rootPath } from './support/graphql-operations.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * The plan gates of REST apply to GraphQL mutations that write (create, follow, unfollow): after
 * the trial, 403 trialExpired; at the monthly-active-contact limit, 403 macLimitReached. Nothing is
 * written. Reads and deleteNetLeadAdAutomation stay open.
 */
const writes = operations.filter((o) => o.action === 'write');
const open = operations.filter((o) => o.action !== 'write');

async function rowCounts(t: TestApp, workspaceId: number) {
  const count = async (table: 'contacts' | 'comment_automations') =>
    (await t.db.selectFrom(table).select('id').where('workspace_id', '=', workspaceId).execute()).length;
  const followed = await t.db.selectFrom('conversations').select(['id', 'followed']).where('workspace_id', '=', workspaceId).orderBy('id').execute();
  return { contacts: await count('contacts'), automations: await count('comment_automations'), followed: followed.map((r) => Boolean(r.followed)) };
}

describe('GraphQL plan gates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
  });
  afterAll(() => t.close());

  describe('trial ended', () => {
    const trialEndsAt = new Date(Date.now() - 60_000).toISOString();
    let ws: TestWorkspace;
    beforeAll(async () => {
      ws = await t.workspace({ name: 'Expired', trialEndsAt });
    });

    for (const op of writes) {
      it(`${op.field}: 403 trialExpired, and nothing is written`, async () => {
        const call = await op.prepare(t, ws.id);
        const before = await rowCounts(t, ws.id);
        const res = await call({ token: ws.developerToken });
        expect(res.body).toEqual({ data: null, errors: [fieldError(rootPath(op), { ...envelopes.trialExpired, data: { trialEndedAt: trialEndsAt } }, `The workspace's trial ended at ${trialEndsAt}: writes are refused until the plan changes`)] });
        expect(await rowCounts(t, ws.id)).toEqual(before);
      });
    }
    for (const op of open) {
      it(`${op.field}: still open`, async () => {
        const res = await (await op.prepare(t, ws.id))({ token: ws.developerToken });
        expect(res.body.errors).toBeUndefined();
      });
    }
  });

  describe('monthly active contact limit reached', () => {
    let ws: TestWorkspace;
    beforeAll(async () => {
      ws = await t.workspace({ name: 'Capped', macLimit: 1 });
      // Created now: active this month. (Contacts a call prepares may be active too: `active` varies.)
      await fixtures(t.db, ws.id).contact({ email: 'active@example.com', createdAt: new Date().toISOString() });
    });

    for (const op of writes) {
      it(`${op.field}: 403 macLimitReached, and nothing is written`, async () => {
        const call = await op.prepare(t, ws.id);
        const before = await rowCounts(t, ws.id);
        const res = await call({ token: ws.developerToken });
        expect(res.body).toEqual({ data: null, errors: [fieldError(rootPath(op), { ...envelopes.macLimitReached, data: { limit: 1, active: expect.any(Number) } }, expect.stringMatching(/^The workspace has \d+ monthly active contacts?, its limit is 1: writes are refused$/))] });
        expect(await rowCounts(t, ws.id)).toEqual(before);
      });
    }
    for (const op of open) {
      it(`${op.field}: still open`, async () => {
        const res = await (await op.prepare(t, ws.id))({ token: ws.developerToken });
        expect(res.body.errors).toBeUndefined();
      });
    }
  });
});
