import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, sampleLeadQuestions } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, notFound } from './support/rest.js';

/** GET /v1/net-lead-ads/pages and GET /v1/net-lead-ads/forms?pageId=: the connected pages and their forms. */
describe('connected pages and lead forms', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let inbox: number;
  const at = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const webinarQuestions = [
    { key: 'email', label: 'Email', type: 'EMAIL' },
    { key: 'phone_number', label: 'Phone number', type: 'PHONE' },
  ];

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    inbox = await f.inbox('Page inbox', 'net');
    const bloom = await f.leadPage('5550001', 'Bloom & Co.', { inboxId: inbox, at: at(1) });
    await f.leadPage('5550002', 'Quiet page', { at: at(2) });
    const third = await f.leadPage('5550003', 'Third page', { inboxId: inbox, at: at(3) });
    await f.leadForm(bloom, '6660001', 'Spring coupon', { at: at(4) });
    await f.leadForm(bloom, '6660002', 'Webinar', { questions: webinarQuestions, at: at(5) });
    await f.leadForm(bloom, '6660003', 'Wholesale', { status: 'archived', questions: [], at: at(6) });
    await f.leadForm(third, '6660004', 'Third form', { at: at(7) });
    const g = fixtures(t.db, other.id);
    await g.leadForm(await g.leadPage('5559999', 'Their page'), '6669999', 'Their form');
  });
  afterAll(() => t.close());

  const page = (id: string, name: string, formsCount: number, minute: number, inboxId: string | null) => ({ id, name, inboxId, formsCount, createdAt: at(minute), updatedAt: at(minute) });
  const form = (id: string, pageId: string, name: string, minute: number, extra: Record<string, unknown> = {}) => ({
    id,
    pageId,
    name,
    status: 'active',
    questions: sampleLeadQuestions,
    createdAt: at(minute),
    updatedAt: at(minute),
    ...extra,
  });

  describe('GET /v1/net-lead-ads/pages', () => {
    it("pages the workspace's connected pages in the order they were connected, with their form counts", async () => {
      const first = await api.request('GET', '/v1/net-lead-ads/pages?perPage=2', { token: ws.userToken });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ data: [page('5550001', 'Bloom & Co.', 3, 1, String(inbox)), page('5550002', 'Quiet page', 0, 2, null)], pageCount: 2 });
      const second = await api.request('GET', '/v1/net-lead-ads/pages?page=2&perPage=2', { token: ws.developerToken });
      expect(second.body).toEqual({ data: [page('5550003', 'Third page', 1, 3, String(inbox))], pageCount: 2 });
    });

    it('is empty for a workspace without pages; validates its parameters', async () => {
      const empty = await t.workspace({ name: 'Empty' });
      expect((await api.request('GET', '/v1/net-lead-ads/pages', { token: empty.developerToken })).body).toEqual({ data: [], pageCount: 0 });
      expect((await api.request('GET', '/v1/net-lead-ads/pages?perPage=0&pageId=1', { token: ws.developerToken })).body).toEqual(
        invalidRequestData([
          { message: 'perPage must be at least 1', path: ['query', 'perPage'] },
          { message: 'Unrecognized key: "pageId"', path: ['query', 'pageId'] },
        ]),
      );
    });
  });

  describe('GET /v1/net-lead-ads/forms', () => {
    it("pages one page's forms in creation order, archived ones included, with their questions", async () => {
      const res = await api.request('GET', '/v1/net-lead-ads/forms?pageId=5550001&perPage=2', { token: ws.developerToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [form('6660001', '5550001', 'Spring coupon', 4), form('6660002', '5550001', 'Webinar', 5, { questions: webinarQuestions })], pageCount: 2 });
      const rest = await api.request('GET', '/v1/net-lead-ads/forms?pageId=5550001&page=2&perPage=2', { token: ws.developerToken });
      expect(rest.body).toEqual({ data: [form('6660003', '5550001', 'Wholesale', 6, { status: 'archived', questions: [] })], pageCount: 2 });
      expect((await api.request('GET', '/v1/net-lead-ads/forms?pageId=5550003', { token: ws.developerToken })).body).toEqual({
        data: [form('6660004', '5550003', 'Third form', 7)],
        pageCount: 1,
      });
      expect((await api.request('GET', '/v1/net-lead-ads/forms?pageId=5550002', { token: ws.developerToken })).body).toEqual({ data: [], pageCount: 0 });
    });

    it("is 404 Lead page for a page the workspace has not connected, another workspace's included", async () => {
      for (const pageId of ['5559999', '123']) {
        const res = await api.request('GET', `/v1/net-lead-ads/forms?pageId=${pageId}`, { token: ws.developerToken });
        expect(res.status, pageId).toBe(404);
        expect(res.body).toEqual(notFound('Lead page'));
      }
      // Their own page still answers them.
      expect((await api.request('GET', '/v1/net-lead-ads/forms?pageId=5559999', { token: other.developerToken })).body.data.map((f: { id: string }) => f.id)).toEqual(['6669999']);
    });

    it('needs pageId, a digit string', async () => {
      expect((await api.request('GET', '/v1/net-lead-ads/forms', { token: ws.developerToken })).body).toEqual(invalidRequestData([{ message: 'Required', path: ['query', 'pageId'] }]));
      expect((await api.request('GET', '/v1/net-lead-ads/forms?pageId=abc&perPage=51', { token: ws.developerToken })).body).toEqual(
        invalidRequestData([
          { message: 'must be a digit string of at most 64 digits', path: ['query', 'pageId'] },
          { message: 'perPage must be at most 50', path: ['query', 'perPage'] },
        ]),
      );
    });

    it('both need the automations scope', async () => {
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      for (const path of ['/v1/net-lead-ads/pages', '/v1/net-lead-ads/forms?pageId=5550001']) {
        expect((await api.request('GET', path, { token: tagsOnly })).body, path).toEqual(forbidden({ reason: 'missingScope', scope: 'automations' }));
      }
    });
  });
});
