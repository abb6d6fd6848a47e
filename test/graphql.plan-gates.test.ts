import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { fieldError } from './support/graphql.js';
import { operations, rootPath } from './support/graphql-operations.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * The plan gates of REST apply to GraphQL mutations that write (create, update, follow, unfollow,
 * tag, subscribe, set values): after the trial, 403 trialExpired; at the monthly-active-contact
 * limit, 403 macLimitReached. Nothing is written. Reads and deletes (deleteNetLeadAdAutomation,
 * deleteContact, removeContactTags, clearContactCustomField, ...) stay open.
 */
const writes = operations.filter((o) => o.action === 'write');
const open = operations.filter((o) => o.action !== 'write');

/** Tables a gated mutation could write to: the workspace's rows of each, whole, in a fixed order. */
const tables = [
  'contacts',
  'custom_fields',
  'contact_custom_fields',
  'tags',
  'contact_notes',
  'inboxes',
  'contact_inboxes',
  'conversations',
  'sequences',
  'sequence_subscriptions',
  'comment_automations',
  'lead_ad_automations',
] as const;

/** Every row of those tables (and contact_tags), so an insert, update or delete shows as a difference. */
async function rowsOf(t: TestApp, workspaceId: number) {
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) rows[table] = await t.db.selectFrom(table).selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
  rows.contact_tags = await t.db.selectFrom('contact_tags').selectAll().where('workspace_id', '=', workspaceId).orderBy('contact_id').orderBy('tag_id').execute();
  return rows;
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
        const before = await rowsOf(t, ws.id);
        const res = await call({ token: ws.developerToken });
        expect(res.body).toEqual({ data: null, errors: [fieldError(rootPath(op), { ...envelopes.trialExpired, data: { trialEndedAt: trialEndsAt } }, `The workspace's trial ended at ${trialEndsAt}: writes are refused until the plan changes`)] });
        expect(await rowsOf(t, ws.id)).toEqual(before);
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
        const before = await rowsOf(t, ws.id);
        const res = await call({ token: ws.developerToken });
        expect(res.body).toEqual({ data: null, errors: [fieldError(rootPath(op), { ...envelopes.macLimitReached, data: { limit: 1, active: expect.any(Number) } }, expect.stringMatching(/^The workspace has \d+ monthly active contacts?, its limit is 1: writes are refused$/))] });
        expect(await rowsOf(t, ws.id)).toEqual(before);
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
