import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, isoNow, notFound } from './support/rest.js';

describe('inboxes: GET /v1/inboxes, PATCH /v1/inboxes/{id}, GET /v1/channels, GET /v1/contacts/{identifier}/inboxes', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const inboxes: Record<string, number> = {};
  const as = (token = ws.developerToken, body?: unknown) => ({ token, body });
  const inboxRow = (name: string, channel: string, workspaceId = ws.id, id = inboxes[name]) => ({
    id: String(id),
    createdAt: T0,
    updatedAt: T0,
    name,
    channel,
    sourceId: `src-${name}`,
    workspaceId: String(workspaceId),
    status: 'active',
  });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    for (const [name, channel] of [['Web', 'chat'], ['Page', 'net'], ['Shop', 'chat'], ['Photos', 'photo']]) inboxes[name] = await f.inbox(name, channel);
    inboxes.Theirs = await fixtures(t.db, other.id).inbox('Theirs', 'chat');
  });
  afterAll(() => t.close());

  describe('GET /v1/inboxes', () => {
    it("lists the workspace's inboxes in creation order, a page at a time", async () => {
      const res = await api.request('GET', '/v1/inboxes', as());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [inboxRow('Web', 'chat'), inboxRow('Page', 'net'), inboxRow('Shop', 'chat'), inboxRow('Photos', 'photo')],
        pageCount: 1,
      });
      expect((await api.request('GET', '/v1/inboxes?page=2&perPage=3', as())).body).toEqual({ data: [inboxRow('Photos', 'photo')], pageCount: 2 });
      expect((await api.request('GET', '/v1/inboxes?page=3&perPage=3', as())).body).toEqual({ data: [], pageCount: 2 });
    });

    it('filters by channel (exact); an unknown channel is an empty list', async () => {
      expect((await api.request('GET', '/v1/inboxes?channel=chat', as())).body).toEqual({ data: [inboxRow('Web', 'chat'), inboxRow('Shop', 'chat')], pageCount: 1 });
      expect((await api.request('GET', '/v1/inboxes?channel=fax', as())).body).toEqual({ data: [], pageCount: 0 });
      expect((await api.request('GET', '/v1/inboxes?channel=', as())).body).toEqual(
        invalidRequestData([{ message: 'Too small: expected string to have >=1 characters', path: ['query', 'channel'] }]),
      );
    });

    it('shows another workspace only its own inboxes, and needs the inboxes scope', async () => {
      expect((await api.request('GET', '/v1/inboxes', as(other.developerToken))).body).toEqual({ data: [inboxRow('Theirs', 'chat', other.id)], pageCount: 1 });
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      expect((await api.request('GET', '/v1/inboxes', as(contactsOnly))).body).toEqual(forbidden({ reason: 'missingScope', scope: 'inboxes' }));
    });
  });

  describe('PATCH /v1/inboxes/{id}', () => {
    it('renames (trimmed) and switches status; updatedAt moves; the change is in the list', async () => {
      const id = await fixtures(t.db, ws.id).inbox('Old name', 'sms');
      const res = await api.request('PATCH', `/v1/inboxes/${id}`, as(ws.developerToken, { name: '  New name ' }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...inboxRow('Old name', 'sms', ws.id, id), name: 'New name', updatedAt: isoNow() });
      const off = await api.request('PATCH', `/v1/inboxes/${id}`, as(ws.developerToken, { status: 'inactive' }));
      expect(off.body).toEqual({ ...res.body, status: 'inactive', updatedAt: isoNow() });
      expect((await api.request('GET', '/v1/inboxes?channel=sms', as())).body).toEqual({ data: [off.body], pageCount: 1 });
      const on = await api.request('PATCH', `/v1/inboxes/${id}`, as(ws.developerToken, { name: 'Texts', status: 'active' }));
      expect(on.body).toMatchObject({ name: 'Texts', status: 'active' });
    });

    it('is 422 for an empty body, a blank or long name, an unknown status or field', async () => {
      const id = inboxes.Web;
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{}, [{ message: 'Provide name or status', path: ['body'] }]],
        [{ name: '  ' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: 'x'.repeat(256) }, [{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]],
        [{ status: 'paused' }, [{ message: 'Invalid option: expected one of "active"|"inactive"', path: ['body', 'status'] }]],
        [{ name: 'Web', channel: 'net' }, [{ message: 'Unrecognized key: "channel"', path: ['body', 'channel'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.request('PATCH', `/v1/inboxes/${id}`, as(ws.developerToken, body));
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
      expect((await api.request('GET', '/v1/inboxes?channel=chat', as())).body.data[0]).toEqual(inboxRow('Web', 'chat'));
    });

    it("is 404 for an unknown or another workspace's inbox, which stays as it was; read-only tokens are 403", async () => {
      for (const id of [String(inboxes.Theirs), '424242', '99999999999']) {
        const res = await api.request('PATCH', `/v1/inboxes/${id}`, as(ws.developerToken, { name: 'Mine now' }));
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Inbox'));
      }
      const readOnly = await t.token(other.id, { kind: 'developer', readOnly: true });
      expect((await api.request('PATCH', `/v1/inboxes/${inboxes.Theirs}`, as(readOnly, { name: 'x' }))).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await api.request('GET', '/v1/inboxes', as(other.developerToken))).body.data).toEqual([inboxRow('Theirs', 'chat', other.id)]);
    });
  });

  describe('GET /v1/channels and GET /v1/contacts/{identifier}/inboxes', () => {
    it('lists each channel the workspace has inboxes on, with its inbox count and distinct contacts', async () => {
      const fresh = await t.workspace({ name: 'Channels' });
      const f = fixtures(t.db, fresh.id);
      const web = await f.inbox('Web', 'chat');
      const shop = await f.inbox('Shop', 'chat');
      const page = await f.inbox('Page', 'net');
      await f.inbox('Photos', 'photo');
      const [a, b, c] = [await f.contact({ email: 'a@example.com' }), await f.contact({ email: 'b@example.com' }), await f.contact({ email: 'c@example.com' })];
      // a is in both chat inboxes: one contact of the chat channel.
      await f.contactInbox(a, web);
      await f.contactInbox(a, shop);
      await f.contactInbox(b, shop);
      await f.contactInbox(c, page, 'net');
      // A row of this workspace pointing at another workspace's contact counts for nothing.
      const foreign = await fixtures(t.db, other.id).contact({ email: 'foreign@example.com' });
      await f.contactInbox(foreign, page, 'net');

      const res = await api.request('GET', '/v1/channels', as(fresh.developerToken));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [
          { channel: 'chat', inboxCount: 2, contactCount: 2 },
          { channel: 'net', inboxCount: 1, contactCount: 1 },
          { channel: 'photo', inboxCount: 1, contactCount: 0 },
        ],
      });
      const empty = await t.workspace({ name: 'No inboxes' });
      expect((await api.request('GET', '/v1/channels', as(empty.developerToken))).body).toEqual({ data: [] });
      const contactsOnly = await t.token(fresh.id, { kind: 'developer', scopes: ['contacts'] });
      expect((await api.request('GET', '/v1/channels', as(contactsOnly))).body).toEqual(forbidden({ reason: 'missingScope', scope: 'inboxes' }));
    });

    it("answers a contact's inbox memberships with their inboxes (the contact object's contactInboxes)", async () => {
      const f = fixtures(t.db, ws.id);
      const id = await f.contact({ email: 'member@example.com' });
      const web = await f.contactInbox(id, inboxes.Web);
      const page = await f.contactInbox(id, inboxes.Page, 'net');
      // A membership in another workspace's inbox is not there.
      await f.contactInbox(id, inboxes.Theirs);
      const res = await api.request('GET', '/v1/contacts/member@example.com/inboxes', as());
      expect(res.status).toBe(200);
      const expected = [
        { id: String(web), contactId: String(id), inboxId: String(inboxes.Web), channel: 'chat', inbox: inboxRow('Web', 'chat') },
        { id: String(page), contactId: String(id), inboxId: String(inboxes.Page), channel: 'net', inbox: inboxRow('Page', 'net') },
      ];
      expect(res.body).toEqual({ data: expected });
      expect((await api.request('GET', `/v1/contacts/${id}`, as())).body.contactInboxes).toEqual(expected);
      expect((await api.request('GET', `/v1/contacts/${id}/inboxes`, as(other.developerToken))).body).toEqual(notFound('Contact'));
      const inboxesOnly = await t.token(ws.id, { kind: 'developer', scopes: ['inboxes'] });
      expect((await api.request('GET', `/v1/contacts/${id}/inboxes`, as(inboxesOnly))).body).toEqual(forbidden({ reason: 'missingScope', scope: 'contacts' }));
    });
  });
});
