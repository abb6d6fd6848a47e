import { insertFolder } from '../contract-calls/folders.js';
import { call, unique, type GraphQLOperation } from '../graphql-operations.js';

/** Sequence and comment automation folders: the same four fields per kind, each with its area's scope. */
const kinds = [
  { stem: 'SequenceFolder', type: 'sequence', scope: 'sequences' },
  { stem: 'CommentAutomationFolder', type: 'commentAutomation', scope: 'automations' },
] as const;

export const folderOperations: GraphQLOperation[] = kinds.flatMap(({ stem, type, scope }) => {
  const access = (action: GraphQLOperation['action']) => ({ action, scope, workspaceTokensOnly: false });
  const folderOf: (t: Parameters<GraphQLOperation['prepare']>[0], ws: number) => Promise<string> = async (t, ws) =>
    String(await insertFolder(t.db, ws, type, `Folder ${unique()}`));
  const list = `${stem.charAt(0).toLowerCase()}${stem.slice(1)}s`;
  return [
    {
      field: `Query.${list}`,
      ...access('read'),
      prepare: async (t, ws) => call(t, `query ($parentId: ID) { ${list}(parentId: $parentId, perPage: 5) { pageCount data { rawId } } }`, { parentId: await folderOf(t, ws) }),
    },
    {
      field: `Mutation.create${stem}`,
      ...access('write'),
      prepare: async (t, ws) =>
        call(t, `mutation ($input: CreateFolderInput!) { create${stem}(input: $input) { rawId parentId } }`, { input: { name: `Folder ${unique()}`, parentId: await folderOf(t, ws) } }),
    },
    {
      field: `Mutation.update${stem}`,
      ...access('write'),
      prepare: async (t, ws) =>
        call(t, `mutation ($id: ID!, $input: UpdateFolderInput!) { update${stem}(id: $id, input: $input) { rawId isTrash } }`, { id: await folderOf(t, ws), input: { isTrash: true } }),
    },
    {
      field: `Mutation.delete${stem}`,
      ...access('delete'),
      prepare: async (t, ws) => call(t, `mutation ($id: ID!) { delete${stem}(id: $id) { success } }`, { id: await folderOf(t, ws) }),
    },
  ];
});
