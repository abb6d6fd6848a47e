import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData } from './support/rest.js';

/**
 * GET /v1/contacts and /v1/contacts/count: newest first, page/perPage, the filters (keyword, tagId
 * repeatable = all of them, inboxId, created range), `include` embedding relations with a fixed
 * number of statements, and nothing of another workspace.
 */
describe('GET /v1/contacts and /v1/contacts/count', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const c: Record<string, number> = {};
  const tag: Record<string, number> = {};
  let inbox: number;
  let otherTag: number;

  const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T08:00:00.000Z`;

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    c.ada = await f.contact({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', createdAt: day(1) });
    c.grace = await f.contact({ email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', createdAt: day(2) });
    c.alan = await f.contact({ phone: '+4420700001', firstName: 'Alan', lastName: 'Turing', createdAt: day(3) });
    c.edsger = await f.contact({ email: 'edsger@example.com', firstName: 'Edsger', createdAt: day(4) });
    c.barbara = await f.contact({ email: 'barbara@example.com', firstName: 'Barbara', lastName: 'Liskov', createdAt: day(5) });
    tag.vip = await f.tag('vip');
    tag.lead = await f.tag('lead');
    tag.gone = await f.tag('gone', { deletedAt: day(6) });
    for (const id of [c.ada, c.grace, c.barbara]) await f.tagContact(id, tag.vip);
    for (const id of [c.ada, c.alan]) await f.tagContact(id, tag.lead);
    inbox = await f.inbox('Support');
    await f.contactInbox(c.grace, inbox);
    await f.contactInbox(c.alan, inbox);
    const of = fixtures(t.db, other.id);
    await of.contact({ email: 'ada@other.example', firstName: 'Ada', createdAt: day(7) });
    otherTag = await of.tag('vip');
  });
  afterAll(() => t.close());

  const list = async (query = '') => {
    const res = await api.request('GET', `/v1/contacts${query}`, { token: ws.developerToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { data: { id: string; [k: string]: unknown }[]; pageCount: number };
  };
  const ids = async (query = '') => (await list(query)).data.map((x) => Number(x.id));
  const count = async (query = '') => {
    const res = await api.request('GET', `/v1/contacts/count${query}`, { token: ws.developerToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.count as number;
  };

  it("lists the workspace's contacts newest first, paginated", async () => {
    expect(await ids()).toEqual([c.barbara, c.edsger, c.alan, c.grace, c.ada]);
    expect(await list('?perPage=2&page=2')).toMatchObject({ pageCount: 3, data: [{ id: String(c.alan) }, { id: String(c.grace) }] });
    expect(await list('?perPage=2&page=4')).toEqual({ data: [], pageCount: 3 });
    expect(await count()).toBe(5);
  });

  it('answers the contact fields only, unless include asks for relations', async () => {
    const [first] = (await list('?perPage=1')).data;
    expect(first).toEqual({
      id: String(c.barbara),
      avatar: null,
      phoneNumber: null,
      email: 'barbara@example.com',
      firstName: 'Barbara',
      lastName: 'Liskov',
      fullName: 'Barbara Liskov',
      ref: null,
      country: null,
      state: null,
      city: null,
      location: null,
      locale: null,
      timezone: null,
      workspaceId: String(ws.id),
      gender: 'unknown',
      emailVerified: false,
      emailOptIn: false,
      createdAt: day(5),
      updatedAt: day(5),
      lastReadAt: null,
      subscribedAt: null,
      broadcastSubscribedAt: null,
      blockedAt: null,
    });
  });

  it('filters by keyword (name, email or phone), tags (all of them), inbox and creation time; count agrees', async () => {
    expect(await ids('?keyword=LOVE')).toEqual([c.ada]);
    expect(await ids('?keyword=example.com')).toEqual([c.barbara, c.edsger, c.grace, c.ada]);
    expect(await ids('?keyword=44207')).toEqual([c.alan]);
    expect(await ids('?keyword=ra')).toEqual([c.barbara, c.grace]);
    expect(await ids(`?tagId=${tag.vip}`)).toEqual([c.barbara, c.grace, c.ada]);
    expect(await ids(`?tagId=${tag.vip}&tagId=${tag.lead}`)).toEqual([c.ada]);
    expect(await ids(`?inboxId=${inbox}`)).toEqual([c.alan, c.grace]);
    expect(await ids(`?createdAfter=${day(2)}&createdBefore=${day(4)}`)).toEqual([c.alan, c.grace]);
    // An offset in the instant is understood: 2026-11-03T10:00+02:00 is 08:00Z, Alan's creation.
    expect(await ids(`?createdAfter=${encodeURIComponent('2026-11-03T10:00:00+02:00')}`)).toEqual([c.barbara, c.edsger, c.alan]);
    expect(await ids(`?keyword=example&tagId=${tag.vip}&createdBefore=${day(5)}`)).toEqual([c.grace, c.ada]);
    expect(await count(`?tagId=${tag.vip}`)).toBe(3);
    expect(await count(`?keyword=example&tagId=${tag.vip}&createdBefore=${day(5)}`)).toBe(2);
    expect(await count('?keyword=nobody-has-this')).toBe(0);
  });

  it('embeds tags, custom-field values, inboxes and conversations with include', async () => {
    const f = fixtures(t.db, ws.id);
    const field = await f.customField('Plan');
    await f.fieldValue(c.grace, field, 'gold');
    const conversation = await f.conversation({ contactId: c.grace, inboxId: inbox });
    const [grace] = (await list(`?inboxId=${inbox}&perPage=1&page=2&include=tags,customFields,inboxes,conversations`)).data;
    expect(grace.id).toBe(String(c.grace));
    expect((grace.tags as { name: string }[]).map((x) => x.name)).toEqual(['vip']);
    expect(grace.contactCustomFields).toEqual([expect.objectContaining({ customFieldId: String(field), value: 'gold', contactId: String(c.grace) })]);
    expect(grace.contactInboxes).toEqual([expect.objectContaining({ inboxId: String(inbox), inbox: expect.objectContaining({ name: 'Support' }) })]);
    expect((grace.conversations as { id: string }[]).map((x) => x.id)).toEqual([String(conversation)]);
    const [only] = (await list('?perPage=1&include=tags')).data;
    expect(Object.keys(only)).toContain('tags');
    expect(Object.keys(only)).not.toContain('contactInboxes');
  });

  it('runs the same number of statements for a page of 2 and a page of 5, whatever it embeds', async () => {
    const statements = async (perPage: number) => {
      const res = await t.request('GET', `/v1/contacts?perPage=${perPage}&tagId=${tag.vip}&include=tags,customFields,inboxes,conversations`, { token: ws.developerToken });
      expect(res.status).toBe(200);
      return Number(res.headers.get('x-db-statements'));
    };
    // Both pages hold a contact with an inbox (an empty page skips the inbox lookup).
    expect(await statements(2)).toBe(await statements(5));
  });

  it('refuses unknown or foreign tag and inbox ids, bad instants and includes, naming the parameter', async () => {
    const bad = async (query: string) => (await api.request('GET', `/v1/contacts${query}`, { token: ws.developerToken })).body;
    expect(await bad(`?tagId=${otherTag}&tagId=${tag.vip}`)).toEqual(invalidRequestData([{ message: `Unknown tag ids: ${otherTag}`, path: ['query', 'tagId'] }]));
    expect(await bad(`?tagId=${tag.gone}`)).toEqual(invalidRequestData([{ message: `Unknown tag ids: ${tag.gone}`, path: ['query', 'tagId'] }]));
    expect(await bad('?inboxId=424242')).toEqual(invalidRequestData([{ message: 'Unknown inbox ids: 424242', path: ['query', 'inboxId'] }]));
    expect(await bad('?include=tags,notes')).toMatchObject({ code: 'invalidRequestData', data: { issues: [{ path: ['query', 'include', 1] }] } });
    expect(await bad('?createdAfter=yesterday')).toMatchObject({ code: 'invalidRequestData', data: { issues: [{ path: ['query', 'createdAfter'] }] } });
    expect(await bad('?perPage=51')).toMatchObject({ code: 'invalidRequestData', data: { issues: [{ path: ['query', 'perPage'] }] } });
    expect((await api.request('GET', '/v1/contacts/count?include=tags', { token: ws.developerToken })).body).toEqual(
      invalidRequestData([{ message: 'Unrecognized key: "include"', path: ['query', 'include'] }]),
    );
  });

  it("never shows another workspace's contacts, and answers under /api/v1 too", async () => {
    const theirs = await t.request('GET', '/v1/contacts?keyword=ada', { token: other.developerToken });
    expect(theirs.body.data.map((x: { email: string }) => x.email)).toEqual(['ada@other.example']);
    expect(await ids('?keyword=other.example')).toEqual([]);
    const aliased = await t.request('GET', '/api/v1/contacts?perPage=1', { token: ws.developerToken });
    expect(aliased.status).toBe(200);
    expect(aliased.body).toEqual(await list('?perPage=1'));
  });
});
