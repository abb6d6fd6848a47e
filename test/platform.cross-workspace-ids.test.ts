import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../src/rest/routes/index.js';
import { seedContractWorkspace, successCall, type Seeded } from './support/contract-calls/index.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Every route that names a record, in its path or in its body's id lists: workspace B's ids sent
 * with workspace A's token answer as ids that never existed do (404 notFound; 422 validation with
 * reason notFound for ids inside a record's definition), and change nothing.
 * Built from each operation's success call for B's seeded rows, so a new route is covered as soon
 * as its success call exists.
 */
describe("another workspace's ids", () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  let seededB: Seeded;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_WORKSPACE_POINTS: '100000', RATE_LIMIT_IP_POINTS: '100000' });
    a = await t.workspace({ name: 'A' });
    b = await t.workspace({ name: 'B' });
    await seedContractWorkspace(t, a);
    seededB = await seedContractWorkspace(t, b);
  });
  afterAll(() => t.close());

  /** B's numeric ids in the call: in the path, or in an id list of the body. */
  const namesRecords = (call: { path: string; body?: unknown }) => /\/\d+(\/|$|\?)/.test(call.path.split('?')[0] + '/') || /Ids"\s*:\s*\[\s*"?\d/.test(JSON.stringify(call.body ?? {}));

  it('are 404 notFound on every route, and B is unchanged', async () => {
    const snapshot = async () => {
      const tables = ['contacts', 'tags', 'contact_tags', 'custom_fields', 'contact_custom_fields', 'contact_notes', 'sequences', 'sequence_subscriptions', 'inboxes', 'comment_automations', 'lead_ad_automations', 'conversations'] as const;
      const out: Record<string, unknown> = {};
      for (const table of tables) out[table] = await t.db.selectFrom(table).selectAll().where('workspace_id', '=', b.id).orderBy('created_at').execute();
      return JSON.stringify(out);
    };
    const before = await snapshot();
    const checked: string[] = [];
    for (const route of routes) {
      const call = successCall(route.operationId, seededB);
      if (!namesRecords(call)) continue;
      const res = await t.request(call.method, call.path, { token: a.developerToken, body: call.body });
      // Ids inside a record's definition (a new lead-ad automation's page, tags, ...) are 422
      // validation naming them (unknownReferences, src/errors/catalogue.ts); a path id is 404.
      const expected = res.status === 422 && !/\/\d+(\/|$)/.test(call.path.split('?')[0]) ? [422, 'validation', 'notFound'] : [404, 'notFound', undefined];
      expect([res.status, res.body?.code, res.body?.data?.reason], `${route.operationId} ${call.method} ${call.path}`).toEqual(expected);
      checked.push(route.operationId);
    }
    expect(await snapshot()).toBe(before);
    // Most routes name a record; the count guards against the filter silently matching nothing.
    expect(checked.length).toBeGreaterThan(40);
  });
});
