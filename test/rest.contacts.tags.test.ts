import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound } from './support/rest.js';

/** 404 notFound naming the records a batch named that do not exist. */
const missing = (resource: string, ids: string[]) => ({ ...envelopes.notFound, data: { resource, ids } });

/**
 * A contact's tags: GET, POST, DELETE and PUT /v1/contacts/{identifier}/tags, POST .../tags/by-name,
 * and POST /v1/contacts/bulk/tags.
 */
describe("a contact's tags", () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let serial = 0;
  /** Tags of the workspace, created once: vip, lead, churned (deleted), and another workspace's. */
  const tag = { vip: 0, lead: 0, customer: 0, churned: 0, theirs: 0 };
  let theirContact: number;

  const record = (id: number, name: string) => ({
    id: String(id),
    name,
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    folderId: null,
    workspaceId: String(ws.id),
  });
  const newContact = () => f.contact({ email: `c${++serial}@example.com` });
  /** The contact's tag rows as stored: which tags, since when. */
  const rowsOf = (contactId: number) =>
    t.db.selectFrom('contact_tags').select(['tag_id', 'created_at', 'workspace_id']).where('contact_id', '=', contactId).orderBy('tag_id').execute();
  const tagIdsOf = async (contactId: number) => (await rowsOf(contactId)).map((r) => r.tag_id);
  const send = (method: string, identifier: string | number, body?: unknown, token = ws.developerToken) =>
    api.request(method, `/v1/contacts/${identifier}/tags`, { token, body });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    f = fixtures(t.db, ws.id);
    tag.vip = await f.tag('VIP');
    tag.lead = await f.tag('lead');
    tag.customer = await f.tag('Customer');
    tag.churned = await f.tag('Churned', { deletedAt: '2026-10-01T00:00:00.000Z' });
    const theirs = fixtures(t.db, other.id);
    tag.theirs = await theirs.tag('Theirs');
    theirContact = await theirs.contact({ email: 'theirs@example.com' });
  });
  afterAll(() => t.close());

  describe('GET /v1/contacts/{identifier}/tags', () => {
    it("lists the contact's live tags by name, whole records, for every identifier form", async () => {
      const ada = await f.contact({ email: 'ada@example.com', phone: '+15550101' });
      for (const id of [tag.vip, tag.lead, tag.customer, tag.churned]) await f.tagContact(ada, id);
      await f.tagContact(await newContact(), tag.vip);
      // By name, case-insensitively (as GET /v1/tags), on both engines whatever the database locale.
      const expected = { data: [record(tag.customer, 'Customer'), record(tag.lead, 'lead'), record(tag.vip, 'VIP')] };
      for (const identifier of [String(ada), `id:${ada}`, 'ada@example.com', 'email:ADA@example.com', '+15550101', 'phone:+15550101']) {
        const res = await send('GET', identifier, undefined, ws.userToken);
        expect(res.status, identifier).toBe(200);
        expect(res.body).toEqual(expected);
      }
    });

    it('is an empty list for a contact without tags', async () => {
      const res = await send('GET', await newContact());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [] });
    });

    it("is 404 Contact for an unknown contact and for another workspace's", async () => {
      for (const identifier of ['424242', String(theirContact), 'theirs@example.com']) {
        const res = await send('GET', identifier);
        expect(res.status, identifier).toBe(404);
        expect(res.body).toEqual(notFound('Contact'));
      }
    });
  });

  describe('POST /v1/contacts/{identifier}/tags', () => {
    it('adds the tags; one the contact has stays as it was; an id sent twice counts once', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.vip);
      const res = await send('POST', c, { tagIds: [String(tag.lead), String(tag.vip), String(tag.lead)] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await rowsOf(c)).toEqual([
        { tag_id: tag.vip, created_at: T0, workspace_id: ws.id },
        { tag_id: tag.lead, created_at: isoNow(), workspace_id: ws.id },
      ]);
      // Adding again is harmless.
      expect((await send('POST', c, { tagIds: [String(tag.lead)] })).body).toEqual({ success: true });
      expect(await tagIdsOf(c)).toEqual([tag.vip, tag.lead]);
      expect((await send('GET', c)).body).toEqual({ data: [record(tag.lead, 'lead'), record(tag.vip, 'VIP')] });
    });

    it("is 404 Tag naming every unknown, deleted or other workspace's id, and changes nothing", async () => {
      const c = await newContact();
      await f.tagContact(c, tag.customer);
      const res = await send('POST', c, { tagIds: [String(tag.vip), '424242', String(tag.churned), String(tag.theirs), '424242', '99999999999'] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing('Tag', ['424242', String(tag.churned), String(tag.theirs), '99999999999']));
      expect(await tagIdsOf(c)).toEqual([tag.customer]);
    });

    it("is 404 Contact for an unknown contact or another workspace's, before looking at the tags", async () => {
      for (const identifier of ['424242', String(theirContact)]) {
        const res = await send('POST', identifier, { tagIds: ['424242'] });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Contact'));
      }
      // Workspace B's token cannot tag A's contact, nor A's token B's.
      const c = await newContact();
      expect((await send('POST', c, { tagIds: [String(tag.theirs)] }, other.developerToken)).body).toEqual(notFound('Contact'));
      expect(await tagIdsOf(c)).toEqual([]);
      expect(await tagIdsOf(theirContact)).toEqual([]);
    });

    it('validates the body: 1 to 100 digit-string ids', async () => {
      const c = await newContact();
      const many = Array.from({ length: 101 }, (_, i) => String(i + 1));
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{}, [{ message: 'Required', path: ['body', 'tagIds'] }]],
        [{ tagIds: [] }, [{ message: 'tagIds must hold at least 1 id', path: ['body', 'tagIds'] }]],
        [{ tagIds: many }, [{ message: 'tagIds must hold at most 100 ids', path: ['body', 'tagIds'] }]],
        [{ tagIds: ['vip', 7] }, [
          { message: 'must be a digit string', path: ['body', 'tagIds', 0] },
          { message: 'Invalid input: expected string, received number', path: ['body', 'tagIds', 1] },
        ]],
        [{ tagIds: '1' }, [{ message: 'Invalid input: expected array, received string', path: ['body', 'tagIds'] }]],
        [{ tagIds: ['1'], names: [] }, [{ message: 'Unrecognized key: "names"', path: ['body', 'names'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await send('POST', c, body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
    });

    it('needs a full token with the contacts scope (the tags scope is not enough)', async () => {
      const c = await newContact();
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      expect((await send('POST', c, { tagIds: [String(tag.vip)] }, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await send('POST', c, { tagIds: [String(tag.vip)] }, tagsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'contacts' }));
      expect(await tagIdsOf(c)).toEqual([]);
    });
  });

  describe('DELETE /v1/contacts/{identifier}/tags', () => {
    it('takes the tags off; one the contact lacks is harmless; other contacts keep theirs', async () => {
      const c = await newContact();
      const d = await newContact();
      for (const id of [tag.vip, tag.lead, tag.customer]) {
        await f.tagContact(c, id);
        await f.tagContact(d, id);
      }
      const res = await send('DELETE', c, { tagIds: [String(tag.vip), String(tag.customer)] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await tagIdsOf(c)).toEqual([tag.lead]);
      expect((await send('DELETE', c, { tagIds: [String(tag.vip)] })).body).toEqual({ success: true });
      expect(await tagIdsOf(c)).toEqual([tag.lead]);
      expect(await tagIdsOf(d)).toEqual([tag.vip, tag.lead, tag.customer]);
    });

    it('is 404 Tag naming the unknown ids, and changes nothing', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.vip);
      const res = await send('DELETE', c, { tagIds: [String(tag.vip), String(tag.churned)] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing('Tag', [String(tag.churned)]));
      expect(await tagIdsOf(c)).toEqual([tag.vip]);
      expect((await send('DELETE', '424242', { tagIds: [String(tag.vip)] })).body).toEqual(notFound('Contact'));
    });

    it('needs at least one id, and a full token', async () => {
      const c = await newContact();
      expect((await send('DELETE', c, { tagIds: [] })).body).toEqual(invalidRequestData([{ message: 'tagIds must hold at least 1 id', path: ['body', 'tagIds'] }]));
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await send('DELETE', c, { tagIds: [String(tag.vip)] }, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
    });
  });

  describe('PUT /v1/contacts/{identifier}/tags', () => {
    it('leaves the contact with exactly these tags; the ones it kept keep their rows', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.vip);
      await f.tagContact(c, tag.lead);
      const res = await send('PUT', c, { tagIds: [String(tag.customer), String(tag.vip)] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await rowsOf(c)).toEqual([
        { tag_id: tag.vip, created_at: T0, workspace_id: ws.id },
        { tag_id: tag.customer, created_at: isoNow(), workspace_id: ws.id },
      ]);
    });

    it('takes every tag off with an empty list', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.vip);
      expect((await send('PUT', c, { tagIds: [] })).body).toEqual({ success: true });
      expect(await tagIdsOf(c)).toEqual([]);
    });

    it('is 404 Tag naming the unknown ids, and changes nothing', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.vip);
      const res = await send('PUT', c, { tagIds: [String(tag.lead), String(tag.theirs)] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing('Tag', [String(tag.theirs)]));
      expect(await tagIdsOf(c)).toEqual([tag.vip]);
    });

    it('takes at most 100 ids', async () => {
      const res = await send('PUT', await newContact(), { tagIds: Array.from({ length: 101 }, () => String(tag.vip)) });
      expect(res.body).toEqual(invalidRequestData([{ message: 'tagIds must hold at most 100 ids', path: ['body', 'tagIds'] }]));
    });
  });

  describe('POST /v1/contacts/{identifier}/tags/by-name', () => {
    const byName = (identifier: string | number, names: unknown, token = ws.developerToken) =>
      api.request('POST', `/v1/contacts/${identifier}/tags/by-name`, { token, body: { names } });
    const liveTagNamed = (workspaceId: number, name: string) =>
      t.db.selectFrom('tags').select(['id', 'name', 'deleted_at']).where('workspace_id', '=', workspaceId).where('name', '=', name).where('deleted_at', 'is', null).execute();

    it('matches live tags case-insensitively and creates the missing ones (trimmed, first spelling wins)', async () => {
      const c = await newContact();
      await f.tagContact(c, tag.customer);
      const res = await byName(c, ['vip', ' Webinar 2026 ', 'LEAD', 'webinar 2026', 'Churned', 'Theirs']);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });

      const [webinar] = await liveTagNamed(ws.id, 'Webinar 2026');
      const [churned] = await liveTagNamed(ws.id, 'Churned');
      const [theirs] = await liveTagNamed(ws.id, 'Theirs');
      // A deleted tag's name and another workspace's name are new live tags here.
      expect(churned.id).not.toBe(tag.churned);
      expect(theirs.id).not.toBe(tag.theirs);
      expect(await liveTagNamed(ws.id, 'webinar 2026')).toEqual([]);
      const listed = (await send('GET', c)).body.data.map((t: { id: string; name: string }) => [t.id, t.name]);
      expect(listed).toEqual([
        [String(churned.id), 'Churned'],
        [String(tag.customer), 'Customer'],
        [String(tag.lead), 'lead'],
        [String(theirs.id), 'Theirs'],
        [String(tag.vip), 'VIP'],
        [String(webinar.id), 'Webinar 2026'],
      ]);
      const created = await api.request('GET', `/v1/tags/${webinar.id}`, { token: ws.developerToken });
      expect(created.body).toEqual({ id: digits(), name: 'Webinar 2026', createdAt: isoNow(), updatedAt: isoNow(), deletedAt: null, folderId: null, workspaceId: String(ws.id) });
      // Again: nothing new is created, nothing changes.
      const before = await t.db.selectFrom('tags').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect((await byName(c, ['WEBINAR 2026', 'vip'])).body).toEqual({ success: true });
      expect(await t.db.selectFrom('tags').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual(before);
      expect(await tagIdsOf(c)).toHaveLength(6);
    });

    it('is 404 Contact for an unknown contact, and creates no tag', async () => {
      const res = await byName('nobody@example.com', ['Never created']);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound('Contact'));
      expect(await liveTagNamed(ws.id, 'Never created')).toEqual([]);
      expect((await byName(theirContact, ['Never created'])).body).toEqual(notFound('Contact'));
      expect(await liveTagNamed(other.id, 'Never created')).toEqual([]);
    });

    it('validates the names: 1 to 100, each trimmed 1 to 255 characters', async () => {
      const c = await newContact();
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [[], [{ message: 'names must hold at least 1 name', path: ['body', 'names'] }]],
        [Array.from({ length: 101 }, (_, i) => `n${i}`), [{ message: 'names must hold at most 100 names', path: ['body', 'names'] }]],
        [['ok', '  ', 'x'.repeat(256)], [
          { message: 'name must not be empty', path: ['body', 'names', 1] },
          { message: 'name must be at most 255 characters', path: ['body', 'names', 2] },
        ]],
      ];
      for (const [names, issues] of cases) {
        const res = await byName(c, names);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
      expect(await liveTagNamed(ws.id, 'ok')).toEqual([]);
    });
  });

  describe('POST /v1/contacts/bulk/tags', () => {
    const bulk = (body: unknown, token = ws.developerToken) => api.request('POST', '/v1/contacts/bulk/tags', { token, body });

    it('gives every contact every tag in one call; affected counts the contacts that gained a tag', async () => {
      const [a, b, c] = [await newContact(), await newContact(), await newContact()];
      await f.tagContact(c, tag.vip);
      await f.tagContact(c, tag.lead);
      await f.tagContact(b, tag.vip);
      const res = await bulk({ contactIds: [String(a), String(b), String(c), String(a)], tagIds: [String(tag.vip), String(tag.lead)] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, affected: 2 });
      for (const id of [a, b, c]) expect(await tagIdsOf(id)).toEqual([tag.vip, tag.lead]);
      expect((await rowsOf(b))[0]).toEqual({ tag_id: tag.vip, created_at: T0, workspace_id: ws.id });
      expect((await bulk({ contactIds: [String(a), String(c)], tagIds: [String(tag.lead)] })).body).toEqual({ success: true, affected: 0 });
    });

    it("is 404 Contact naming unknown and other workspace's contacts, and changes nothing", async () => {
      const a = await newContact();
      const res = await bulk({ contactIds: [String(a), '424242', String(theirContact)], tagIds: [String(tag.vip), '424242'] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing('Contact', ['424242', String(theirContact)]));
      expect(await tagIdsOf(a)).toEqual([]);
      expect(await tagIdsOf(theirContact)).toEqual([]);
    });

    it('is 404 Tag naming unknown or deleted tags, and changes nothing', async () => {
      const a = await newContact();
      const res = await bulk({ contactIds: [String(a)], tagIds: [String(tag.vip), String(tag.churned), String(tag.theirs)] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing('Tag', [String(tag.churned), String(tag.theirs)]));
      expect(await tagIdsOf(a)).toEqual([]);
    });

    it('takes up to 1,000 contacts and 100 tags', async () => {
      const now = T0;
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        workspace_id: ws.id,
        email: `bulk${i}@example.com`,
        gender: 'unknown' as const,
        email_verified: 0,
        email_opt_in: 0,
        created_at: now,
        updated_at: now,
      }));
      const ids = (await t.db.insertInto('contacts').values(rows).returning('id').execute()).map((r) => String(r.id));
      const res = await bulk({ contactIds: ids, tagIds: [String(tag.customer), String(tag.lead)] });
      expect(res.body).toEqual({ success: true, affected: 1000 });
      const count = await t.db
        .selectFrom('contact_tags')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('contact_id', 'in', ids.map(Number))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(2000);

      const tooMany = await bulk({ contactIds: [...ids, '1'], tagIds: [String(tag.vip)] });
      expect(tooMany.body).toEqual(invalidRequestData([{ message: 'contactIds must hold at most 1000 ids', path: ['body', 'contactIds'] }]));
    });

    it('validates the body', async () => {
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{ contactIds: [], tagIds: [] }, [
          { message: 'contactIds must hold at least 1 id', path: ['body', 'contactIds'] },
          { message: 'tagIds must hold at least 1 id', path: ['body', 'tagIds'] },
        ]],
        [{ contactIds: ['1'] }, [{ message: 'Required', path: ['body', 'tagIds'] }]],
        [{ contactIds: ['a'], tagIds: ['1'] }, [{ message: 'must be a digit string', path: ['body', 'contactIds', 0] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await bulk(body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
    });

    it('needs a full token with the contacts scope; workspace B cannot tag A\'s contacts', async () => {
      const a = await newContact();
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await bulk({ contactIds: [String(a)], tagIds: [String(tag.vip)] }, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      const res = await bulk({ contactIds: [String(a)], tagIds: [String(tag.theirs)] }, other.developerToken);
      expect(res.body).toEqual(missing('Contact', [String(a)]));
      expect(await tagIdsOf(a)).toEqual([]);
    });
  });
});
