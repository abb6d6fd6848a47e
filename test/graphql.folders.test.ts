import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFolder } from './support/contract-calls/folders.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { fieldError, invalidInput, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, isoNow, notFound } from './support/rest.js';

const FOLDER = 'id rawId name parentId isTrash createdAt updatedAt';

const kinds = [
  { type: 'sequence', other: 'commentAutomation', stem: 'SequenceFolder', list: 'sequenceFolders', scope: 'sequences', otherStem: 'CommentAutomationFolder' },
  { type: 'commentAutomation', other: 'sequence', stem: 'CommentAutomationFolder', list: 'commentAutomationFolders', scope: 'automations', otherStem: 'SequenceFolder' },
] as const;

/** Folders as GraphQL queries and mutations (the same operations as REST), and Sequence.folder. */
describe('GraphQL folders', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;

  const run = async (query: string, variables: Record<string, unknown> = {}, token = ws.developerToken) => {
    const res = await t.graphql<any>(query, variables, { token });
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t.close());

  describe.each(kinds)('$stem', ({ type, other: otherType, stem, list, scope, otherStem }) => {
    const node = (id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
      id: encodeGlobalID(stem, String(id)),
      rawId: String(id),
      name,
      parentId: null,
      isTrash: false,
      createdAt: T0,
      updatedAt: T0,
      ...extra,
    });
    const listQuery = `query($parentId: ID, $isTrash: Boolean, $page: SafeInt, $perPage: Int) { ${list}(parentId: $parentId, isTrash: $isTrash, page: $page, perPage: $perPage) { pageCount data { ${FOLDER} } } }`;
    const create = `mutation($input: CreateFolderInput!) { create${stem}(input: $input) { ${FOLDER} } }`;
    const update = `mutation($id: ID!, $input: UpdateFolderInput!) { update${stem}(id: $id, input: $input) { ${FOLDER} } }`;
    const remove = `mutation($id: ID!) { delete${stem}(id: $id) { success } }`;

    it('lists the top level or a folder\'s sub-folders (plain or global parentId), in or out of the trash, by name then id', async () => {
      const own = await t.workspace({ name: `Lister ${type}` });
      const top = await insertFolder(t.db, own.id, type, 'Top');
      const b = await insertFolder(t.db, own.id, type, 'beta', { parentId: top });
      const a = await insertFolder(t.db, own.id, type, 'Alpha', { parentId: top });
      const trashed = await insertFolder(t.db, own.id, type, 'Old', { parentId: top, isTrash: true });
      const token = own.developerToken;
      expect(await run(listQuery, {}, token)).toEqual({ data: { [list]: { pageCount: 1, data: [node(top, 'Top')] } } });
      for (const parentId of [String(top), encodeGlobalID(stem, String(top))]) {
        expect(await run(listQuery, { parentId }, token)).toEqual({
          data: { [list]: { pageCount: 1, data: [node(a, 'Alpha', { parentId: String(top) }), node(b, 'beta', { parentId: String(top) })] } },
        });
      }
      expect(await run(listQuery, { parentId: String(top), isTrash: true }, token)).toEqual({
        data: { [list]: { pageCount: 1, data: [node(trashed, 'Old', { parentId: String(top), isTrash: true })] } },
      });
      expect((await run(listQuery, { parentId: String(top), page: 2, perPage: 1 }, token)).data[list]).toEqual({ pageCount: 2, data: [node(b, 'beta', { parentId: String(top) })] });
    });

    it('is not found for a parent of the other kind, of another workspace, or unknown; another kind\'s global id is refused', async () => {
      const otherKind = await insertFolder(t.db, ws.id, otherType, 'Other kind');
      const theirs = await insertFolder(t.db, other.id, type, 'Theirs');
      for (const parentId of [String(otherKind), String(theirs), '424242']) {
        expect(await run(listQuery, { parentId })).toEqual({ data: null, errors: [fieldError([list], notFound('Folder'), 'Folder not found')] });
        expect(await run(create, { input: { name: 'Child', parentId } })).toEqual({ data: null, errors: [fieldError([`create${stem}`], notFound('Folder'), 'Folder not found')] });
      }
      const foreign = encodeGlobalID(otherStem, String(otherKind));
      expect(await run(listQuery, { parentId: foreign })).toEqual({
        data: null,
        errors: [invalidInput([list], [{ message: 'must be a digit string', path: ['parentId'] }], 'parentId: must be a digit string')],
      });
    });

    it(`create${stem}, update${stem} and delete${stem} do what REST does`, async () => {
      const top = await run(create, { input: { name: ' Campaigns ', parentId: null } });
      expect(top).toEqual({ data: { [`create${stem}`]: { ...node('0', 'Campaigns'), id: expect.any(String), rawId: digits(), createdAt: isoNow(), updatedAt: isoNow() } } });
      const topId = top.data[`create${stem}`].rawId;
      const sub = await run(create, { input: { name: 'Spring', parentId: encodeGlobalID(stem, topId) } });
      const subId = sub.data[`create${stem}`].rawId;
      expect(sub.data[`create${stem}`].parentId).toBe(topId);

      expect(await run(update, { id: encodeGlobalID(stem, subId), input: { isTrash: true, name: null } })).toEqual({
        data: { [`update${stem}`]: { ...sub.data[`create${stem}`], isTrash: true, updatedAt: isoNow() } },
      });
      expect(await run(update, { id: subId, input: { name: 'Summer' } })).toMatchObject({ data: { [`update${stem}`]: { name: 'Summer', isTrash: true } } });
      expect(await run(update, { id: subId, input: {} })).toEqual({
        data: null,
        errors: [invalidInput([`update${stem}`], [{ message: 'Provide at least one of name or isTrash', path: ['input'] }], 'input: Provide at least one of name or isTrash')],
      });
      expect(await run(create, { input: { name: '' } })).toEqual({
        data: null,
        errors: [invalidInput([`create${stem}`], [{ message: 'name must not be empty', path: ['input', 'name'] }], 'name must not be empty')],
      });
      expect(await run(create, { input: { name: 'x'.repeat(256) } })).toEqual({
        data: null,
        errors: [invalidInput([`create${stem}`], [{ message: 'name must be at most 255 characters', path: ['input', 'name'] }], 'name must be at most 255 characters')],
      });

      expect(await run(remove, { id: topId })).toEqual({ data: { [`delete${stem}`]: { success: true } } });
      expect(await t.db.selectFrom('folders').select('id').where('id', 'in', [Number(topId), Number(subId)]).execute()).toEqual([]);
      expect(await run(remove, { id: topId })).toEqual({ data: null, errors: [fieldError([`delete${stem}`], notFound('Folder'), 'Folder not found')] });
      expect(await run(update, { id: topId, input: { name: 'Gone' } })).toEqual({ data: null, errors: [fieldError([`update${stem}`], notFound('Folder'), 'Folder not found')] });
    });

    it("another workspace's token neither sees nor changes the folders; node(id) answers the workspace's only", async () => {
      const mine = await insertFolder(t.db, ws.id, type, 'Mine');
      expect((await run(listQuery, {}, other.developerToken)).data[list].data.map((f: { rawId: string }) => f.rawId)).not.toContain(String(mine));
      expect((await run(update, { id: String(mine), input: { name: 'Stolen' } }, other.developerToken)).errors).toEqual([fieldError([`update${stem}`], notFound('Folder'), 'Folder not found')]);
      expect((await run(remove, { id: String(mine) }, other.developerToken)).errors).toEqual([fieldError([`delete${stem}`], notFound('Folder'), 'Folder not found')]);
      const nodeQuery = `query($id: ID!) { node(id: $id) { ... on ${stem} { rawId name } } }`;
      expect(await run(nodeQuery, { id: encodeGlobalID(stem, String(mine)) })).toEqual({ data: { node: { rawId: String(mine), name: 'Mine' } } });
      expect(await run(nodeQuery, { id: encodeGlobalID(stem, String(mine)) }, other.developerToken)).toEqual({ data: { node: null } });
    });

    it(`needs the ${scope} scope`, async () => {
      const wrong = await t.token(ws.id, { kind: 'developer', scopes: [scope === 'sequences' ? 'automations' : 'sequences'] });
      expect((await run(listQuery, {}, wrong)).errors).toEqual([fieldError([list], forbidden({ reason: 'missingScope', scope }), expect.any(String))]);
    });
  });

  describe('Sequence.folderId and Sequence.folder', () => {
    it('files sequences through createSequence and updateSequence (global or plain folder id; null un-files)', async () => {
      const folder = await insertFolder(t.db, ws.id, 'sequence', 'Drips');
      const fields = `rawId folderId folder { ${FOLDER} }`;
      const made = await run(`mutation($input: CreateSequenceInput!) { createSequence(input: $input) { ${fields} } }`, {
        input: { name: 'Filed', folderId: encodeGlobalID('SequenceFolder', String(folder)) },
      });
      const folderNode = { id: encodeGlobalID('SequenceFolder', String(folder)), rawId: String(folder), name: 'Drips', parentId: null, isTrash: false, createdAt: T0, updatedAt: T0 };
      expect(made).toEqual({ data: { createSequence: { rawId: digits(), folderId: String(folder), folder: folderNode } } });
      const id = made.data.createSequence.rawId;
      const update = `mutation($id: ID!, $input: UpdateSequenceInput!) { updateSequence(id: $id, input: $input) { ${fields} } }`;
      expect(await run(update, { id, input: { folderId: null } })).toEqual({ data: { updateSequence: { rawId: id, folderId: null, folder: null } } });
      expect(await run(update, { id, input: { folderId: String(folder) } })).toEqual({ data: { updateSequence: { rawId: id, folderId: String(folder), folder: folderNode } } });
      // A name alone (null folderId left out by GraphQL) keeps the folder.
      expect(await run(update, { id, input: { name: 'Renamed' } })).toMatchObject({ data: { updateSequence: { folderId: String(folder) } } });
      const automationFolder = await insertFolder(t.db, ws.id, 'commentAutomation', 'Not for sequences');
      expect(await run(update, { id, input: { folderId: String(automationFolder) } })).toEqual({
        data: null,
        errors: [fieldError(['updateSequence'], notFound('Folder'), 'Folder not found')],
      });
    });

    it('loads the folders of a page of sequences in one statement, whatever the page size', async () => {
      const own = await t.workspace({ name: 'Folder loader' });
      const f = fixtures(t.db, own.id);
      const folders = [await insertFolder(t.db, own.id, 'sequence', 'A'), await insertFolder(t.db, own.id, 'sequence', 'B')];
      for (let i = 0; i < 6; i++) {
        const id = await f.sequence(`S${i}`);
        if (i % 3 !== 2) await t.db.updateTable('sequences').set({ folder_id: folders[i % 2]! }).where('id', '=', id).execute();
      }
      const q = 'query($perPage: Int!) { sequences(perPage: $perPage) { data { name folderId folder { name } } } }';
      // The token's first use reads it; the counts below are of the query alone.
      await t.graphql('{ __typename }', {}, { token: own.developerToken });
      const small = await t.graphql<any>(q, { perPage: 2 }, { token: own.developerToken });
      const large = await t.graphql<any>(q, { perPage: 6 }, { token: own.developerToken });
      expect(large.body.data.sequences.data.map((s: { name: string; folder: { name: string } | null }) => [s.name, s.folder?.name ?? null])).toEqual([
        ['S0', 'A'],
        ['S1', 'B'],
        ['S2', null],
        ['S3', 'B'],
        ['S4', 'A'],
        ['S5', null],
      ]);
      // count, page, one batch of folders
      expect(statementsOf(large)).toBe(3);
      expect(statementsOf(small)).toBe(3);
    });
  });
});
