import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ContactFilesTable } from '../../db/types.js';
import { nowIso } from '../../db/values.js';

export type ContactFileRow = Selectable<ContactFilesTable>;

export async function insertContactFile(
  db: Executor,
  row: Pick<ContactFileRow, 'workspace_id' | 'kind' | 'file_name' | 'mime_type' | 'declared_size' | 'status' | 'request' | 'expires_at'>,
): Promise<ContactFileRow> {
  const now = nowIso();
  return db
    .insertInto('contact_files')
    .values({ ...row, size: null, delimiter: null, row_count: null, error_message: null, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A file of the workspace (of this kind), or null: another workspace's file is not there. */
export async function findContactFile(db: Executor, workspaceId: number, kind: ContactFileRow['kind'], id: number): Promise<ContactFileRow | null> {
  const row = await db.selectFrom('contact_files').selectAll().where('workspace_id', '=', workspaceId).where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** A file by id alone: for a signed address, whose signature then names the workspace. */
export async function findContactFileById(db: Executor, id: number): Promise<ContactFileRow | null> {
  return (await db.selectFrom('contact_files').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * Moves a file from one state to the next, only from `from` (an upload racing another, an export
 * job run twice): false when it was no longer in that state.
 */
export async function updateContactFile(
  db: Executor,
  id: number,
  from: readonly string[],
  set: Partial<Pick<ContactFileRow, 'status' | 'size' | 'delimiter' | 'row_count' | 'error_message'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('contact_files')
    .set({ ...set, updated_at: nowIso() })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A file whose bytes are gone: its record stays, `expired`, whatever state it was in. */
export async function markContactFileExpired(db: Executor, id: number): Promise<void> {
  await db.updateTable('contact_files').set({ status: 'expired', updated_at: nowIso() }).where('id', '=', id).execute();
}

/** Files whose time is up (their bytes are deleted, the row kept as `expired`), oldest first. */
export async function expiredContactFiles(db: Executor, now: string, limit: number): Promise<{ id: number }[]> {
  return db.selectFrom('contact_files').select('id').where('expires_at', '<=', now).where('status', '!=', 'expired').orderBy('expires_at').limit(limit).execute();
}
