import { sql } from 'kysely';
import { isPostgres, type Executor } from '../../db/database.js';
import { idString } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';

export interface TagRow {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  deletedAt: string | null;
  folderId: string | null;
  workspaceId: string;
}

export interface ContactTagRow extends TagRow {
  contactId: string;
}

const toTag = (r: { id: number; name: string; created_at: string; updated_at: string; deleted_at: string | null; folder_id: number | null; workspace_id: number }): TagRow => ({
  id: idString(r.id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  name: r.name,
  deletedAt: r.deleted_at,
  folderId: r.folder_id === null ? null : idString(r.folder_id),
  workspaceId: idString(r.workspace_id),
});

/**
 * Live tags of the workspace, by name (case-insensitive, ties by id). PostgreSQL compares with the
 * "C" collation so the order is code-point order on both engines, whatever the database's locale.
 */
export async function listTags(db: Executor, workspaceId: number): Promise<TagRow[]> {
  const rows = await db
    .selectFrom('tags')
    .select(['id', 'name', 'created_at', 'updated_at', 'deleted_at', 'folder_id', 'workspace_id'])
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .orderBy(isPostgres(db) ? sql`lower(name) collate "C"` : sql`lower(name)`)
    .orderBy('id')
    .execute();
  return rows.map(toTag);
}

/** Tags of many contacts in one statement. */
export async function tagsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactTagRow[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('contact_tags as ct')
    .innerJoin('tags as t', 't.id', 'ct.tag_id')
    .select(['t.id', 't.name', 't.created_at', 't.updated_at', 't.deleted_at', 't.folder_id', 't.workspace_id', 'ct.contact_id'])
    .where(sameWorkspace('ct.workspace_id', workspaceId))
    .where(sameWorkspace('t.workspace_id', workspaceId))
    .where('ct.contact_id', 'in', [...contactIds])
    .where('t.deleted_at', 'is', null)
    .orderBy('t.name')
    .execute();
  return rows.map((r) => ({ ...toTag(r), contactId: idString(r.contact_id) }));
}

/** Tags by id in one statement (deleted ones too: a record's id still names it); only this workspace's. */
export async function tagsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<TagRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('tags')
    .select(['id', 'name', 'created_at', 'updated_at', 'deleted_at', 'folder_id', 'workspace_id'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
  return rows.map(toTag);
}
