import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound } from './support/rest.js';

describe("a contact's notes: GET and POST /v1/contacts/{identifier}/notes, PUT and DELETE .../notes/{noteId}", () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const as = (token = ws.developerToken, body?: unknown) => ({ token, body });
  const noteRow = (id: number, contactId: number, text: string, createdById: number | null = null) => ({
    id: String(id),
    createdAt: T0,
    updatedAt: T0,
    text,
    contactId: String(contactId),
    createdById: createdById === null ? null : String(createdById),
  });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  it('lists the notes newest first (creation time, then id), a page at a time', async () => {
    const f = fixtures(t.db, ws.id);
    const id = await f.contact({ email: 'listed@example.com' });
    const author = await f.user('Agent', 'agent@example.com');
    const first = await f.note(id, 'First', author);
    const second = await f.note(id, 'Second');
    const third = await f.note(id, 'Third');
    await f.note(await f.contact({ email: 'someone-else@example.com' }), 'Not this contact');

    const page1 = await api.request('GET', `/v1/contacts/${id}/notes?perPage=2`, as());
    expect(page1.status).toBe(200);
    expect(page1.body).toEqual({ data: [noteRow(third, id, 'Third'), noteRow(second, id, 'Second')], pageCount: 2 });
    const page2 = await api.request('GET', `/v1/contacts/listed@example.com/notes?page=2&perPage=2`, as());
    expect(page2.body).toEqual({ data: [noteRow(first, id, 'First', author)], pageCount: 2 });
    expect((await api.request('GET', `/v1/contacts/${id}/notes?page=3&perPage=2`, as())).body).toEqual({ data: [], pageCount: 2 });

    // A note made now comes first.
    const made = (await api.request('POST', `/v1/contacts/${id}/notes`, as(ws.developerToken, { text: 'Newest' }))).body;
    expect((await api.request('GET', `/v1/contacts/${id}/notes?perPage=1`, as())).body).toEqual({ data: [made], pageCount: 4 });

    const empty = await f.contact({ email: 'quiet@example.com' });
    expect((await api.request('GET', `/v1/contacts/${empty}/notes`, as())).body).toEqual({ data: [], pageCount: 0 });
    expect((await api.request('GET', `/v1/contacts/${id}/notes?perPage=51`, as())).body).toEqual(
      invalidRequestData([{ message: 'perPage must be at most 50', path: ['query', 'perPage'] }]),
    );
  });

  it('creates a note (text trimmed); createdById is the user of a user access token, null for a workspace token', async () => {
    const id = await fixtures(t.db, ws.id).contact({ email: 'noted@example.com' });
    const byWorkspace = await api.request('POST', `/v1/contacts/${id}/notes`, as(ws.developerToken, { text: '  Called back  ' }));
    expect(byWorkspace.status).toBe(200);
    expect(byWorkspace.body).toEqual({ id: digits(), createdAt: isoNow(), updatedAt: isoNow(), text: 'Called back', contactId: String(id), createdById: null });
    const byUser = await api.request('POST', `/v1/contacts/noted@example.com/notes`, as(ws.userToken, { text: 'Sent the quote' }));
    expect(byUser.body).toEqual({ id: digits(), createdAt: isoNow(), updatedAt: isoNow(), text: 'Sent the quote', contactId: String(id), createdById: String(ws.created.owner.id) });
    // The contact object shows them (oldest first there, as built).
    const contact = (await api.request('GET', `/v1/contacts/${id}`, as())).body;
    expect(contact.contactNotes).toEqual([byWorkspace.body, byUser.body]);
  });

  it('is 422 for an empty, blank or too long text, and for unknown fields', async () => {
    const id = await fixtures(t.db, ws.id).contact({ email: 'strict@example.com' });
    const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
      [{ text: '' }, [{ message: 'text must not be empty', path: ['body', 'text'] }]],
      [{ text: ' \n ' }, [{ message: 'text must not be empty', path: ['body', 'text'] }]],
      [{ text: 'x'.repeat(10_001) }, [{ message: 'text must be at most 10000 characters', path: ['body', 'text'] }]],
      [{}, [{ message: 'Required', path: ['body', 'text'] }]],
      [{ text: 'ok', pinned: true }, [{ message: 'Unrecognized key: "pinned"', path: ['body', 'pinned'] }]],
    ];
    for (const [body, issues] of cases) {
      const res = await api.request('POST', `/v1/contacts/${id}/notes`, as(ws.developerToken, body));
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidRequestData(issues));
      const put = await api.request('PUT', `/v1/contacts/${id}/notes/1`, as(ws.developerToken, body));
      expect(put.body).toEqual(invalidRequestData(issues));
    }
    // 10,000 characters are fine.
    expect((await api.request('POST', `/v1/contacts/${id}/notes`, as(ws.developerToken, { text: 'y'.repeat(10_000) }))).status).toBe(200);
    expect((await api.request('GET', `/v1/contacts/${id}/notes`, as())).body.data).toHaveLength(1);
  });

  it('changes the text of a note (updatedAt moves, the author stays) and deletes it', async () => {
    const f = fixtures(t.db, ws.id);
    const id = await f.contact({ email: 'edit@example.com' });
    const author = await f.user('Writer', 'writer@example.com');
    const note = await f.note(id, 'Draft', author);
    const res = await api.request('PUT', `/v1/contacts/${id}/notes/${note}`, as(ws.developerToken, { text: ' Final ' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...noteRow(note, id, 'Final', author), updatedAt: isoNow() });
    expect((await api.request('GET', `/v1/contacts/${id}/notes`, as())).body).toEqual({ data: [res.body], pageCount: 1 });

    const gone = await api.request('DELETE', `/v1/contacts/${id}/notes/${note}`, as());
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ success: true });
    expect((await api.request('GET', `/v1/contacts/${id}/notes`, as())).body).toEqual({ data: [], pageCount: 0 });
    const again = await api.request('DELETE', `/v1/contacts/${id}/notes/${note}`, as());
    expect(again.status).toBe(404);
    expect(again.body).toEqual(notFound('Note'));
  });

  it("is 404 for a note of another contact or workspace, and for an unknown contact; nothing changes", async () => {
    const f = fixtures(t.db, ws.id);
    const id = await f.contact({ email: 'owner@example.com' });
    const otherContact = await f.contact({ email: 'other-contact@example.com' });
    const notHis = await f.note(otherContact, 'Belongs to the other contact');
    const theirContact = await fixtures(t.db, other.id).contact({ email: 'theirs@example.com' });
    const theirs = await fixtures(t.db, other.id).note(theirContact, 'Belongs to another workspace');
    for (const noteId of [notHis, theirs, 424242, 99999999999]) {
      const put = await api.request('PUT', `/v1/contacts/${id}/notes/${noteId}`, as(ws.developerToken, { text: 'Hijacked' }));
      expect(put.status).toBe(404);
      expect(put.body).toEqual(notFound('Note'));
      const del = await api.request('DELETE', `/v1/contacts/${id}/notes/${noteId}`, as());
      expect(del.body).toEqual(notFound('Note'));
    }
    for (const [method, path, body] of [
      ['GET', `/v1/contacts/${theirContact}/notes`, undefined],
      ['POST', `/v1/contacts/${theirContact}/notes`, { text: 'x' }],
      ['PUT', `/v1/contacts/${theirContact}/notes/${theirs}`, { text: 'x' }],
      ['DELETE', `/v1/contacts/${theirContact}/notes/${theirs}`, undefined],
      ['GET', '/v1/contacts/424242/notes', undefined],
    ] as const) {
      const res = await api.request(method, path, as(ws.developerToken, body));
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual(notFound('Contact'));
    }
    const texts = await t.db.selectFrom('contact_notes').select('text').where('id', 'in', [notHis, theirs]).orderBy('id').execute();
    expect(texts.map((r) => r.text)).toEqual(['Belongs to the other contact', 'Belongs to another workspace']);
    expect((await api.request('PUT', `/v1/contacts/${id}/notes/abc`, as(ws.developerToken, { text: 'x' }))).body).toEqual(
      invalidRequestData([{ message: 'must be a digit string', path: ['params', 'noteId'] }]),
    );
  });

  it('needs the contacts scope, and a full token to write', async () => {
    const f = fixtures(t.db, ws.id);
    const id = await f.contact({ email: 'scoped@example.com' });
    const note = await f.note(id, 'Keep');
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    expect((await api.request('GET', `/v1/contacts/${id}/notes`, as(readOnly))).status).toBe(200);
    for (const [method, path] of [
      ['POST', `/v1/contacts/${id}/notes`],
      ['PUT', `/v1/contacts/${id}/notes/${note}`],
      ['DELETE', `/v1/contacts/${id}/notes/${note}`],
    ] as const) {
      const res = await api.request(method, path, as(readOnly, method === 'DELETE' ? undefined : { text: 'x' }));
      expect(res.body).toEqual(forbidden({ reason: 'readOnlyToken' }));
    }
    const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
    expect((await api.request('GET', `/v1/contacts/${id}/notes`, as(tagsOnly))).body).toEqual(forbidden({ reason: 'missingScope', scope: 'contacts' }));
  });
});
