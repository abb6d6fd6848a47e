import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateTagNameError, insertTag, renameTag } from '../src/domain/tags/tag.repository.js';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

/** POST /v1/tags, GET /v1/tags/{idOrName}, PUT and DELETE /v1/tags/{id}. */
describe('tags: create, read, rename, delete', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let otherTag: number;

  const duplicateName = validationError({ field: 'name', reason: 'alreadyExists' });
  /** A fixture tag as the API shows it. */
  const record = (id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
    id: String(id),
    name,
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    folderId: null,
    workspaceId: String(ws.id),
    ...extra,
  });
  const listNames = async (token = ws.developerToken) => (await api.request('GET', '/v1/tags', { token })).body.data.map((tag: { name: string }) => tag.name);
  const stored = (id: number | string) =>
    t.db.selectFrom('tags').select(['name', 'deleted_at', 'updated_at']).where('id', '=', Number(id)).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    otherTag = await fixtures(t.db, other.id).tag('Theirs');
  });
  afterAll(() => t.close());

  describe('POST /v1/tags', () => {
    it('creates a live tag, its name trimmed, and answers 200 with the whole record', async () => {
      const res = await api.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: '  Spring sale  ' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: digits(),
        name: 'Spring sale',
        createdAt: isoNow(),
        updatedAt: isoNow(),
        deletedAt: null,
        folderId: null,
        workspaceId: String(ws.id),
      });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(await listNames()).toContain('Spring sale');
      expect((await api.request('GET', `/v1/tags/${res.body.id}`, { token: ws.userToken })).body).toEqual(res.body);
    });

    it('refuses a name a live tag has, in any case, as 422 validation naming the field; nothing is created', async () => {
      await fixtures(t.db, ws.id).tag('Wholesale');
      const before = await listNames();
      for (const name of ['Wholesale', 'WHOLESALE', ' wholesale ']) {
        const res = await api.request('POST', '/v1/tags', { token: ws.developerToken, body: { name } });
        expect(res.status).toBe(422);
        expect(res.body).toEqual(duplicateName);
      }
      expect(await listNames()).toEqual(before);
    });

    it("takes a deleted tag's name, and a name another workspace uses", async () => {
      await fixtures(t.db, ws.id).tag('Old promo', { deletedAt: '2026-10-01T00:00:00.000Z' });
      for (const name of ['old PROMO', 'Theirs']) {
        const res = await api.request('POST', '/v1/tags', { token: ws.developerToken, body: { name } });
        expect(res.status).toBe(200);
        expect(res.body.name).toBe(name);
      }
    });

    it('validates the body: name required, trimmed 1 to 255 characters, a string, nothing else', async () => {
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{}, [{ message: 'Required', path: ['body', 'name'] }]],
        [{ name: '' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: '   ' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: 'x'.repeat(256) }, [{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]],
        [{ name: 7 }, [{ message: 'Invalid input: expected string, received number', path: ['body', 'name'] }]],
        [{ name: 'Ok', colour: 'red' }, [{ message: 'Unrecognized key: "colour"', path: ['body', 'colour'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.request('POST', '/v1/tags', { token: ws.developerToken, body });
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
      // 255 characters after trimming are fine.
      const longest = await api.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: ` ${'y'.repeat(255)} ` } });
      expect(longest.status).toBe(200);
      expect(longest.body.name).toBe('y'.repeat(255));
    });

    it('needs a full token with the tags scope', async () => {
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      expect((await api.request('POST', '/v1/tags', { token: readOnly, body: { name: 'Nope' } })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await api.request('POST', '/v1/tags', { token: contactsOnly, body: { name: 'Nope' } })).body).toEqual(forbidden({ reason: 'missingScope', scope: 'tags' }));
      expect(await listNames()).not.toContain('Nope');
    });
  });

  describe('the unique index on live names (the race the pre-check cannot close)', () => {
    it('refuses a second live tag of the same name in any case, on insert and on rename', async () => {
      const f = fixtures(t.db, ws.id);
      await f.tag('Racer');
      const spare = await f.tag('Spare');
      await expect(insertTag(t.db, ws.id, 'RACER')).rejects.toBeInstanceOf(DuplicateTagNameError);
      await expect(renameTag(t.db, ws.id, spare, 'racer')).rejects.toBeInstanceOf(DuplicateTagNameError);
      expect((await stored(spare)).name).toBe('Spare');
      // Deleted tags and other workspaces do not count.
      await f.tag('Gone', { deletedAt: T0 });
      expect((await insertTag(t.db, ws.id, 'gone')).name).toBe('gone');
      expect((await insertTag(t.db, other.id, 'Racer')).name).toBe('Racer');
    });
  });

  describe('GET /v1/tags/{idOrName}', () => {
    let vip: number;
    let digitsName: number;
    beforeAll(async () => {
      const f = fixtures(t.db, ws.id);
      vip = await f.tag('VIP');
      await f.tag('Abandoned cart');
      digitsName = await f.tag('2024');
      await f.tag('Archived', { deletedAt: '2026-10-01T00:00:00.000Z' });
    });

    it('finds a live tag by id', async () => {
      const res = await api.request('GET', `/v1/tags/${vip}`, { token: ws.developerToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(record(vip, 'VIP'));
    });

    it('finds a live tag by name, case-insensitively, percent-encoded in the path', async () => {
      for (const name of ['vip', 'VIP', 'vIp', '%20vip%20']) {
        const res = await api.request('GET', `/v1/tags/${name}`, { token: ws.userToken });
        expect(res.status, name).toBe(200);
        expect(res.body).toEqual(record(vip, 'VIP'));
      }
      const spaced = await api.request('GET', '/v1/tags/abandoned%20CART', { token: ws.developerToken });
      expect(spaced.body.name).toBe('Abandoned cart');
    });

    it("tries digits as an id first, then as a name", async () => {
      const byName = await api.request('GET', '/v1/tags/2024', { token: ws.developerToken });
      expect(byName.status).toBe(200);
      expect(byName.body).toEqual(record(digitsName, '2024'));
      // A tag named like another tag's id: the id wins.
      await fixtures(t.db, ws.id).tag(String(vip));
      expect((await api.request('GET', `/v1/tags/${vip}`, { token: ws.developerToken })).body).toEqual(record(vip, 'VIP'));
    });

    it('is 404 for a deleted tag, an unknown one, and for another workspace\'s tag by id or name', async () => {
      const archived = await t.db.selectFrom('tags').select('id').where('name', '=', 'Archived').executeTakeFirstOrThrow();
      for (const idOrName of [String(archived.id), 'Archived', 'nothing-like-it', '424242', '99999999999999999999', String(otherTag), 'Theirs-elsewhere']) {
        const res = await api.request('GET', `/v1/tags/${idOrName}`, { token: ws.developerToken });
        expect(res.status, idOrName).toBe(404);
        expect(res.body).toEqual(notFound('Tag'));
      }
      expect((await api.request('GET', `/v1/tags/${otherTag}`, { token: other.developerToken })).body.name).toBe('Theirs');
    });

    it('refuses a name longer than any tag can have', async () => {
      const res = await api.request('GET', `/v1/tags/${'x'.repeat(256)}`, { token: ws.developerToken });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'Too big: expected string to have <=255 characters', path: ['params', 'idOrName'] }]));
    });
  });

  describe('PUT /v1/tags/{id}', () => {
    it('renames the tag: new name trimmed, updatedAt moves, createdAt stays', async () => {
      const id = await fixtures(t.db, ws.id).tag('Lead');
      const res = await api.request('PUT', `/v1/tags/${id}`, { token: ws.developerToken, body: { name: ' Qualified lead ' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(record(id, 'Qualified lead', { updatedAt: isoNow() }));
      expect(res.body.updatedAt > T0).toBe(true);
      expect((await api.request('GET', `/v1/tags/qualified%20lead`, { token: ws.developerToken })).body).toEqual(res.body);
    });

    it("may change only the case of its own name, and take a deleted tag's name", async () => {
      const f = fixtures(t.db, ws.id);
      const id = await f.tag('newsletter');
      expect((await api.request('PUT', `/v1/tags/${id}`, { token: ws.developerToken, body: { name: 'Newsletter' } })).body.name).toBe('Newsletter');
      await f.tag('Retired', { deletedAt: T0 });
      expect((await api.request('PUT', `/v1/tags/${id}`, { token: ws.developerToken, body: { name: 'retired' } })).body.name).toBe('retired');
    });

    it("refuses another live tag's name (any case) as 422 validation; the tag is unchanged", async () => {
      const f = fixtures(t.db, ws.id);
      await f.tag('Gold');
      const silver = await f.tag('Silver');
      const res = await api.request('PUT', `/v1/tags/${silver}`, { token: ws.developerToken, body: { name: 'GOLD' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(duplicateName);
      expect(await stored(silver)).toEqual({ name: 'Silver', deleted_at: null, updated_at: T0 });
    });

    it("is 404 for an unknown, a deleted or another workspace's tag, which stays as it was", async () => {
      const deleted = await fixtures(t.db, ws.id).tag('Deleted one', { deletedAt: T0 });
      for (const id of ['424242', String(deleted), String(otherTag), '99999999999']) {
        const res = await api.request('PUT', `/v1/tags/${id}`, { token: ws.developerToken, body: { name: 'Renamed' } });
        expect(res.status, id).toBe(404);
        expect(res.body).toEqual(notFound('Tag'));
      }
      expect((await stored(otherTag)).name).toBe('Theirs');
      expect((await stored(deleted)).name).toBe('Deleted one');
    });

    it('validates the path and the body', async () => {
      const id = await fixtures(t.db, ws.id).tag('Valid');
      const bad = await api.request('PUT', '/v1/tags/vip', { token: ws.developerToken, body: { name: 'x' } });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
      const empty = await api.request('PUT', `/v1/tags/${id}`, { token: ws.developerToken, body: { name: ' ' } });
      expect(empty.body).toEqual(invalidRequestData([{ message: 'name must not be empty', path: ['body', 'name'] }]));
      const extra = await api.request('PUT', `/v1/tags/${id}`, { token: ws.developerToken, body: { name: 'Fine', folderId: '1' } });
      expect(extra.body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "folderId"', path: ['body', 'folderId'] }]));
      expect((await stored(id)).name).toBe('Valid');
    });
  });

  describe('DELETE /v1/tags/{id}', () => {
    it('soft-deletes: deletedAt set, gone from the list, from contacts and from GET; the name is free again', async () => {
      const f = fixtures(t.db, ws.id);
      const doomed = await f.tag('Doomed');
      const kept = await f.tag('Kept');
      const contact = await f.contact({ email: 'tagged@example.com' });
      await f.tagContact(contact, doomed);
      await f.tagContact(contact, kept);

      const res = await api.request('DELETE', `/v1/tags/${doomed}`, { token: ws.developerToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });

      const row = await stored(doomed);
      expect(row).toEqual({ name: 'Doomed', deleted_at: isoNow(), updated_at: row.deleted_at });
      expect(await listNames()).not.toContain('Doomed');
      expect((await api.request('GET', `/v1/tags/${doomed}`, { token: ws.developerToken })).status).toBe(404);
      expect((await api.request('GET', '/v1/tags/doomed', { token: ws.developerToken })).status).toBe(404);
      const tags = await api.request('GET', `/v1/contacts/${contact}/tags`, { token: ws.developerToken });
      expect(tags.body).toEqual({ data: [record(kept, 'Kept')] });
      const links = await t.db.selectFrom('contact_tags').select('tag_id').where('contact_id', '=', contact).execute();
      expect(links).toEqual([{ tag_id: kept }]);

      const again = await api.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: 'doomed' } });
      expect(again.status).toBe(200);
      expect(again.body.id).not.toBe(String(doomed));
    });

    it("is 404 for a deleted tag (deleting twice), an unknown id and another workspace's tag, which stays", async () => {
      const gone = await fixtures(t.db, ws.id).tag('Twice', { deletedAt: T0 });
      for (const id of [String(gone), '424242', String(otherTag)]) {
        const res = await api.request('DELETE', `/v1/tags/${id}`, { token: ws.developerToken });
        expect(res.status, id).toBe(404);
        expect(res.body).toEqual(notFound('Tag'));
      }
      expect(await stored(otherTag)).toEqual({ name: 'Theirs', deleted_at: null, updated_at: T0 });
      expect(await stored(gone)).toEqual({ name: 'Twice', deleted_at: T0, updated_at: T0 });
    });

    it('needs a full token with the tags scope; stays open when the trial has ended', async () => {
      const id = await fixtures(t.db, ws.id).tag('Guarded');
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await api.request('DELETE', `/v1/tags/${id}`, { token: readOnly })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await stored(id)).deleted_at).toBeNull();

      const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
      const theirs = await fixtures(t.db, expired.id).tag('Old');
      expect((await api.request('DELETE', `/v1/tags/${theirs}`, { token: expired.developerToken })).body).toEqual({ success: true });
      expect((await api.request('POST', '/v1/tags', { token: expired.developerToken, body: { name: 'New' } })).body.code).toBe('trialExpired');
    });
  });
});
