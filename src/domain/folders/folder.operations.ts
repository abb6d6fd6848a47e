import { z } from 'zod';
import type { Scope } from '../auth/scopes.js';
import { operation, operationsOf } from '../shared/operation.js';
import { idParams } from '../shared/schemas.js';
import { createFolderInput, folderPageSchema, folderSchema, foldersQuery, updateFolderInput, type Folder, type FolderType } from './folder.schema.js';
import { createFolder, deleteFolder, listFoldersPage, updateFolder } from './folder.service.js';

/**
 * Folders of sequences (`/v1/sequence-folders`) and of comment automations
 * (`/v1/comment-automation-folders`): the same four operations, declared once and parameterised
 * by the kind of folder; only their ids, scope, wording and examples differ.
 */
interface Kind {
  type: FolderType;
  /** The operation ids' prefix and the reference's group. */
  prefix: string;
  tag: string;
  scope: Scope;
  /** The kind of folder, in a summary. */
  noun: string;
  /** What the folders hold, in a sentence. */
  holds: string;
  examples: { top: Folder; sub: Folder };
}

const stamp = '2026-11-23T10:15:00.000Z';
const later = '2026-11-24T08:00:00.000Z';

const sequenceKind: Kind = {
  type: 'sequence',
  prefix: 'sequences',
  tag: 'Sequences',
  scope: 'sequences',
  noun: 'sequence',
  holds: 'sequences',
  examples: {
    top: { id: '3', name: 'Onboarding', parentId: null, isTrash: false, createdAt: stamp, updatedAt: stamp },
    sub: { id: '4', name: 'Trial users', parentId: '3', isTrash: false, createdAt: stamp, updatedAt: stamp },
  },
};

const commentAutomationKind: Kind = {
  type: 'commentAutomation',
  prefix: 'commentAutomations',
  tag: 'Comment automations',
  scope: 'automations',
  noun: 'comment automation',
  holds: 'comment automations (photo and net alike)',
  examples: {
    top: { id: '11', name: 'Spring campaign', parentId: null, isTrash: false, createdAt: stamp, updatedAt: stamp },
    sub: { id: '12', name: 'Price questions', parentId: '11', isTrash: false, createdAt: stamp, updatedAt: stamp },
  },
};

const noContent = z.undefined();

function folderOperations(k: Kind) {
  const { type } = k;
  const { top, sub } = k.examples;
  return operationsOf(k.tag, {
    listFolders: operation({
      id: `${k.prefix}.listFolders`,
      summary: `List ${k.noun} folders`,
      description: `Folders of ${k.holds}: those directly in \`parentId\` (left out: the top level), in or out of the trash (\`isTrash\`, default false), by name (case-insensitive) then id. A parentId that is not such a folder of the workspace is 404.`,
      access: { action: 'read', scope: k.scope },
      query: foldersQuery,
      output: folderPageSchema,
      outputDescription: 'A page of folders; `pageCount` is ceil(total / perPage)',
      examples: { query: { page: '1', perPage: '20', parentId: top.id, isTrash: 'false' }, response: { data: [sub], pageCount: 1 } },
      run: ({ db, who, query }) => listFoldersPage(db, who.workspaceId, type, query),
    }),
    createFolder: operation({
      id: `${k.prefix}.createFolder`,
      summary: `Create a ${k.noun} folder`,
      description: `A folder for ${k.holds}, at the top level or in another such folder (\`parentId\`; any other id is 404). Names need not be unique.`,
      access: { action: 'write', scope: k.scope },
      body: createFolderInput,
      output: folderSchema,
      outputDescription: 'The new folder',
      examples: { body: { name: sub.name, parentId: top.id }, response: sub },
      run: ({ db, who, body }) => createFolder(db, who.workspaceId, type, body),
    }),
    updateFolder: operation({
      id: `${k.prefix}.updateFolder`,
      summary: `Rename or trash a ${k.noun} folder`,
      description: 'Renames the folder, or moves it to the trash (`isTrash` true) or out of it; its sub-folders and contents stay as they are.',
      access: { action: 'write', scope: k.scope },
      params: idParams,
      body: updateFolderInput,
      output: folderSchema,
      outputDescription: 'The folder as changed',
      examples: { params: { id: sub.id }, body: { isTrash: true }, response: { ...sub, isTrash: true, updatedAt: later } },
      run: ({ db, who, params, body }) => updateFolder(db, who.workspaceId, type, params.id, body),
    }),
    deleteFolder: operation({
      id: `${k.prefix}.deleteFolder`,
      summary: `Delete a ${k.noun} folder`,
      description: `Deletes the folder and every folder below it; the ${k.holds} filed in any of them move to the top level (folderId null) and are never deleted.`,
      access: { action: 'delete', scope: k.scope },
      params: idParams,
      output: noContent,
      outputDescription: 'Deleted',
      examples: { params: { id: top.id }, response: undefined },
      run: ({ db, who, params }) => deleteFolder(db, who.workspaceId, type, params.id),
      present: () => undefined,
    }),
  });
}

export const sequenceFolderOperations = folderOperations(sequenceKind);
export const commentAutomationFolderOperations = folderOperations(commentAutomationKind);
/** Each kind's operations, by folder type. */
export const folderOperationsOf = { sequence: sequenceFolderOperations, commentAutomation: commentAutomationFolderOperations } as const;
