import { z } from 'zod';
import type { Principal } from '../../domain/auth/principal.js';
import {
  contactNoteInput,
  contactNoteListSchema,
  contactNoteParams,
  contactNoteSchema,
  identifierParams,
} from '../../domain/contacts/contact.schema.js';
import { createContactNote, deleteContactNote, listContactNotes, updateContactNote } from '../../domain/contacts/contact-note.service.js';
import { pageQueryFields } from '../../domain/shared/pagination.js';
import { successSchema } from '../../domain/shared/schemas.js';
import { defineRoute, type Route } from '../route.js';

const lookupErrors = [400, 401, 403, 404, 422, 429, 500];
const writeErrors = [400, 401, 403, 404, 413, 415, 422, 429, 500];

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

/** A contact's notes (issue contacts-api). */
export const contactNoteRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/notes',
    operationId: 'contacts.listNotes',
    summary: "The contact's notes, newest first",
    tag: 'Contacts',
    access: { action: 'read', scope: 'contacts' },
    params: identifierParams,
    query: z.strictObject(pageQueryFields),
    response: { status: 200, description: 'One page of notes', schema: contactNoteListSchema },
    errors: lookupErrors,
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
    handler: ({ db, who, params, query }) => listContactNotes(db, who.workspaceId, params.identifier, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/{identifier}/notes',
    operationId: 'contacts.createNote',
    summary: 'Add a note to a contact (createdById: the user of a user access token, else null)',
    tag: 'Contacts',
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: contactNoteInput,
    response: { status: 200, description: 'The new note', schema: contactNoteSchema },
    errors: writeErrors,
    examples: { params: { identifier: '41' }, body: { text: 'Asked about volume pricing' }, response: exampleNote },
    handler: ({ db, who, params, body }) => createContactNote(db, who.workspaceId, params.identifier, body, authorOf(who)),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/contacts/{identifier}/notes/{noteId}',
    operationId: 'contacts.updateNote',
    summary: "Change a note's text",
    tag: 'Contacts',
    access: { action: 'write', scope: 'contacts' },
    params: contactNoteParams,
    body: contactNoteInput,
    response: { status: 200, description: 'The note as changed', schema: contactNoteSchema },
    errors: writeErrors,
    examples: {
      params: { identifier: '41', noteId: '12' },
      body: { text: 'Asked about volume pricing for 500 seats' },
      response: { ...exampleNote, text: 'Asked about volume pricing for 500 seats', updatedAt: '2026-11-23T11:30:00.000Z' },
    },
    handler: ({ db, who, params, body }) => updateContactNote(db, who.workspaceId, params.identifier, params.noteId, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/contacts/{identifier}/notes/{noteId}',
    operationId: 'contacts.deleteNote',
    summary: 'Delete a note',
    tag: 'Contacts',
    access: { action: 'delete', scope: 'contacts' },
    params: contactNoteParams,
    response: { status: 200, description: 'Deleted', schema: successSchema },
    errors: lookupErrors,
    examples: { params: { identifier: '41', noteId: '12' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteContactNote(db, who.workspaceId, params.identifier, params.noteId),
  }),
];
