import type { CallTable } from './seed.js';

let fieldIndex = 0;

/**
 * Custom field definitions and a contact's values. The delete points at a field seeded for it
 * (`disposableCustomField`); clears are harmless to repeat, so every other call still finds what it names.
 */
export const customFieldCalls: CallTable = {
  'customFields.list': () => ({ method: 'GET', path: '/v1/custom-fields?page=1&perPage=10&type=shortText' }),
  'customFields.create': () => ({ method: 'POST', path: '/v1/custom-fields', body: { name: `Created ${++fieldIndex}`, type: 'select', options: ['a', 'b'] } }),
  'customFields.get': (s) => ({ method: 'GET', path: `/v1/custom-fields/${s.customFields.plan}` }),
  'customFields.update': (s) => ({ method: 'PUT', path: `/v1/custom-fields/${s.customFields.plan}`, body: { description: 'Subscription plan' } }),
  'customFields.delete': (s) => ({ method: 'DELETE', path: `/v1/custom-fields/${s.disposableCustomField}` }),
  'contacts.getCustomField': (s) => ({ method: 'GET', path: `/v1/contacts/${s.contact}/custom-fields/Plan` }),
  'contacts.setCustomField': (s) => ({ method: 'PUT', path: `/v1/contacts/${s.contact}/custom-fields/${s.customFields.score}`, body: { value: 3.0 } }),
  'contacts.setCustomFieldLegacy': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/custom-fields/${s.customFields.plan}`, body: { value: 'gold' } }),
  'contacts.clearCustomField': (s) => ({ method: 'DELETE', path: `/v1/contacts/${s.contact}/custom-fields/${s.customFields.score}` }),
  'contacts.applyCustomFieldOperations': (s) => ({
    method: 'PATCH',
    path: `/v1/contacts/${s.contact}/custom-fields`,
    body: { operations: [{ op: 'increment', name: 'Score', value: 1 }, { op: 'set', customFieldId: String(s.customFields.plan), value: 'gold' }] },
  }),
  'contacts.setCustomFields': (s) => ({
    method: 'PUT',
    path: `/v1/contacts/${s.contact}/custom-fields`,
    body: { fields: [{ customFieldId: String(s.customFields.plan), value: 'gold' }, { customFieldId: s.customFields.score, value: 4 }] },
  }),
  'contacts.clearCustomFields': (s) => ({ method: 'DELETE', path: `/v1/contacts/${s.contact}/custom-fields` }),
  'contacts.findByCustomField': (s) => ({ method: 'GET', path: `/v1/contacts/find-by-custom-field?customFieldId=${s.customFields.plan}&value=gold&page=1&perPage=10` }),
};
