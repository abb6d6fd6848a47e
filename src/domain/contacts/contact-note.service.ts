import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { countNotesOfContact, deleteNote, insertNote, notesByIds, notesOfContactPage, updateNoteText, type ContactNoteRecord } from './contact-note.repository.js';
import type { ContactNoteInput } from './contact.schema.js';
import { resolveContact } from './contact.service.js';

/** A contact's notes, newest first, a page at a time. */
export async function listContactNotes(db: Executor, workspaceId: number, identifier: string, page: PageRequest): Promise<Page<ContactNoteRecord>> {
  const contactId = Number((await resolveContact(db, workspaceId, identifier)).id);
  return fetchPage(
    page,
    () => countNotesOfContact(db, workspaceId, contactId),
    (window) => notesOfContactPage(db, workspaceId, contactId, window),
  );
}

/** `authorId`: the user of a user access token; null for workspace API tokens. */
export async function createContactNote(
  db: Executor,
  workspaceId: number,
  identifier: string,
  input: ContactNoteInput,
  authorId: number | null,
): Promise<ContactNoteRecord> {
  const contact = await resolveContact(db, workspaceId, identifier);
  return insertNote(db, workspaceId, { contactId: Number(contact.id), text: input.text, createdById: authorId });
}

/** A note of another contact (or none) is 404 notFound, as an unknown contact is. */
export async function updateContactNote(db: Executor, workspaceId: number, identifier: string, noteId: string, input: ContactNoteInput): Promise<ContactNoteRecord> {
  const contact = await resolveContact(db, workspaceId, identifier);
  const key = idNumber(noteId);
  if (key === null || !(await updateNoteText(db, workspaceId, Number(contact.id), key, input.text))) throw notFound('Note');
  const [note] = await notesByIds(db, workspaceId, [key]);
  if (!note) throw notFound('Note');
  return note;
}

export async function deleteContactNote(db: Executor, workspaceId: number, identifier: string, noteId: string): Promise<{ success: true }> {
  const contact = await resolveContact(db, workspaceId, identifier);
  const key = idNumber(noteId);
  if (key === null || !(await deleteNote(db, workspaceId, Number(contact.id), key))) throw notFound('Note');
  return { success: true };
}
