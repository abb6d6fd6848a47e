import type { CallTable } from './seed.js';

let tagIndex = 0;
let sequenceIndex = 0;

/**
 * Tags, sequences, and a contact's tags and sequences. Deletes point at rows seeded for them
 * (`disposable`), so every other call still finds the rows it names, whatever the order.
 */
export const tagSequenceCalls: CallTable = {
  'tags.create': () => ({ method: 'POST', path: '/v1/tags', body: { name: `Created ${++tagIndex}` } }),
  'tags.get': (s) => ({ method: 'GET', path: `/v1/tags/${s.tags.vip}` }),
  'tags.update': (s) => ({ method: 'PUT', path: `/v1/tags/${s.tags.lead}`, body: { name: `Lead ${++tagIndex}` } }),
  'tags.delete': (s) => ({ method: 'DELETE', path: `/v1/tags/${s.disposable.tag}` }),
  'contacts.listTags': (s) => ({ method: 'GET', path: `/v1/contacts/${s.contact}/tags` }),
  'contacts.addTags': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/tags`, body: { tagIds: [String(s.tags.lead)] } }),
  'contacts.removeTags': (s) => ({ method: 'DELETE', path: `/v1/contacts/${s.contact}/tags`, body: { tagIds: [String(s.tags.lead)] } }),
  'contacts.setTags': (s) => ({ method: 'PUT', path: `/v1/contacts/${s.contact}/tags`, body: { tagIds: [String(s.tags.vip)] } }),
  'contacts.addTagsByName': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/tags/by-name`, body: { names: ['vip', 'Newcomer'] } }),
  'contacts.bulkAddTags': (s) => ({ method: 'POST', path: '/v1/contacts/bulk/tags', body: { contactIds: [String(s.contact)], tagIds: [String(s.tags.lead)] } }),
  'sequences.list': () => ({ method: 'GET', path: '/v1/sequences?page=1&perPage=10' }),
  'sequences.create': () => ({ method: 'POST', path: '/v1/sequences', body: { name: `Drip ${++sequenceIndex}` } }),
  'sequences.get': (s) => ({ method: 'GET', path: `/v1/sequences/${s.sequences.onboarding}` }),
  'sequences.update': (s) => ({ method: 'PATCH', path: `/v1/sequences/${s.sequences.newsletter}`, body: { isActive: false } }),
  'sequences.delete': (s) => ({ method: 'DELETE', path: `/v1/sequences/${s.disposable.sequence}` }),
  'contacts.subscribeSequences': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/sequences`, body: { sequenceIds: [String(s.sequences.newsletter)] } }),
  'contacts.unsubscribeSequences': (s) => ({ method: 'DELETE', path: `/v1/contacts/${s.contact}/sequences`, body: { sequenceIds: [String(s.sequences.newsletter)] } }),
  'contacts.setSequences': (s) => ({ method: 'PUT', path: `/v1/contacts/${s.contact}/sequences`, body: { sequenceIds: [String(s.sequences.onboarding)] } }),
  'contacts.bulkSubscribeSequences': (s) => ({
    method: 'POST',
    path: '/v1/contacts/bulk/sequences',
    body: { contactIds: [String(s.contact)], sequenceIds: [String(s.sequences.newsletter)] },
  }),
};
