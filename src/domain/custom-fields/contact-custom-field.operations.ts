import { exampleContact } from '../contacts/contact.examples.js';
import { loadFullContacts } from '../contacts/contact.service.js';
import { identifierParams } from '../contacts/contact.schema.js';
import { operation, operationsOf } from '../shared/operation.js';
import { successSchema } from '../shared/schemas.js';
import {
  applyCustomFieldOperations,
  clearContactCustomField,
  clearContactCustomFields,
  contactsByCustomFieldPage,
  getContactCustomField,
  listContactCustomFields,
  setContactCustomField,
  setContactCustomFields,
} from './contact-custom-field.service.js';
import {
  contactCustomFieldIdParams,
  contactCustomFieldParams,
  contactsByCustomFieldPageSchema,
  customFieldOperationsInput,
  customFieldValueListSchema,
  customFieldValueSchema,
  findByCustomFieldQuery,
  setCustomFieldsInput,
  setCustomFieldValueInput,
} from './custom-field.schema.js';

const orderCount = { id: '2', name: 'Order count', description: 'Orders placed so far', value: '3', type: 'number' };
const fullList = [
  { id: '1', name: 'Company', description: 'Where the contact works', value: 'Northwind Traders', type: 'shortText' },
  orderCount,
  { id: '3', name: 'Birthday', description: 'For the birthday coupon', value: '1991-02-11', type: 'date' },
  { id: '4', name: 'Wants SMS', description: 'Opted in to SMS updates', value: 'true', type: 'boolean' },
  { id: '5', name: 'Last question', description: 'Most recent question asked in chat', value: '', type: 'longText' },
];

/**
 * A contact's custom-field values: relation changes on a contact, scope
 * `contacts`. Values that do not fit their field are issues at the input part's path (`at`:
 * `['body', 'value']`, `['body', 'operations', 1, 'value']`, `['query', 'customFieldId']` on REST).
 */
export const contactCustomFieldOperations = operationsOf('Contacts', {
  list: operation({
    id: 'contacts.listCustomFields',
    summary: "List a contact's custom-field values",
    description: "Every custom field of the workspace with this contact's value.",
    access: { action: 'read', scope: 'contacts' },
    params: identifierParams,
    output: customFieldValueListSchema,
    outputDescription: 'Custom fields with values ("" when unset), by field id',
    examples: { params: { identifier: 'ava.garcia0@mail.example' }, response: { data: fullList } },
    run: ({ db, who, params }) => listContactCustomFields(db, who.workspaceId, params.identifier),
    present: (values) => ({ data: values }),
  }),
  get: operation({
    id: 'contacts.getCustomField',
    summary: "Get a contact's custom-field value",
    description: "The contact's value of one custom field, by field id or name.",
    access: { action: 'read', scope: 'contacts' },
    params: contactCustomFieldParams,
    output: customFieldValueSchema,
    outputDescription: 'The field with the contact\'s value ("" when unset)',
    examples: { params: { identifier: 'id:41', idOrName: 'Order count' }, response: orderCount },
    run: ({ db, who, params }) => getContactCustomField(db, who.workspaceId, params.identifier, params.idOrName),
  }),
  set: operation({
    id: 'contacts.setCustomField',
    summary: "Set a contact's custom-field value",
    description: "Sets the contact's value of one custom field.",
    access: { action: 'write', scope: 'contacts' },
    params: contactCustomFieldParams,
    body: setCustomFieldValueInput,
    output: customFieldValueSchema,
    outputDescription: "The field with the contact's value as stored (canonical form)",
    examples: { params: { identifier: 'id:41', idOrName: '2' }, body: { value: 3.0 }, response: orderCount },
    run: ({ db, who, params, body, at }) => setContactCustomField(db, who.workspaceId, params.identifier, params.idOrName, body.value, [...at.body, 'value']),
  }),
  setLegacy: operation({
    id: 'contacts.setCustomFieldLegacy',
    summary: 'Set a custom-field value by field id',
    description: "Sets the contact's value of one custom field: the older form of PUT, by field id.",
    access: { action: 'write', scope: 'contacts' },
    params: contactCustomFieldIdParams,
    body: setCustomFieldValueInput,
    output: customFieldValueSchema,
    outputDescription: "The field with the contact's value as stored (canonical form)",
    examples: { params: { identifier: 'id:41', customFieldId: '2' }, body: { value: '3' }, response: orderCount },
    run: ({ db, who, params, body, at }) => setContactCustomField(db, who.workspaceId, params.identifier, params.customFieldId, body.value, [...at.body, 'value']),
  }),
  clear: operation({
    id: 'contacts.clearCustomField',
    summary: "Clear a contact's custom-field value",
    description: "Clears the contact's value of one custom field.",
    access: { action: 'delete', scope: 'contacts' },
    params: contactCustomFieldParams,
    output: successSchema,
    outputDescription: 'Cleared (also when there was no value)',
    examples: { params: { identifier: 'id:41', idOrName: 'Order count' }, response: { success: true } },
    run: ({ db, who, params }) => clearContactCustomField(db, who.workspaceId, params.identifier, params.idOrName),
  }),
  applyOperations: operation({
    id: 'contacts.applyCustomFieldOperations',
    summary: "Change a contact's custom-field values",
    description: 'Sets, clears and increments several custom-field values at once, all or nothing.',
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: customFieldOperationsInput,
    output: customFieldValueListSchema,
    outputDescription: "Every custom field with the contact's value afterwards",
    examples: {
      params: { identifier: 'id:41' },
      body: {
        operations: [
          { op: 'set', name: 'Company', value: 'Northwind Traders' },
          { op: 'increment', customFieldId: '2', value: 1 },
          { op: 'set', name: 'Wants SMS', value: true },
          { op: 'clear', name: 'Last question' },
        ],
      },
      response: { data: fullList },
    },
    run: ({ db, who, params, body, at }) => applyCustomFieldOperations(db, who.workspaceId, params.identifier, body.operations, [...at.body, 'operations']),
    present: (values) => ({ data: values }),
  }),
  setMany: operation({
    id: 'contacts.setCustomFields',
    summary: 'Set several custom-field values',
    description: 'Sets several custom-field values by field id, all or nothing: the older form of PATCH.',
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: setCustomFieldsInput,
    output: successSchema,
    outputDescription: 'Every value was set',
    examples: {
      params: { identifier: 'id:41' },
      body: { fields: [{ customFieldId: '1', value: 'Northwind Traders' }, { customFieldId: '2', value: 3 }] },
      response: { success: true },
    },
    run: ({ db, who, params, body, at }) => setContactCustomFields(db, who.workspaceId, params.identifier, body.fields, [...at.body, 'fields']),
    present: () => ({ success: true as const }),
  }),
  clearAll: operation({
    id: 'contacts.clearCustomFields',
    summary: "Clear a contact's custom-field values",
    description: 'Clears every custom-field value of the contact.',
    access: { action: 'delete', scope: 'contacts' },
    params: identifierParams,
    output: successSchema,
    outputDescription: 'Cleared',
    examples: { params: { identifier: 'id:41' }, response: { success: true } },
    run: ({ db, who, params }) => clearContactCustomFields(db, who.workspaceId, params.identifier),
  }),
  find: operation({
    id: 'contacts.findByCustomField',
    summary: 'Find contacts by custom-field value',
    description: "Contacts whose value of a custom field is exactly this one, in the field type's canonical form.",
    access: { action: 'read', scope: 'contacts' },
    query: findByCustomFieldQuery,
    output: contactsByCustomFieldPageSchema,
    outputDescription: 'One page of full contact objects, by contact id',
    examples: {
      query: { customFieldId: '2', value: '3.0', page: '1', perPage: '20' },
      response: {
        data: [
          {
            ...exampleContact,
            contactCustomFields: [
              { id: '90', createdAt: '2026-11-23T10:16:00.000Z', updatedAt: '2026-11-23T10:16:00.000Z', value: '3', contactId: '41', customFieldId: '2' },
            ],
          },
        ],
        pageCount: 1,
      },
    },
    run: ({ db, who, query, at }) =>
      contactsByCustomFieldPage(db, who.workspaceId, { page: query.page, perPage: query.perPage, customFieldId: query.customFieldId, value: query.value }, at.query),
    // REST answers full contacts, GraphQL loads the relations a query selects.
    present: async (page, { db, who }) => ({ data: await loadFullContacts(db, who.workspaceId, page.data), pageCount: page.pageCount }),
  }),
});
