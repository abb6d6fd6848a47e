import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { fetchPage, type Page } from '../shared/pagination.js';
import { countFolders, deleteFolders, findFolder, folderTree, insertFolder, listFolders, unfileFromFolders, updateFolderRow } from './folder.repository.js';
import type { CreateFolderInput, Folder, FoldersQuery, FolderType, UpdateFolderInput } from './folder.schema.js';

/**
 * Folders of sequences and of comment automations: the same rules for both, each type its own
 * tree. A folder of the other type, or of another workspace, is not found, like a missing one.
 */

const missing = () => notFound('Folder');

/**
 * The digit id of a folder of the type in the workspace, or null when there is none. `lock` holds
 * the folder (PostgreSQL) until the caller's transaction ends, so a deletion running meanwhile
 * waits and then takes what was filed in it.
 */
export async function knownFolder(db: Executor, workspaceId: number, type: FolderType, id: string, opts: { lock?: boolean } = {}): Promise<number | null> {
  const key = idNumber(id);
  return key !== null && (await findFolder(db, workspaceId, type, key, opts)) ? key : null;
}

/** The digit id of a folder of the type in the workspace, or 404 Folder. */
export async function folderKey(db: Executor, workspaceId: number, type: FolderType, id: string, opts: { lock?: boolean } = {}): Promise<number> {
  const key = await knownFolder(db, workspaceId, type, id, opts);
  if (key === null) throw missing();
  return key;
}

/** The folder a record is filed in: null (the top level) stays null, an id must name a folder of the type. */
export const folderRef = async (db: Executor, workspaceId: number, type: FolderType, id: string | null): Promise<number | null> =>
  id === null ? null : folderKey(db, workspaceId, type, id, { lock: true });

/**
 * A page of the folders directly in `parentId` (left out: the top level), in or out of the trash,
 * by name then id. The parent must be a folder of the type (404 Folder); one in the trash is fine.
 */
export async function listFoldersPage(db: Executor, workspaceId: number, type: FolderType, q: FoldersQuery): Promise<Page<Folder>> {
  const parentId = q.parentId === undefined ? null : await folderKey(db, workspaceId, type, q.parentId);
  const filter = { parentId, isTrash: q.isTrash };
  return fetchPage(q, () => countFolders(db, workspaceId, type, filter), (w) => listFolders(db, workspaceId, type, filter, w));
}

/** A new folder, out of the trash, at the top level or in a folder of the same type (404 Folder otherwise; one in the trash is fine). */
export const createFolder = (db: Executor, workspaceId: number, type: FolderType, input: CreateFolderInput): Promise<Folder> =>
  db.transaction().execute(async (trx) => {
    const parentId = await folderRef(trx, workspaceId, type, input.parentId ?? null);
    return insertFolder(trx, workspaceId, type, { name: input.name, parentId });
  });

/** Renames it, or moves it into or out of the trash (its sub-folders and contents stay as they are). */
export async function updateFolder(db: Executor, workspaceId: number, type: FolderType, id: string, input: UpdateFolderInput): Promise<Folder> {
  const key = idNumber(id);
  const updated = key === null ? null : await updateFolderRow(db, workspaceId, type, key, input);
  if (!updated) throw missing();
  return updated;
}

/**
 * Deletes the folder and every folder below it, in one transaction of three statements whatever
 * the depth: the tree (one recursive query), the folders, then everything filed in any of them is
 * taken out (folder_id null; nothing else about it changes, updatedAt included). Nothing filed is
 * ever deleted. Un-filing comes last because the delete waits for writes holding one of the
 * folders (`folderRef`'s lock): what they filed has committed by then, and is un-filed too.
 */
export async function deleteFolder(db: Executor, workspaceId: number, type: FolderType, id: string): Promise<{ success: true }> {
  const key = idNumber(id);
  if (key === null) throw missing();
  return db.transaction().execute(async (trx) => {
    const tree = await folderTree(trx, workspaceId, type, key);
    if (tree.length === 0) throw missing();
    await deleteFolders(trx, workspaceId, type, tree);
    await unfileFromFolders(trx, workspaceId, type, tree);
    return { success: true } as const;
  });
}
