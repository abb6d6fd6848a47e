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
  'sequences.create': (s) => ({ method: 'POST', path: '/v1/sequences', body: { name: `Drip ${++sequenceIndex}`, folderId: String(s.folders.sequence.top) } }),
  'sequences.get': (s) => ({ method: 'GET', path: `/v1/sequences/${s.sequences.onboarding}` }),
  'sequences.update': (s) => ({ method: 'PATCH', path: `/v1/sequences/${s.sequences.newsletter}`, body: { isActive: false } }),
  'sequences.delete': (s) => ({ method: 'DELETE', path: `/v1/sequences/${s.disposable.sequence}` }),
  'sequences.listSteps': (s) => ({ method: 'GET', path: `/v1/sequences/${s.sequences.onboarding}/steps` }),
  'sequences.upsertStep': (s) => ({
    method: 'PUT',
    path: `/v1/sequences/${s.sequences.newsletter}/steps`,
    body: { order: 0, delayUnit: 'hours', delayMinutes: 120, flowId: String(s.flows.welcome), sendTimeStart: '09:00', sendTimeEnd: '18:00', sendDays: ['mon', 'tue'] },
  }),
  'sequences.deleteStep': (s) => ({ method: 'DELETE', path: `/v1/sequences/${s.sequences.onboarding}/steps/${s.steps.disposable}` }),
  'sequences.listStepContacts': (s) => ({ method: 'GET', path: `/v1/sequences/${s.sequences.onboarding}/steps/${s.steps.kept}/contacts?eventType=message%3Asent&page=1&perPage=10` }),
  'contacts.sendFlow': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/flows`, body: { flowId: String(s.flows.welcome) } }),
  'contacts.subscribeSequences': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/sequences`, body: { sequenceIds: [String(s.sequences.newsletter)] } }),
  'contacts.unsubscribeSequences': (s) => ({ method: 'DELETE', path: `/v1/contacts/${s.contact}/sequences`, body: { sequenceIds: [String(s.sequences.newsletter)] } }),
  'contacts.setSequences': (s) => ({ method: 'PUT', path: `/v1/contacts/${s.contact}/sequences`, body: { sequenceIds: [String(s.sequences.onboarding)] } }),
  'contacts.bulkSubscribeSequences': (s) => ({
    method: 'POST',
    path: '/v1/contacts/bulk/sequences',
    body: { contactIds: [String(s.contact)], sequenceIds: [String(s.sequences.newsletter)] },
  }),
};
