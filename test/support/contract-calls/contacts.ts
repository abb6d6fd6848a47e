import type { CallTable } from './seed.js';

let upsertIndex = 0;

/**
 * A contact's own record, notes and inboxes, the inboxes and the token. Writes leave the seeded
 * contact's email and phone number as they were (other areas' calls name it by them); deletes
 * point at rows seeded for them (spareContacts, disposableNote).
 */
export const contactCalls: CallTable = {
  'contacts.get': (s) => ({ method: 'GET', path: `/v1/contacts/${s.contact}` }),
  'contacts.update': (s) => ({ method: 'PATCH', path: `/v1/contacts/${s.contact}`, body: { firstName: 'Ada', city: 'London' } }),
  'contacts.updateLegacy': (s) => ({
    method: 'PUT',
    path: `/v1/contacts/${s.contact}`,
    body: { email: 'ada@example.com', phoneNumber: '+15550001', firstName: 'Ada', lastName: 'Lovelace' },
  }),
  // A digit identifier: the 404 check swaps it for an id no contact has (an id never creates).
  'contacts.upsert': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/upsert`, body: { lastName: `Lovelace ${++upsertIndex}` } }),
  'contacts.delete': (s) => ({ method: 'DELETE', path: `/v1/contacts/${s.spareContacts.delete}` }),
  'contacts.block': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/block` }),
  'contacts.unblock': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/unblock` }),
  'contacts.bulkDelete': (s) => ({ method: 'POST', path: '/v1/contacts/bulk/delete', body: { contactIds: [String(s.spareContacts.bulkDelete)] } }),
  'contacts.listInboxes': (s) => ({ method: 'GET', path: `/v1/contacts/${s.contact}/inboxes` }),
  'contacts.listNotes': (s) => ({ method: 'GET', path: `/v1/contacts/${s.contact}/notes?page=1&perPage=10` }),
  'contacts.createNote': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/notes`, body: { text: 'Prefers email' } }),
  'contacts.updateNote': (s) => ({ method: 'PUT', path: `/v1/contacts/${s.contact}/notes/${s.note}`, body: { text: 'Asked about pricing twice' } }),
  'contacts.deleteNote': (s) => ({ method: 'DELETE', path: `/v1/contacts/${s.contact}/notes/${s.disposableNote}` }),
  'inboxes.list': () => ({ method: 'GET', path: '/v1/inboxes?page=1&perPage=10&channel=chat' }),
  'inboxes.update': (s) => ({ method: 'PATCH', path: `/v1/inboxes/${s.inbox}`, body: { name: 'Support desk' } }),
  'inboxes.listChannels': () => ({ method: 'GET', path: '/v1/channels' }),
  'token.get': () => ({ method: 'GET', path: '/v1/token' }),
};
