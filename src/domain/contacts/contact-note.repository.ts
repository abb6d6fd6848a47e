import type { Executor } from '../../db/database.js';
import { idString } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';

export interface ContactNoteRow {
  id: string;
  createdAt: string;
  updatedAt: string;
  text: string;
  contactId: string;
  createdById: string | null;
}

const toNote = (r: { id: number; created_at: string; updated_at: string; text: string; contact_id: number; created_by_id: number | null }): ContactNoteRow => ({
  id: idString(r.id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  text: r.text,
  contactId: idString(r.contact_id),
  createdById: r.created_by_id === null ? null : idString(r.created_by_id),
});

/** Notes of many contacts in one statement, oldest first. */
export async function notesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactNoteRow[]> {
  if (contactIds.length === 0) return [];
  // The author only when a user of the workspace: a note pointing at another workspace's user shows none.
  const rows = await db
    .selectFrom('contact_notes as n')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'n.created_by_id').on(sameWorkspace('u.workspace_id', workspaceId)))
    .select(['n.id', 'n.created_at', 'n.updated_at', 'n.text', 'n.contact_id', 'u.id as created_by_id'])
    .where(sameWorkspace('n.workspace_id', workspaceId))
    .where('n.contact_id', 'in', [...contactIds])
    .orderBy('n.created_at')
    .orderBy('n.id')
    .execute();
  return rows.map(toNote);
}

/** Notes by id in one statement; only this workspace's. */
export async function notesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ContactNoteRow[]> {
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
