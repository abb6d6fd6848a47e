import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import { countRows } from '../../db/count.js';
import { isPostgres, type Executor } from '../../db/database.js';
import type { FoldersTable } from '../../db/types.js';
import { bool, idString, nowIso, toBool } from '../../db/values.js';
import type { Folder, FolderType } from './folder.schema.js';

const folderColumns = ['id', 'parent_id', 'name', 'is_trash', 'created_at', 'updated_at'] as const;

const toFolder = (r: Pick<Selectable<FoldersTable>, (typeof folderColumns)[number]>): Folder => ({
  id: idString(r.id),
  name: r.name,
  parentId: r.parent_id === null ? null : idString(r.parent_id),
  isTrash: toBool(r.is_trash),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Which folders a listing shows: the sub-folders of `parentId` (null: the top level), in or out of the trash. */
export interface FolderFilter {
  parentId: number | null;
  isTrash: boolean;
}

const folderList = (db: Executor, workspaceId: number, type: FolderType, f: FolderFilter) =>
  db
    .selectFrom('folders')
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', type)
    .where('parent_id', f.parentId === null ? 'is' : '=', f.parentId)
    .where('is_trash', '=', bool(f.isTrash));

export const countFolders = (db: Executor, workspaceId: number, type: FolderType, f: FolderFilter): Promise<number> =>
  countRows(folderList(db, workspaceId, type, f));

/**
 * A page of folders by name (case-insensitive, ties by id). PostgreSQL compares with the "C"
 * collation so the order is code-point order on both engines, whatever the database's locale.
 */
export async function listFolders(db: Executor, workspaceId: number, type: FolderType, f: FolderFilter, window: { limit: number; offset: number }): Promise<Folder[]> {
  const rows = await folderList(db, workspaceId, type, f)
    .select(folderColumns)
    .orderBy(isPostgres(db) ? sql`lower(name) collate "C"` : sql`lower(name)`)
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toFolder);
}

/** Folders of one type by id in one statement; only this workspace's. */
export async function foldersByIds(db: Executor, workspaceId: number, type: FolderType, ids: readonly number[]): Promise<Folder[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('folders')
    .select(folderColumns)
    .where('id', 'in', [...ids])
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', type)
    .execute();
  return rows.map(toFolder);
}

/**
 * A folder of the type by id, or null. `lock` (PostgreSQL) holds it against deletion until the
 * transaction ends, so what is filed in it, or created under it, does not outlive it.
 */
export async function findFolder(db: Executor, workspaceId: number, type: FolderType, id: number, opts: { lock?: boolean } = {}): Promise<Folder | null> {
  let q = db.selectFrom('folders').select(folderColumns).where('id', '=', id).where('workspace_id', '=', workspaceId).where('type', '=', type);
  if (opts.lock && isPostgres(db)) q = q.forKeyShare();
  const row = await q.executeTakeFirst();
  return row ? toFolder(row) : null;
}

export async function insertFolder(db: Executor, workspaceId: number, type: FolderType, f: { name: string; parentId: number | null }): Promise<Folder> {
  const now = nowIso();
  const row = await db
    .insertInto('folders')
    .values({ workspace_id: workspaceId, type, parent_id: f.parentId, name: f.name, is_trash: bool(false), created_at: now, updated_at: now })
    .returning(folderColumns)
    .executeTakeFirstOrThrow();
  return toFolder(row);
}

/** Changes the given fields (and updatedAt); null when the workspace has no such folder of the type. */
export async function updateFolderRow(db: Executor, workspaceId: number, type: FolderType, id: number, f: { name?: string; isTrash?: boolean }): Promise<Folder | null> {
  const row = await db
    .updateTable('folders')
    .set({
      ...(f.name !== undefined ? { name: f.name } : {}),
      ...(f.isTrash !== undefined ? { is_trash: bool(f.isTrash) } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', type)
    .returning(folderColumns)
    .executeTakeFirst();
  return row ? toFolder(row) : null;
}

/**
 * The folder and every folder below it, at any depth, in one recursive statement; empty when the
 * workspace has no such folder of the type.
 */
export async function folderTree(db: Executor, workspaceId: number, type: FolderType, id: number): Promise<number[]> {
  const rows = await db
    .withRecursive('tree(id)', (qc) =>
      qc
        .selectFrom('folders')
        .select('id')
        .where('id', '=', id)
        .where('workspace_id', '=', workspaceId)
        .where('type', '=', type)
        .unionAll(qc.selectFrom('folders as f').innerJoin('tree', 'tree.id', 'f.parent_id').select('f.id').where('f.workspace_id', '=', workspaceId)),
    )
    .selectFrom('tree')
    .select('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

/** `column` is one of the ids, passed as one parameter whatever their number (an array, or JSON on SQLite). */
const amongIds = (db: Executor, column: string, ids: readonly number[], as: 'integer' | 'text'): Expression<SqlBool> => {
  if (isPostgres(db)) return sql<SqlBool>`${sql.ref(column)} = any(${as === 'integer' ? [...ids] : ids.map(String)}::${sql.raw(as === 'integer' ? 'int8' : 'text')}[])`;
  return sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(as === 'integer' ? ids : ids.map(String))}))`;
};

/**
 * Takes what is filed in these folders out of them (folder_id null), leaving it otherwise as it
 * was: sequences for sequence folders, comment automations (whose folder_id is text) for theirs.
 */
export async function unfileFromFolders(db: Executor, workspaceId: number, type: FolderType, folderIds: readonly number[]): Promise<void> {
  if (folderIds.length === 0) return;
  if (type === 'sequence') {
    await db.updateTable('sequences').set({ folder_id: null }).where('workspace_id', '=', workspaceId).where(amongIds(db, 'folder_id', folderIds, 'integer')).execute();
  } else {
    await db.updateTable('comment_automations').set({ folder_id: null }).where('workspace_id', '=', workspaceId).where(amongIds(db, 'folder_id', folderIds, 'text')).execute();
  }
}

/** Deletes these folders of the workspace (one statement); how many went. */
export async function deleteFolders(db: Executor, workspaceId: number, type: FolderType, folderIds: readonly number[]): Promise<number> {
  if (folderIds.length === 0) return 0;
  const result = await db.deleteFrom('folders').where('workspace_id', '=', workspaceId).where('type', '=', type).where(amongIds(db, 'id', folderIds, 'integer')).executeTakeFirst();
  return Number(result.numDeletedRows);
}
