import { operation, operationsOf } from '../shared/operation.js';
import { exampleContactScalars, exampleTag } from './contact.examples.js';
import {
  contactCountQuery,
  contactCountSchema,
  contactListQuery,
  contactPageSchema,
  contactSearchBody,
  contactWindowQuery,
  filterFieldListSchema,
  filterValueLabelsBody,
  filterValueLabelsSchema,
} from './contact-filter.schema.js';
import { listFilterFields, resolveFilterValueLabels } from './contact-filter.service.js';
import { countContactsMatching, EXACT_PAGE_COUNT_UP_TO, listContactsPage, listContactsWindow, searchContacts } from './contact-search.service.js';

const read = { action: 'read', scope: 'contacts' } as const;

/** What a filtered page's pageCount promises (contact-search.service.ts, matchesOfPages). */
const pageCountRule = `pageCount is exact up to ${EXACT_PAGE_COUNT_UP_TO.toLocaleString('en')} matches; a larger count is remembered for 15 seconds for the same filter, so the next pages skip counting and may show a count up to 15 seconds old. Every match stays reachable.`;

/** Listing, counting and searching contacts, and what a search condition can name. */
export const contactSearchOperations = operationsOf('Contacts', {
  list: operation({
    id: 'contacts.list',
    summary: 'List contacts',
    description: `Contacts, newest first, filtered; \`include\` embeds relations. Without filters pageCount counts every contact; with them, ${pageCountRule}`,
    access: read,
    query: contactListQuery,
    output: contactPageSchema,
    outputDescription: 'One page of contacts',
    examples: {
      query: { page: '1', perPage: '20', keyword: 'ada', tagId: '1', inboxId: '1', createdAfter: '2026-01-01T00:00:00Z', createdBefore: '2027-01-01T00:00:00Z', include: 'tags' },
      response: { data: [{ ...exampleContactScalars, tags: [exampleTag] }], pageCount: 1 },
    },
    run: ({ db, who, query }) => listContactsPage(db, who.workspaceId, query),
  }),
  /** GraphQL's `contacts` connection: one keyset window of the list filters and the search tree. */
  connection: operation({
    id: 'contacts.connection',
    summary: 'Page through contacts',
    description:
      'Contacts, newest first (creation time, then id), one window at a time, with the filters of GET /v1/contacts and the search tree of POST /v1/contacts/search.',
    access: read,
    query: contactWindowQuery,
    run: ({ db, who, query }) => listContactsWindow(db, who.workspaceId, query),
  }),
  count: operation({
    id: 'contacts.count',
    summary: 'Count contacts',
    description: 'How many contacts the same filters as the list find.',
    access: read,
    query: contactCountQuery,
    output: contactCountSchema,
    outputDescription: 'The number of matching contacts',
    examples: { query: { keyword: 'ada', tagId: '1', inboxId: '1', createdAfter: '2026-11-01T00:00:00Z', createdBefore: '2027-01-01T00:00:00Z' }, response: { count: 128 } },
    run: ({ db, who, query }) => countContactsMatching(db, who.workspaceId, query),
  }),
  search: operation({
    id: 'contacts.search',
    summary: 'Search contacts',
    description: `Contacts matching a condition tree: and/or/not over fields, tags, custom fields and dates. ${pageCountRule}`,
    access: read,
    body: contactSearchBody,
    output: contactPageSchema,
    outputDescription: 'One page of matching contacts, newest first',
    examples: {
      body: {
        filter: {
          and: [
            { field: 'tags', operator: 'hasAny', value: ['1'] },
            { field: 'customField:2', operator: 'gte', value: 3 },
            { not: { field: 'email', operator: 'isEmpty' } },
          ],
        },
        page: 1,
        perPage: 20,
      },
      response: { data: [exampleContactScalars], pageCount: 1 },
    },
    run: ({ db, who, body, at }) => searchContacts(db, who.workspaceId, body, [...at.body, 'filter']),
  }),
  listFilterFields: operation({
    id: 'contacts.listFilterFields',
    summary: 'List filter fields',
    description: 'The fields a search condition can name, with their operators.',
    access: read,
    output: filterFieldListSchema,
    outputDescription: "The contact's fields, then the workspace's custom fields",
    examples: {
      response: {
        data: [
          { field: 'email', label: 'Email', kind: 'text', customFieldType: null, operators: ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'isEmpty', 'isNotEmpty'], options: null, indexed: true },
          { field: 'tags', label: 'Tags', kind: 'ids', customFieldType: null, operators: ['hasAny', 'hasAll', 'hasNone'], options: null, indexed: true },
          { field: 'customField:2', label: 'Order count', kind: 'number', customFieldType: 'number', operators: ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'isEmpty', 'isNotEmpty'], options: null, indexed: true },
        ],
      },
    },
    run: ({ db, who }) => listFilterFields(db, who.workspaceId),
    present: (fields) => ({ data: fields }),
  }),
  resolveFilterValueLabels: operation({
    id: 'contacts.resolveFilterValueLabels',
    summary: 'Label filter values',
    description: "Names of a saved filter's values: tag and inbox ids, options.",
    access: read,
    body: filterValueLabelsBody,
    output: filterValueLabelsSchema,
    outputDescription: 'Each value with its label (null when it has none)',
    examples: {
      body: { values: [{ field: 'tags', value: '1' }, { field: 'gender', value: 'female' }, { field: 'tags', value: '999' }] },
      response: {
        data: [
          { field: 'tags', value: '1', label: 'VIP' },
          { field: 'gender', value: 'female', label: 'Female' },
          { field: 'tags', value: '999', label: null },
        ],
      },
    },
    run: ({ db, who, body }) => resolveFilterValueLabels(db, who.workspaceId, body.values),
    present: (labels) => ({ data: labels }),
  }),
});
