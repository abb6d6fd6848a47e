import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../db/seeds/demo.js';
import { seedSyntheticContacts } from '../db/seeds/synthetic.js';
import { createFlowInput, flowSchema } from '../src/domain/flows/flow.schema.js';
import { contractClient } from './support/contract.js';
import { createTestApp, type TestApp } from './support/harness.js';

/**
 * The data `npm start` seeds (the demo workspace) and the synthetic data of `cli seed` are read
 * through every REST endpoint, and every response must match the OpenAPI document: seeded rows that
 * break the contract's shapes would otherwise show up as 500s on a newcomer's first request.
 */
describe('seeded data through the REST contract', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
  });
  afterAll(() => t.close());

  async function walk(workspaceId: number, token: string, expectAutomations: boolean) {
    const ok = async (method: string, path: string) => {
      const res = await api.request(method, path, { token });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res.body;
    };
    const ids = async (table: 'contacts' | 'comment_automations' | 'lead_ad_automations' | 'conversations', where?: ['channel', 'net']) => {
      let q = t.db.selectFrom(table).select('id').where('workspace_id', '=', workspaceId);
      if (where) q = q.where(where[0] as never, '=', where[1] as never);
      return (await q.orderBy('id').limit(25).execute()).map((r) => r.id);
    };

    await ok('GET', '/v1/workspaces');
    expect((await ok('GET', '/v1/tags')).data.length).toBeGreaterThan(0);
    for (const list of ['/v1/dynamic-images', '/v1/error-logs']) {
      const first = await ok('GET', `${list}?perPage=50`);
      expect(first.data.length, list).toBeGreaterThan(0);
      for (let page = 2; page <= Math.min(first.pageCount, 5); page++) await ok('GET', `${list}?perPage=50&page=${page}`);
    }
    await ok('GET', '/v1/error-logs?keyword=token');
    await ok('GET', '/v1/dynamic-images?name=a');
    for (const id of await ids('contacts')) {
      await ok('GET', `/v1/contacts/${id}/custom-fields`);
      await ok('GET', `/v1/contacts/id:${id}/sequences`);
    }
    const net = await ids('comment_automations', ['channel', 'net']);
    if (expectAutomations) expect(net.length).toBeGreaterThan(0);
    for (const id of net) await ok('GET', `/v1/net-comments/${id}`);
    // Comment automations of both channels, and the posts their postIds name.
    for (const channel of ['photo', 'net'] as const) {
      const automations = await ok('GET', `/v1/${channel}-comments?perPage=50`);
      if (expectAutomations) expect(automations.data.length, channel).toBeGreaterThan(0);
      for (const a of automations.data) await ok('GET', `/v1/${channel}-comments/${a.id}`);
    }
    for (const list of ['/v1/photo-comments/photo-media', '/v1/net-comments/net-posts']) {
      const posts = await ok('GET', `${list}?perPage=50`);
      if (expectAutomations) expect(posts.data.length, list).toBeGreaterThan(0);
    }
    const [conversation] = await ids('conversations');
    await ok('POST', `/v1/conversations/${conversation}/unfollow`);
    // Lead-ad automations, the connected pages and their forms; every automation passes the create
    // rules (a PATCH checks the merged automation against them, its claims included).
    const leadAds = await ok('GET', '/v1/net-lead-ads?perPage=50');
    if (expectAutomations) expect(leadAds.data.length).toBeGreaterThan(0);
    for (const a of leadAds.data) {
      await ok('GET', `/v1/net-lead-ads/${a.id}`);
      if (expectAutomations) expect((await api.request('PATCH', `/v1/net-lead-ads/${a.id}`, { token, body: { name: a.name } })).status, a.id).toBe(200);
    }
    const pages = await ok('GET', '/v1/net-lead-ads/pages?perPage=50');
    if (expectAutomations) expect(pages.data.length).toBeGreaterThan(0);
    for (const p of pages.data) expect((await ok('GET', `/v1/net-lead-ads/forms?pageId=${p.id}&perPage=50`)).data).toHaveLength(p.formsCount);
    const [leadAd] = await ids('lead_ad_automations');
    if (leadAd !== undefined) await ok('DELETE', `/v1/net-lead-ads/${leadAd}`);
  }

  it('the demo workspace', async () => {
    const demo = await createDemoWorkspace(t.db);
    await walk(demo.workspace.id, demo.tokens.developer.token, true);
    // Every demo comment automation passes its channel's create rules (a PATCH checks the merged
    // automation against them), its postIds included.
    const automations = await t.db.selectFrom('comment_automations').select(['id', 'channel', 'post']).where('workspace_id', '=', demo.workspace.id).execute();
    for (const a of automations) {
      const token = demo.tokens.developer.token;
      const res = await api.request('PATCH', `/v1/${a.channel}-comments/${a.id}`, { token, body: { post: JSON.parse(a.post) } });
      expect(res.status, `${a.channel} ${a.id}`).toBe(200);
    }
    // The demo flows: listed, valid by the flow schema, and every record their items name is the
    // workspace's (a PATCH of the same items checks them as a create does).
    const flows = (await api.request('GET', '/v1/flows', { token: demo.tokens.developer.token })).body;
    expect(flows.data.map((f: { name: string }) => f.name)).toEqual(['Welcome flow', 'Spring sale']);
    for (const flow of flows.data) {
      expect(flowSchema.safeParse(flow).success, flow.name).toBe(true);
      expect(createFlowInput.safeParse({ name: flow.name, items: flow.items }).success, flow.name).toBe(true);
      const res = await api.request('PATCH', `/v1/flows/${flow.id}`, { token: demo.tokens.developer.token, body: { items: flow.items } });
      expect(res.status, flow.name).toBe(200);
    }
    // The automation tool's "Send Flow", exactly as its connector sends it, with a demo flow to a
    // demo contact that has a conversation: 204, the run queued.
    const withConversation = await t.db.selectFrom('conversations').select('contact_id').where('workspace_id', '=', demo.workspace.id).where('inbox_id', 'is not', null).orderBy('id').executeTakeFirstOrThrow();
    const send = await api.request('POST', `/v1/contacts/${withConversation.contact_id}/flows`, { token: demo.tokens.developer.token, body: { flowId: flows.data[0].id } });
    expect([send.status, send.text]).toEqual([204, '']);
  });

  it('synthetic contacts', async () => {
    const ws = await t.workspace({ name: 'Synthetic' });
    await seedSyntheticContacts(t.db, ws.id, 300);
    // The synthetic generator makes contacts and what hangs off them, no automations.
    await walk(ws.id, ws.developerToken, false);
  });
});
