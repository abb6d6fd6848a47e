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

/** Notes of many contacts in one statement, oldest first. */
export async function notesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactNoteRow[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('contact_notes')
    .select(['id', 'created_at', 'updated_at', 'text', 'contact_id', 'created_by_id'])
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('contact_id', 'in', [...contactIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: idString(r.id),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    text: r.text,
    contactId: idString(r.contact_id),
    createdById: r.created_by_id === null ? null : idString(r.created_by_id),
  }));
}
