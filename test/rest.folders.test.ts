import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderType } from '../src/domain/folders/folder.schema.js';
import { contractClient } from './support/contract.js';
import { statementsOf } from './support/graphql.js';
import { insertFolder } from './support/contract-calls/folders.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, photoCommentBody, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

type Api = Awaited<ReturnType<typeof contractClient>>;

const kinds = [
  { type: 'sequence', other: 'commentAutomation', path: '/v1/sequence-folders', scope: 'sequences' },
  { type: 'commentAutomation', other: 'sequence', path: '/v1/comment-automation-folders', scope: 'automations' },
] as const;

/** A folder as the API shows it, stamped T0 unless told. */
const folder = (id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
  id: String(id),
  name,
  parentId: null,
  isTrash: false,
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

/** The folders operations of both kinds, and the folderId of sequences and comment automations. */
describe('folders', () => {
  let t: TestApp;
  let api: Api;
  let ws: TestWorkspace;
  let other: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  describe.each(kinds)('$path', ({ type, other: otherType, path, scope }) => {
    const add = (workspace: TestWorkspace, name: string, opts: Parameters<typeof insertFolder>[4] = {}) => insertFolder(t.db, workspace.id, type, name, opts);
    const list = (query = '', token = ws.developerToken) => api.request('GET', `${path}${query}`, { token });
    const create = (body: unknown, token = ws.developerToken) => api.request('POST', path, { token, body });
    const update = (id: number | string, body: unknown, token = ws.developerToken) => api.request('PUT', `${path}/${id}`, { token, body });
    const remove = (id: number | string, token = ws.developerToken) => api.request('DELETE', `${path}/${id}`, { token });
    const stored = (id: number) => t.db.selectFrom('folders').select(['workspace_id', 'type', 'parent_id', 'name']).where('id', '=', id).executeTakeFirst();

    it('creates folders at the top level and inside one another, lists them by name then id, renames and trashes them', async () => {
      const own = await t.workspace({ name: `Creator ${type}` });
      const top = await create({ name: '  Onboarding ' }, own.developerToken);
      expect(top.status).toBe(201);
      expect(top.body).toEqual({ id: digits(), name: 'Onboarding', parentId: null, isTrash: false, createdAt: isoNow(), updatedAt: isoNow() });
      const row = await stored(Number(top.body.id));
      expect(row).toEqual({ workspace_id: own.id, type, parent_id: null, name: 'Onboarding' });

      const sub = await create({ name: 'trial users', parentId: top.body.id }, own.developerToken);
      expect(sub.status).toBe(201);
      expect(sub.body).toEqual({ ...top.body, id: digits(), name: 'trial users', parentId: top.body.id, createdAt: isoNow(), updatedAt: isoNow() });
      const twin = await create({ name: 'Paid users', parentId: top.body.id }, own.developerToken);
      const again = await create({ name: 'paid users', parentId: top.body.id }, own.developerToken);
      expect(again.status).toBe(201);

      // The top level holds only Onboarding; its sub-folders by name (any case), ties by id.
      expect((await list('', own.developerToken)).body).toEqual({ data: [top.body], pageCount: 1 });
      const children = await list(`?parentId=${top.body.id}`, own.developerToken);
      expect(children.status).toBe(200);
      expect(children.body).toEqual({ data: [twin.body, again.body, sub.body], pageCount: 1 });
      expect((await list(`?parentId=${top.body.id}&page=2&perPage=2`, own.developerToken)).body).toEqual({ data: [sub.body], pageCount: 2 });
      expect((await list(`?parentId=${top.body.id}&page=3&perPage=2`, own.developerToken)).body).toEqual({ data: [], pageCount: 2 });

      const renamed = await update(sub.body.id, { name: ' Trial ' }, own.developerToken);
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ ...sub.body, name: 'Trial', updatedAt: isoNow() });

      // The trash: out of the default listing, in the isTrash=true one; back again with false.
      const trashed = await update(twin.body.id, { isTrash: true }, own.developerToken);
      expect(trashed.body).toEqual({ ...twin.body, isTrash: true, updatedAt: isoNow() });
      expect((await list(`?parentId=${top.body.id}`, own.developerToken)).body).toEqual({ data: [again.body, renamed.body], pageCount: 1 });
      expect((await list(`?parentId=${top.body.id}&isTrash=false`, own.developerToken)).body.data).toHaveLength(2);
      expect((await list(`?parentId=${top.body.id}&isTrash=true`, own.developerToken)).body).toEqual({ data: [trashed.body], pageCount: 1 });
      expect((await list('?isTrash=true', own.developerToken)).body).toEqual({ data: [], pageCount: 0 });
      const both = await update(twin.body.id, { name: 'Paid', isTrash: false }, own.developerToken);
      expect(both.body).toEqual({ ...twin.body, name: 'Paid', isTrash: false, updatedAt: isoNow() });

      // A folder in the trash still holds folders: they are listed, and new ones may go in it.
      await update(top.body.id, { isTrash: true }, own.developerToken);
      expect((await list('?isTrash=true', own.developerToken)).body.data.map((f: { id: string }) => f.id)).toEqual([top.body.id]);
      expect((await list(`?parentId=${top.body.id}`, own.developerToken)).body.pageCount).toBe(1);
      expect((await create({ name: 'Late', parentId: top.body.id }, own.developerToken)).status).toBe(201);
    });

    it('answers an empty page for a workspace without folders', async () => {
      const empty = await t.workspace({ name: `Empty ${type}` });
      expect((await list('', empty.developerToken)).body).toEqual({ data: [], pageCount: 0 });
    });

    it("is 404 Folder for a parent that is unknown, of the other kind or another workspace's, on create and list", async () => {
      const theirs = await add(other, 'Theirs');
      const otherKind = await insertFolder(t.db, ws.id, otherType, 'Other kind');
      for (const parentId of ['424242', '0', '99999999999', String(theirs), String(otherKind)]) {
        const created = await create({ name: 'Child', parentId });
        expect(created.status, parentId).toBe(404);
        expect(created.body).toEqual(notFound('Folder'));
        expect((await list(`?parentId=${parentId}`)).body).toEqual(notFound('Folder'));
      }
      expect(await t.db.selectFrom('folders').select('id').where('name', '=', 'Child').execute()).toEqual([]);
      // null is the top level.
      expect((await create({ name: 'Top', parentId: null })).body.parentId).toBeNull();
    });

    it("is 404 Folder on PUT and DELETE for an unknown id, another kind's folder or another workspace's, which stay as they were", async () => {
      const theirs = await add(other, 'Theirs');
      const otherKind = await insertFolder(t.db, ws.id, otherType, 'Other kind');
      for (const id of ['424242', '99999999999', String(theirs), String(otherKind)]) {
        expect((await update(id, { name: 'Mine now' })).body, id).toEqual(notFound('Folder'));
        const removed = await remove(id);
        expect(removed.status).toBe(404);
        expect(removed.body).toEqual(notFound('Folder'));
      }
      expect(await stored(theirs)).toEqual({ workspace_id: other.id, type, parent_id: null, name: 'Theirs' });
      expect(await stored(otherKind)).toEqual({ workspace_id: ws.id, type: otherType, parent_id: null, name: 'Other kind' });
    });

    it("never shows another workspace's folders, and another workspace's token cannot change them", async () => {
      const mine = await add(ws, 'Mine');
      const sub = await add(ws, 'Mine inside', { parentId: mine });
      expect((await list('', other.developerToken)).body.data.map((f: { name: string }) => f.name)).not.toContain('Mine');
      expect((await list(`?parentId=${mine}`, other.developerToken)).body).toEqual(notFound('Folder'));
      expect((await create({ name: 'Intruder', parentId: String(mine) }, other.developerToken)).body).toEqual(notFound('Folder'));
      expect((await update(sub, { isTrash: true }, other.developerToken)).body).toEqual(notFound('Folder'));
      expect((await remove(mine, other.developerToken)).status).toBe(404);
      expect((await list(`?parentId=${mine}`)).body).toEqual({ data: [folder(sub, 'Mine inside', { parentId: String(mine) })], pageCount: 1 });
    });

    it('validates names, bodies and the query, with the path of each issue', async () => {
      const id = await add(ws, 'Valid');
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{ name: '' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: '   ' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: 'x'.repeat(256) }, [{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]],
        [{}, [{ message: 'Required', path: ['body', 'name'] }]],
        [{ name: 'A', parentId: 'root' }, [{ message: 'must be a digit string', path: ['body', 'parentId'] }]],
        [{ name: 'A', isTrash: true }, [{ message: 'Unrecognized key: "isTrash"', path: ['body', 'isTrash'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await create(body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
      expect((await create({ name: 'y'.repeat(255) })).status).toBe(201);

      const updates: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{}, [{ message: 'Provide at least one of name or isTrash', path: ['body'] }]],
        [{ name: '' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: 'x'.repeat(256) }, [{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]],
        [{ isTrash: 'yes' }, [{ message: 'Invalid input: expected boolean, received string', path: ['body', 'isTrash'] }]],
        [{ name: 'A', parentId: '1' }, [{ message: 'Unrecognized key: "parentId"', path: ['body', 'parentId'] }]],
      ];
      for (const [body, issues] of updates) expect((await update(id, body)).body, JSON.stringify(body)).toEqual(invalidRequestData(issues));
      expect(await stored(id)).toEqual({ workspace_id: ws.id, type, parent_id: null, name: 'Valid' });

      expect((await list('?isTrash=yes&parentId=x&perPage=51')).body).toEqual(
        invalidRequestData([
          { message: 'perPage must be at most 50', path: ['query', 'perPage'] },
          { message: 'must be a digit string', path: ['query', 'parentId'] },
          { message: 'isTrash must be true or false', path: ['query', 'isTrash'] },
        ]),
      );
      expect((await update('abc', { name: 'A' })).body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
    });

    it(`needs the ${scope} scope, and a full token to write`, async () => {
      const wrongScope = await t.token(ws.id, { kind: 'developer', scopes: [scope === 'sequences' ? 'automations' : 'sequences'] });
      expect((await list('', wrongScope)).body).toEqual(forbidden({ reason: 'missingScope', scope }));
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await list('', readOnly)).status).toBe(200);
      expect((await create({ name: 'No' }, readOnly)).status).toBe(403);
      expect((await remove(await add(ws, 'Stays'), readOnly)).status).toBe(403);
    });
  });

  describe('DELETE removes the folder tree and un-files what was in it, never deleting it', () => {
    it('sequence folders: three levels, sequences in each move to the top level; a sibling and its sequences stay', async () => {
      const own = await t.workspace({ name: 'Tree of sequences' });
      const f = fixtures(t.db, own.id);
      const root = await insertFolder(t.db, own.id, 'sequence', 'Root');
      const middle = await insertFolder(t.db, own.id, 'sequence', 'Middle', { parentId: root });
      const leaf = await insertFolder(t.db, own.id, 'sequence', 'Leaf', { parentId: middle, isTrash: true });
      const otherLeaf = await insertFolder(t.db, own.id, 'sequence', 'Other leaf', { parentId: middle });
      const sibling = await insertFolder(t.db, own.id, 'sequence', 'Sibling');
      const siblingChild = await insertFolder(t.db, own.id, 'sequence', 'Sibling child', { parentId: sibling });
      const file = async (name: string, folderId: number) => {
        const id = await f.sequence(name);
        await t.db.updateTable('sequences').set({ folder_id: folderId }).where('id', '=', id).execute();
        return id;
      };
      const filed = { root: await file('In root', root), middle: await file('In middle', middle), leaf: await file('In leaf', leaf), otherLeaf: await file('In other leaf', otherLeaf) };
      const kept = { sibling: await file('In sibling', sibling), siblingChild: await file('In sibling child', siblingChild) };

      const lone = await insertFolder(t.db, own.id, 'sequence', 'Lone');
      // The token's first use reads it; the counts below are of the deletes alone.
      await api.request('GET', '/v1/sequence-folders', { token: own.developerToken });
      const single = await api.request('DELETE', `/v1/sequence-folders/${lone}`, { token: own.developerToken });
      const res = await api.request('DELETE', `/v1/sequence-folders/${root}`, { token: own.developerToken });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      // The same statements for a tree of three levels as for one folder: none per folder.
      expect(statementsOf(res)).toBe(statementsOf(single));
      expect(statementsOf(res)).toBeGreaterThan(0);

      const folders = await t.db.selectFrom('folders').select('id').where('workspace_id', '=', own.id).orderBy('id').execute();
      expect(folders.map((r) => r.id)).toEqual([sibling, siblingChild]);
      for (const [name, id] of Object.entries(filed)) {
        const read = await api.request('GET', `/v1/sequences/${id}`, { token: own.developerToken });
        expect(read.status, name).toBe(200);
        // Un-filed, and otherwise as it was (updatedAt included).
        expect(read.body).toEqual({ id: String(id), name: expect.any(String), isActive: true, folderId: null, createdAt: T0, updatedAt: T0 });
      }
      expect((await api.request('GET', `/v1/sequences/${kept.sibling}`, { token: own.developerToken })).body.folderId).toBe(String(sibling));
      expect((await api.request('GET', `/v1/sequences/${kept.siblingChild}`, { token: own.developerToken })).body.folderId).toBe(String(siblingChild));
      expect((await api.request('GET', '/v1/sequence-folders', { token: own.developerToken })).body).toEqual({ data: [folder(sibling, 'Sibling')], pageCount: 1 });
      expect((await api.request('DELETE', `/v1/sequence-folders/${middle}`, { token: own.developerToken })).body).toEqual(notFound('Folder'));
    });

    it('comment automation folders: photo and net automations in three levels move to the top level; a sibling keeps its own', async () => {
      const own = await t.workspace({ name: 'Tree of automations' });
      const f = fixtures(t.db, own.id);
      const root = await insertFolder(t.db, own.id, 'commentAutomation', 'Root');
      const middle = await insertFolder(t.db, own.id, 'commentAutomation', 'Middle', { parentId: root });
      const leaf = await insertFolder(t.db, own.id, 'commentAutomation', 'Leaf', { parentId: middle });
      const sibling = await insertFolder(t.db, own.id, 'commentAutomation', 'Sibling');
      // A sequence folder in the same workspace, and a sequence in it: another tree, untouched.
      const sequenceFolder = await insertFolder(t.db, own.id, 'sequence', 'Sequences');
      const sequence = await f.sequence('Filed sequence');
      await t.db.updateTable('sequences').set({ folder_id: sequenceFolder }).where('id', '=', sequence).execute();
      const filed = [
        await f.commentAutomation('photo', 'Photo in root', { folderId: String(root) }),
        await f.commentAutomation('net', 'Net in middle', { folderId: String(middle) }),
        await f.commentAutomation('photo', 'Photo in leaf', { folderId: String(leaf) }),
      ];
      const kept = await f.commentAutomation('net', 'Net in sibling', { folderId: String(sibling) });

      expect((await api.request('DELETE', `/v1/comment-automation-folders/${root}`, { token: own.developerToken })).status).toBe(204);

      const rows = await t.db.selectFrom('comment_automations').select(['id', 'folder_id', 'updated_at']).where('workspace_id', '=', own.id).orderBy('id').execute();
      expect(rows).toEqual([...filed.map((id) => ({ id, folder_id: null, updated_at: T0 })), { id: kept, folder_id: String(sibling), updated_at: T0 }]);
      const folders = await t.db.selectFrom('folders').select('id').where('workspace_id', '=', own.id).orderBy('id').execute();
      expect(folders.map((r) => r.id)).toEqual([sibling, sequenceFolder]);
      expect((await api.request('GET', `/v1/sequences/${sequence}`, { token: own.developerToken })).body.folderId).toBe(String(sequenceFolder));
      expect((await api.request('GET', `/v1/net-comments/${filed[1]}`, { token: own.developerToken })).body.folderId).toBeNull();
    });
  });

  describe('sequences filed in folders', () => {
    it('POST /v1/sequences files a new sequence; PATCH moves it, and null takes it out', async () => {
      const home = await insertFolder(t.db, ws.id, 'sequence', 'Home');
      const away = await insertFolder(t.db, ws.id, 'sequence', 'Away', { parentId: home });
      const created = await api.request('POST', '/v1/sequences', { token: ws.developerToken, body: { name: 'Filed', folderId: String(home) } });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({ id: digits(), name: 'Filed', isActive: true, folderId: String(home), createdAt: isoNow(), updatedAt: isoNow() });
      const atRoot = await api.request('POST', '/v1/sequences', { token: ws.developerToken, body: { name: 'Root', folderId: null } });
      expect(atRoot.body.folderId).toBeNull();

      const moved = await api.request('PATCH', `/v1/sequences/${created.body.id}`, { token: ws.developerToken, body: { folderId: String(away) } });
      expect(moved.status).toBe(200);
      expect(moved.body).toEqual({ ...created.body, folderId: String(away), updatedAt: isoNow() });
      const renamed = await api.request('PATCH', `/v1/sequences/${created.body.id}`, { token: ws.developerToken, body: { name: 'Renamed' } });
      expect(renamed.body.folderId).toBe(String(away));
      const out = await api.request('PATCH', `/v1/sequences/${created.body.id}`, { token: ws.developerToken, body: { folderId: null } });
      expect(out.body).toEqual({ ...renamed.body, folderId: null, updatedAt: isoNow() });
    });

    it("is 404 Folder for a folderId that is unknown, a comment automation folder or another workspace's; nothing changes", async () => {
      const sequence = await fixtures(t.db, ws.id).sequence('Unfiled');
      const theirs = await insertFolder(t.db, other.id, 'sequence', 'Theirs');
      const automations = await insertFolder(t.db, ws.id, 'commentAutomation', 'Automations');
      for (const folderId of ['424242', '99999999999', String(theirs), String(automations)]) {
        const created = await api.request('POST', '/v1/sequences', { token: ws.developerToken, body: { name: 'Misfiled', folderId } });
        expect(created.status, folderId).toBe(404);
        expect(created.body).toEqual(notFound('Folder'));
        expect((await api.request('PATCH', `/v1/sequences/${sequence}`, { token: ws.developerToken, body: { name: 'Changed', folderId } })).body).toEqual(notFound('Folder'));
      }
      expect(await t.db.selectFrom('sequences').select('id').where('name', '=', 'Misfiled').execute()).toEqual([]);
      expect((await api.request('GET', `/v1/sequences/${sequence}`, { token: ws.developerToken })).body).toMatchObject({ name: 'Unfiled', folderId: null, updatedAt: T0 });
      // The sequence is what PATCH is about: a missing one is 404 Sequence whatever the folder.
      expect((await api.request('PATCH', '/v1/sequences/424242', { token: ws.developerToken, body: { folderId: '424242' } })).body).toEqual(notFound('Sequence'));
      expect((await api.request('PATCH', `/v1/sequences/${sequence}`, { token: ws.developerToken, body: { folderId: 'none' } })).body).toEqual(
        invalidRequestData([{ message: 'must be a digit string', path: ['body', 'folderId'] }]),
      );
    });
  });

  describe('comment automations filed in folders', () => {
    const unknownFolder = (id: string) => validationError({ field: 'folderId', reason: 'notFound', ids: [id] });

    it('takes a comment automation folder of the workspace on create and PATCH, photo and net alike', async () => {
      const spring = await insertFolder(t.db, ws.id, 'commentAutomation', 'Spring');
      const summer = await insertFolder(t.db, ws.id, 'commentAutomation', 'Summer', { parentId: spring });
      const photo = await api.request('POST', '/v1/photo-comments', { token: ws.developerToken, body: { ...photoCommentBody(), folderId: String(spring) } });
      expect(photo.status).toBe(201);
      expect(photo.body.folderId).toBe(String(spring));
      const { type: _photo, ...netBody } = photoCommentBody();
      const net = await api.request('POST', '/v1/net-comments', { token: ws.developerToken, body: { ...netBody, folderId: `00${summer}` } });
      expect(net.status).toBe(201);
      // Stored as the folder's plain id, the form deleting the folder looks for.
      expect(net.body.folderId).toBe(String(summer));
      const moved = await api.request('PATCH', `/v1/photo-comments/${photo.body.id}`, { token: ws.developerToken, body: { folderId: String(summer) } });
      expect(moved.body).toEqual({ ...photo.body, folderId: String(summer), updatedAt: isoNow() });
      const out = await api.request('PATCH', `/v1/net-comments/${net.body.id}`, { token: ws.developerToken, body: { folderId: null } });
      expect(out.body.folderId).toBeNull();
    });

    it("is 422 validation for a folderId that is unknown, a sequence folder or another workspace's; nothing is stored", async () => {
      const sequences = await insertFolder(t.db, ws.id, 'sequence', 'Sequences');
      const theirs = await insertFolder(t.db, other.id, 'commentAutomation', 'Theirs');
      const id = await fixtures(t.db, ws.id).commentAutomation('net', 'Stays');
      for (const folderId of ['424242', '99999999999', String(sequences), String(theirs)]) {
        const created = await api.request('POST', '/v1/photo-comments', { token: ws.developerToken, body: { ...photoCommentBody(), name: 'Misfiled', folderId } });
        expect(created.status, folderId).toBe(422);
        expect(created.body).toEqual(unknownFolder(folderId));
        expect((await api.request('PATCH', `/v1/net-comments/${id}`, { token: ws.developerToken, body: { name: 'Changed', folderId } })).body).toEqual(unknownFolder(folderId));
      }
      expect(await t.db.selectFrom('comment_automations').select('id').where('name', '=', 'Misfiled').execute()).toEqual([]);
      expect(await t.db.selectFrom('comment_automations').select(['name', 'folder_id']).where('id', '=', id).executeTakeFirst()).toEqual({ name: 'Stays', folder_id: null });
    });
  });
});
