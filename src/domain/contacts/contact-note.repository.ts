import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import { idString, nowIso } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import { inIds, prepared } from '../../db/prepared.js';

export interface ContactNoteRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  text: string;
  contactId: string;
  createdById: string | null;
}

const toNote = (r: { id: number; created_at: string; updated_at: string; text: string; contact_id: number; created_by_id: number | null }): ContactNoteRecord => ({
  id: idString(r.id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  text: r.text,
  contactId: idString(r.contact_id),
  createdById: r.created_by_id === null ? null : idString(r.created_by_id),
});

/** Notes of many contacts in one statement, oldest first. */
export async function notesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactNoteRecord[]> {
  if (contactIds.length === 0) return [];
  const rows = await notesOfContacts.all(db, { workspaceId, contactIds });
  return rows.map(toNote);
}

// The author only when a user of the workspace: a note pointing at another workspace's user shows none.
const notesOfContacts = prepared((db, p: { workspaceId: number; contactIds: readonly number[] }) =>
  db
    .selectFrom('contact_notes as n')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'n.created_by_id').on(sameWorkspace('u.workspace_id', p.workspaceId)))
    .select(['n.id', 'n.created_at', 'n.updated_at', 'n.text', 'n.contact_id', 'u.id as created_by_id'])
    .where(sameWorkspace('n.workspace_id', p.workspaceId))
    .where(inIds(db, 'n.contact_id', p.contactIds))
    .orderBy('n.created_at')
    .orderBy('n.id'),
);

/** Notes by id in one statement; only this workspace's. */
export async function notesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ContactNoteRecord[]> {
  if (ids.length === 0) return [];
  // As notesForContacts: the author only when a user of the workspace.
  const rows = await db
    .selectFrom('contact_notes as n')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'n.created_by_id').on(sameWorkspace('u.workspace_id', workspaceId)))
    .select(['n.id', 'n.created_at', 'n.updated_at', 'n.text', 'n.contact_id', 'u.id as created_by_id'])
    .where('n.workspace_id', '=', workspaceId)
    .where('n.id', 'in', [...ids])
    .execute();
  return rows.map(toNote);
}

export async function countNotesOfContact(db: Executor, workspaceId: number, contactId: number): Promise<number> {
  return countRows(db.selectFrom('contact_notes').where('workspace_id', '=', workspaceId).where('contact_id', '=', contactId));
}

/** One page of a contact's notes, newest first (creation time, then id): the (contact_id, created_at) index. */
export async function notesOfContactPage(
  db: Executor,
  workspaceId: number,
  contactId: number,
  window: { limit: number; offset: number },
): Promise<ContactNoteRecord[]> {
  const rows = await db
    .selectFrom('contact_notes as n')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'n.created_by_id').on(sameWorkspace('u.workspace_id', workspaceId)))
    .select(['n.id', 'n.created_at', 'n.updated_at', 'n.text', 'n.contact_id', 'u.id as created_by_id'])
    .where(sameWorkspace('n.workspace_id', workspaceId))
    .where('n.contact_id', '=', contactId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toNote);
}

/** `createdById` is a user of this workspace (the caller's user token) or null. */
export async function insertNote(
  db: Executor,
  workspaceId: number,
  n: { contactId: number; text: string; createdById: number | null },
): Promise<ContactNoteRecord> {
  const now = nowIso();
  const row = await db
    .insertInto('contact_notes')
    .values({ workspace_id: workspaceId, contact_id: n.contactId, text: n.text, created_by_id: n.createdById, created_at: now, updated_at: now })
    .returning(['id', 'created_at', 'updated_at', 'text', 'contact_id', 'created_by_id'])
    .executeTakeFirstOrThrow();
  return toNote(row);
}

/** Sets the text of one note of the contact; false when the contact has no such note. */
export async function updateNoteText(db: Executor, workspaceId: number, contactId: number, noteId: number, text: string): Promise<boolean> {
  const result = await db
    .updateTable('contact_notes')
    .set({ text, updated_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('contact_id', '=', contactId)
    .where('id', '=', noteId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes one note of the contact; false when the contact has no such note. */
export async function deleteNote(db: Executor, workspaceId: number, contactId: number, noteId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('contact_notes')
    .where('workspace_id', '=', workspaceId)
    .where('contact_id', '=', contactId)
    .where('id', '=', noteId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
