import { contactOperations as contacts } from '../../domain/contacts/contact.operations.js';
import { del, get, patch, post, put } from '../route.js';

export const contactRoutes = [
  post('/v1/contacts', contacts.create, { errors: [404] }),
  get('/v1/contacts/{identifier}', contacts.get),
  patch('/v1/contacts/{identifier}', contacts.update),
  put('/v1/contacts/{identifier}', contacts.replace),
  post('/v1/contacts/{identifier}/upsert', contacts.upsert),
  del('/v1/contacts/{identifier}', contacts.delete),
  post('/v1/contacts/{identifier}/block', contacts.block),
  post('/v1/contacts/{identifier}/unblock', contacts.unblock),
  post('/v1/contacts/bulk/delete', contacts.bulkDelete, { errors: [404] }),
  get('/v1/contacts/{identifier}/inboxes', contacts.listInboxes),
];
