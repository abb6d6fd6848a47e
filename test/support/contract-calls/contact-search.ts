import type { CallTable } from './seed.js';

/** Listing, counting and searching contacts. */
export const contactSearchCalls: CallTable = {
  'contacts.list': (s) => ({ method: 'GET', path: `/v1/contacts?tagId=${s.tags.vip}&include=tags,customFields,inboxes,conversations` }),
  'contacts.count': (s) => ({ method: 'GET', path: `/v1/contacts/count?tagId=${s.tags.vip}` }),
  'contacts.search': (s) => ({
    method: 'POST',
    path: '/v1/contacts/search',
    body: { filter: { and: [{ field: 'tags', operator: 'hasAny', value: [String(s.tags.vip)] }, { field: `customField:${s.customFields.plan}`, operator: 'equals', value: 'gold' }] } },
  }),
  'contacts.listFilterFields': () => ({ method: 'GET', path: '/v1/contacts/filter-fields' }),
  'contacts.resolveFilterValueLabels': (s) => ({ method: 'POST', path: '/v1/contacts/filter-value-labels', body: { values: [{ field: 'tags', value: String(s.tags.vip) }] } }),
};
