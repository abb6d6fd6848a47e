import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { operation, operationsOf } from '../shared/operation.js';
import { pageQueryFields } from '../shared/pagination.js';
import { successSchema } from '../shared/schemas.js';
import { createContactNote, deleteContactNote, listContactNotes, updateContactNote } from './contact-note.service.js';
import { contactNoteInput, contactNoteListSchema, contactNoteParams, contactNoteSchema, identifierParams } from './contact.schema.js';

/** The author of a note: the user of a user access token; workspace API tokens write as nobody. */
const authorOf = (who: Principal) => (who.kind === 'user' ? who.userId : null);

const exampleNote = {
  id: '12',
  createdAt: '2026-11-23T10:40:00.000Z',
  updatedAt: '2026-11-23T10:40:00.000Z',
  text: 'Asked about volume pricing',
  contactId: '41',
  createdById: '5',
};

/** A contact's notes. */
export const contactNoteOperations = operationsOf('Contacts', {
  list: operation({
    id: 'contacts.listNotes',
    summary: "List a contact's notes",
    description: "The contact's notes, newest first.",
    access: { action: 'read', scope: 'contacts' },
    params: identifierParams,
    query: z.strictObject(pageQueryFields),
    output: contactNoteListSchema,
    outputDescription: 'One page of notes',
    examples: {
      params: { identifier: '41' },
      query: { page: '1', perPage: '20' },
      response: {
        data: [
          { ...exampleNote, id: '13', createdAt: '2026-11-23T11:00:00.000Z', updatedAt: '2026-11-23T11:00:00.000Z', text: 'Sent the quote', createdById: null },
          exampleNote,
        ],
        pageCount: 1,
      },
    },
    run: ({ db, who, params, query }) => listContactNotes(db, who.workspaceId, params.identifier, query),
  }),
  create: operation({
    id: 'contacts.createNote',
    summary: 'Add a note to a contact',
    description: "The note's createdById is the user of a user access token, else null.",
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: contactNoteInput,
    output: contactNoteSchema,
    outputDescription: 'The new note',
    examples: { params: { identifier: '41' }, body: { text: 'Asked about volume pricing' }, response: exampleNote },
    run: ({ db, who, params, body }) => createContactNote(db, who.workspaceId, params.identifier, body, authorOf(who)),
  }),
  update: operation({
    id: 'contacts.updateNote',
    summary: "Change a note's text",
    access: { action: 'write', scope: 'contacts' },
    params: contactNoteParams,
    body: contactNoteInput,
    output: contactNoteSchema,
    outputDescription: 'The note as changed',
    examples: {
      params: { identifier: '41', noteId: '12' },
      body: { text: 'Asked about volume pricing for 500 seats' },
      response: { ...exampleNote, text: 'Asked about volume pricing for 500 seats', updatedAt: '2026-11-23T11:30:00.000Z' },
    },
    run: ({ db, who, params, body }) => updateContactNote(db, who.workspaceId, params.identifier, params.noteId, body),
  }),
  delete: operation({
    id: 'contacts.deleteNote',
    summary: 'Delete a note',
    access: { action: 'delete', scope: 'contacts' },
    params: contactNoteParams,
    output: successSchema,
    outputDescription: 'Deleted',
    examples: { params: { identifier: '41', noteId: '12' }, response: { success: true } },
    run: ({ db, who, params }) => deleteContactNote(db, who.workspaceId, params.identifier, params.noteId),
  }),
});
