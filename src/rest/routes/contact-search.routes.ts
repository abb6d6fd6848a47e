import { z } from 'zod';
import {
  contactCountQuery,
  contactCountSchema,
  contactListQuery,
  contactSearchBody,
  filterFieldListSchema,
  filterValueLabelsBody,
  filterValueLabelsSchema,
} from '../../domain/contacts/contact-filter.schema.js';
import { listFilterFields, resolveFilterValueLabels } from '../../domain/contacts/contact-filter.service.js';
import { countContactsMatching, listContactsPage, searchContacts } from '../../domain/contacts/contact-search.service.js';
import { contactCustomFieldSchema, contactInboxSchema, contactScalarsSchema, contactTagSchema } from '../../domain/contacts/contact.schema.js';
import { conversationScalarsSchema } from '../../domain/conversations/conversation.schema.js';
import { defineRoute } from '../route.js';
import { exampleContactScalars, exampleTag } from '../../domain/contacts/contact.examples.js';

/** A listed contact: its own fields, plus the relations `include` asked for (absent otherwise). */
const contactListItemSchema = contactScalarsSchema
  .extend({
    tags: z.array(contactTagSchema).optional(),
    contactCustomFields: z.array(contactCustomFieldSchema).optional(),
    contactInboxes: z.array(contactInboxSchema).optional(),
    conversations: z.array(conversationScalarsSchema).optional(),
  })
  .meta({ id: 'ContactListItem' });
const contactPageSchema = z.object({ data: z.array(contactListItemSchema), pageCount: z.number().int() }).meta({ id: 'ContactPage' });

const read = { action: 'read', scope: 'contacts' } as const;


export const contactSearchRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/contacts',
    operationId: 'contacts.list',
    summary: 'Contacts, newest first, filtered; `include` embeds relations',
    tag: 'Contacts',
    access: read,
    query: contactListQuery,
    response: { status: 200, description: 'One page of contacts', schema: contactPageSchema },
    errors: [401, 403, 422, 429, 500],
    examples: {
      query: { page: '1', perPage: '20', keyword: 'ada', tagId: '1', inboxId: '1', createdAfter: '2026-01-01T00:00:00Z', createdBefore: '2027-01-01T00:00:00Z', include: 'tags' },
      response: { data: [{ ...exampleContactScalars, tags: [exampleTag] }], pageCount: 1 },
    },
    handler: ({ db, who, query }) => listContactsPage(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/count',
    operationId: 'contacts.count',
    summary: 'How many contacts the same filters as the list find',
    tag: 'Contacts',
    access: read,
    query: contactCountQuery,
    response: { status: 200, description: 'The number of matching contacts', schema: contactCountSchema },
    errors: [401, 403, 422, 429, 500],
    examples: { query: { keyword: 'ada', tagId: '1', inboxId: '1', createdAfter: '2026-11-01T00:00:00Z', createdBefore: '2027-01-01T00:00:00Z' }, response: { count: 128 } },
    handler: ({ db, who, query }) => countContactsMatching(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/search',
    operationId: 'contacts.search',
    summary: 'Contacts matching a condition tree (and/or/not over fields, tags, custom fields, dates)',
    tag: 'Contacts',
    access: read,
    body: contactSearchBody,
    response: { status: 200, description: 'One page of matching contacts, newest first', schema: contactPageSchema },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
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
    handler: ({ db, who, body }) => searchContacts(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/filter-fields',
    operationId: 'contacts.listFilterFields',
    summary: 'The fields a search condition can name, with their operators',
    tag: 'Contacts',
    access: read,
    response: { status: 200, description: "The contact's fields, then the workspace's custom fields", schema: filterFieldListSchema },
    errors: [401, 403, 429, 500],
    examples: {
      response: {
        data: [
          { field: 'email', label: 'Email', kind: 'text', customFieldType: null, operators: ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'isEmpty', 'isNotEmpty'], options: null, indexed: true },
          { field: 'tags', label: 'Tags', kind: 'ids', customFieldType: null, operators: ['hasAny', 'hasAll', 'hasNone'], options: null, indexed: true },
          { field: 'customField:2', label: 'Order count', kind: 'number', customFieldType: 'number', operators: ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'isEmpty', 'isNotEmpty'], options: null, indexed: true },
        ],
      },
    },
    handler: async ({ db, who }) => ({ data: await listFilterFields(db, who.workspaceId) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/filter-value-labels',
    operationId: 'contacts.resolveFilterValueLabels',
    summary: "Names of a saved filter's values (tag and inbox ids, options)",
    tag: 'Contacts',
    access: read,
    body: filterValueLabelsBody,
    response: { status: 200, description: 'Each value with its label (null when it has none)', schema: filterValueLabelsSchema },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
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
    handler: async ({ db, who, body }) => ({ data: await resolveFilterValueLabels(db, who.workspaceId, body.values) }),
  }),
];
