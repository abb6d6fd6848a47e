import { contactNoteOperations as notes } from '../../domain/contacts/contact-note.operations.js';
import { del, get, post, put } from '../route.js';

/** A contact's notes. */
export const contactNoteRoutes = [
  get('/v1/contacts/{identifier}/notes', notes.list),
  post('/v1/contacts/{identifier}/notes', notes.create),
  put('/v1/contacts/{identifier}/notes/{noteId}', notes.update),
  del('/v1/contacts/{identifier}/notes/{noteId}', notes.delete),
];
