import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, notFound } from './support/rest.js';

const relationTables = ['contact_custom_fields', 'contact_tags', 'contact_notes', 'contact_inboxes', 'sequence_subscriptions', 'conversations'] as const;

describe('DELETE /v1/contacts/{identifier} and POST /v1/contacts/bulk/delete', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const token = () => ({ token: ws.developerToken });

  /** A contact with one row in every relation, and an error log about it. */
  const richContact = async (workspaceId: number, email: string) => {
    const f = fixtures(t.db, workspaceId);
    const id = await f.contact({ email });
    await f.fieldValue(id, await f.customField(`Field of ${email}`), 'value');
    await f.tagContact(id, await f.tag(`tag of ${email}`));
    await f.note(id, 'a note');
    await f.contactInbox(id, await f.inbox(`inbox of ${email}`));
    await f.subscribe(id, await f.sequence(`sequence of ${email}`));
    await f.conversation({ contactId: id });
    const log = await f.errorLog(`failed for ${email}`, { contactId: id });
    return { id, log };
  };

  /** How many rows each relation table holds for these contacts. */
  const relationRows = async (ids: number[]) => {
    const out: Record<string, number> = {};
    for (const table of relationTables) {
      out[table] = (await t.db.selectFrom(table).select('contact_id').where('contact_id', 'in', ids).execute()).length;
    }
    return out;
  };
  const none = Object.fromEntries(relationTables.map((table) => [table, 0]));
  const one = Object.fromEntries(relationTables.map((table) => [table, 1]));
  const contactExists = async (id: number) => (await t.db.selectFrom('contacts').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  describe('DELETE', () => {
    it('deletes the contact and all its rows; error logs stay, no longer pointing at it', async () => {
      const { id, log } = await richContact(ws.id, 'gone@example.com');
      const kept = await richContact(ws.id, 'kept@example.com');
      expect(await relationRows([id])).toEqual(one);

      const res = await api.request('DELETE', `/v1/contacts/email:gone@example.com`, token());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await contactExists(id)).toBe(false);
      expect(await relationRows([id])).toEqual(none);
      const logRow = await t.db.selectFrom('error_logs').select(['id', 'contact_id']).where('id', '=', log).executeTakeFirstOrThrow();
      expect(logRow).toEqual({ id: log, contact_id: null });
      // The definitions (tags, fields, inboxes, sequences) and the other contact are untouched.
      expect(await relationRows([kept.id])).toEqual(one);
      expect((await t.db.selectFrom('tags').select('name').where('name', '=', 'tag of gone@example.com').execute()).length).toBe(1);
      // Gone for reads and searches too; a second delete is 404.
      expect((await api.request('GET', `/v1/contacts/${id}`, token())).body).toEqual(notFound('Contact'));
      const second = await api.request('DELETE', `/v1/contacts/${id}`, token());
      expect(second.status).toBe(404);
      expect(second.body).toEqual(notFound('Contact'));
    });

    it("is 404 for another workspace's contact, which stays; read-only tokens are 403", async () => {
      const theirs = await richContact(other.id, 'theirs@example.com');
      const res = await api.request('DELETE', `/v1/contacts/${theirs.id}`, token());
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound('Contact'));
      const readOnly = await t.token(other.id, { kind: 'developer', readOnly: true });
      expect((await api.request('DELETE', `/v1/contacts/${theirs.id}`, { token: readOnly })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect(await contactExists(theirs.id)).toBe(true);
      expect(await relationRows([theirs.id])).toEqual(one);
    });

    it('stays open to deletes when the trial has ended', async () => {
      const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
      const id = await fixtures(t.db, expired.id).contact({ email: 'late@example.com' });
      expect((await api.request('DELETE', `/v1/contacts/${id}`, { token: expired.developerToken })).body).toEqual({ success: true });
    });
  });

  describe('bulk delete', () => {
    const bulk = (contactIds: unknown, tokenOf = ws.developerToken) => api.request('POST', '/v1/contacts/bulk/delete', { token: tokenOf, body: { contactIds } });

    it('deletes every listed contact with their rows in one call: {success, affected}; duplicates count once', async () => {
      const a = await richContact(ws.id, 'bulk-a@example.com');
      const b = await richContact(ws.id, 'bulk-b@example.com');
      const c = await richContact(ws.id, 'bulk-c@example.com');
      const res = await bulk([String(a.id), String(b.id), String(a.id)]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, affected: 2 });
      expect(await contactExists(a.id)).toBe(false);
      expect(await contactExists(b.id)).toBe(false);
      expect(await relationRows([a.id, b.id])).toEqual(none);
      expect(await relationRows([c.id])).toEqual(one);
    });

    it("is 404 naming every unknown or foreign id, and deletes nothing", async () => {
      const a = await richContact(ws.id, 'atomic-a@example.com');
      const theirs = await richContact(other.id, 'atomic-theirs@example.com');
      const res = await bulk([String(a.id), '424242', String(theirs.id), '99999999999']);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ ...envelopes.notFound, data: { resource: 'Contact', ids: ['424242', String(theirs.id), '99999999999'] } });
      expect(await contactExists(a.id)).toBe(true);
      expect(await relationRows([a.id])).toEqual(one);
      expect(await contactExists(theirs.id)).toBe(true);
    });

    it('takes 1 to 1,000 digit-string ids', async () => {
      expect((await bulk([])).body).toEqual(invalidRequestData([{ message: 'contactIds must hold at least 1 id', path: ['body', 'contactIds'] }]));
      expect((await bulk(Array.from({ length: 1001 }, (_, i) => String(i + 1)))).body).toEqual(
        invalidRequestData([{ message: 'contactIds must hold at most 1000 ids', path: ['body', 'contactIds'] }]),
      );
      expect((await bulk(['12', 'abc', 7])).body).toEqual(
        invalidRequestData([
          { message: 'must be a digit string', path: ['body', 'contactIds', 1] },
          { message: 'Invalid input: expected string, received number', path: ['body', 'contactIds', 2] },
        ]),
      );
    });

    it('deletes 1,000 contacts at once', async () => {
      const ids: string[] = [];
      await t.db.transaction().execute(async (trx) => {
        const inTrx = fixtures(trx, ws.id);
        for (let i = 0; i < 1000; i++) ids.push(String(await inTrx.contact({ email: `many${i}@example.com` })));
      });
      const res = await bulk(ids);
      expect(res.body).toEqual({ success: true, affected: 1000 });
      expect((await t.db.selectFrom('contacts').select('id').where('email', 'like', 'many%').execute()).length).toBe(0);
    });

    it('needs a full token with the contacts scope', async () => {
      const a = await fixtures(t.db, ws.id).contact({ email: 'guarded@example.com' });
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await bulk([String(a)], readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      expect((await bulk([String(a)], tagsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'contacts' }));
      expect(await contactExists(a)).toBe(true);
    });
  });
});
