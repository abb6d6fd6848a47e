import { z } from 'zod';
import { exampleContact } from '../../domain/contacts/contact.examples.js';
import { contactSchema, identifierParams } from '../../domain/contacts/contact.schema.js';
import {
  applyCustomFieldOperations,
  clearContactCustomField,
  clearContactCustomFields,
  findContactsByCustomField,
  getContactCustomField,
  listContactCustomFields,
  setContactCustomField,
  setContactCustomFields,
} from '../../domain/custom-fields/contact-custom-field.service.js';
import {
  contactCustomFieldIdParams,
  contactCustomFieldParams,
  customFieldOperationsInput,
  customFieldValueListSchema,
  customFieldValueSchema,
  findByCustomFieldQuery,
  setCustomFieldsInput,
  setCustomFieldValueInput,
} from '../../domain/custom-fields/custom-field.schema.js';
import { successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

/** A contact's custom-field values (issue contacts-api). Relation changes on a contact: scope `contacts`. */

const tag = 'Contacts';
const read = { action: 'read', scope: 'contacts' } as const;
const write = { action: 'write', scope: 'contacts' } as const;
const lookupErrors = [400, 401, 403, 404, 422, 429, 500];
const writeErrors = [400, 401, 403, 404, 413, 415, 422, 429, 500];

const orderCount = { id: '2', name: 'Order count', description: 'Orders placed so far', value: '3', type: 'number' };
const fullList = [
  { id: '1', name: 'Company', description: 'Where the contact works', value: 'Northwind Traders', type: 'shortText' },
  orderCount,
  { id: '3', name: 'Birthday', description: 'For the birthday coupon', value: '1991-02-11', type: 'date' },
  { id: '4', name: 'Wants SMS', description: 'Opted in to SMS updates', value: 'true', type: 'boolean' },
  { id: '5', name: 'Last question', description: 'Most recent question asked in chat', value: '', type: 'longText' },
];

export const contactCustomFieldRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/custom-fields',
    operationId: 'contacts.listCustomFields',
    summary: "Every custom field of the workspace with this contact's value",
    tag,
    access: read,
    params: identifierParams,
    response: { status: 200, description: 'Custom fields with values ("" when unset), by field id', schema: customFieldValueListSchema },
    errors: lookupErrors,
    examples: { params: { identifier: 'ava.garcia0@mail.example' }, response: { data: fullList } },
    handler: async ({ db, who, params }) => ({ data: await listContactCustomFields(db, who.workspaceId, params.identifier) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/custom-fields/{idOrName}',
    operationId: 'contacts.getCustomField',
    summary: "The contact's value of one custom field, by field id or name",
    tag,
    access: read,
    params: contactCustomFieldParams,
    response: { status: 200, description: 'The field with the contact\'s value ("" when unset)', schema: customFieldValueSchema },
    errors: lookupErrors,
    examples: { params: { identifier: 'id:41', idOrName: 'Order count' }, response: orderCount },
    handler: ({ db, who, params }) => getContactCustomField(db, who.workspaceId, params.identifier, params.idOrName),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/contacts/{identifier}/custom-fields/{idOrName}',
    operationId: 'contacts.setCustomField',
    summary: "Set the contact's value of one custom field",
    tag,
    access: write,
    params: contactCustomFieldParams,
    body: setCustomFieldValueInput,
    response: { status: 200, description: "The field with the contact's value as stored (canonical form)", schema: customFieldValueSchema },
    errors: writeErrors,
    examples: { params: { identifier: 'id:41', idOrName: '2' }, body: { value: 3.0 }, response: orderCount },
    handler: ({ db, who, params, body }) => setContactCustomField(db, who.workspaceId, params.identifier, params.idOrName, body.value, ['body', 'value']),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/{identifier}/custom-fields/{customFieldId}',
    operationId: 'contacts.setCustomFieldLegacy',
    summary: "Set the contact's value of one custom field (the older form of PUT, by field id)",
    tag,
    access: write,
    params: contactCustomFieldIdParams,
    body: setCustomFieldValueInput,
    response: { status: 200, description: "The field with the contact's value as stored (canonical form)", schema: customFieldValueSchema },
    errors: writeErrors,
    examples: { params: { identifier: 'id:41', customFieldId: '2' }, body: { value: '3' }, response: orderCount },
    handler: ({ db, who, params, body }) => setContactCustomField(db, who.workspaceId, params.identifier, params.customFieldId, body.value, ['body', 'value']),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/contacts/{identifier}/custom-fields/{idOrName}',
    operationId: 'contacts.clearCustomField',
    summary: "Clear the contact's value of one custom field",
    tag,
    access: { action: 'delete', scope: 'contacts' },
    params: contactCustomFieldParams,
    response: { status: 200, description: 'Cleared (also when there was no value)', schema: successSchema },
    errors: lookupErrors,
    examples: { params: { identifier: 'id:41', idOrName: 'Order count' }, response: { success: true } },
    handler: ({ db, who, params }) => clearContactCustomField(db, who.workspaceId, params.identifier, params.idOrName),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/contacts/{identifier}/custom-fields',
    operationId: 'contacts.applyCustomFieldOperations',
    summary: 'Set, clear and increment several custom-field values at once, all or nothing',
    tag,
    access: write,
    params: identifierParams,
    body: customFieldOperationsInput,
    response: { status: 200, description: "Every custom field with the contact's value afterwards", schema: customFieldValueListSchema },
    errors: writeErrors,
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
    handler: async ({ db, who, params, body }) => ({
      data: await applyCustomFieldOperations(db, who.workspaceId, params.identifier, body.operations, ['body', 'operations']),
    }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/contacts/{identifier}/custom-fields',
    operationId: 'contacts.setCustomFields',
    summary: 'Set several custom-field values by field id, all or nothing (the older form of PATCH)',
    tag,
    access: write,
    params: identifierParams,
    body: setCustomFieldsInput,
    response: { status: 200, description: 'Every value was set', schema: successSchema },
    errors: writeErrors,
    examples: {
      params: { identifier: 'id:41' },
      body: { fields: [{ customFieldId: '1', value: 'Northwind Traders' }, { customFieldId: '2', value: 3 }] },
      response: { success: true },
    },
    handler: async ({ db, who, params, body }) => {
      await setContactCustomFields(db, who.workspaceId, params.identifier, body.fields, ['body', 'fields']);
      return { success: true as const };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/contacts/{identifier}/custom-fields',
    operationId: 'contacts.clearCustomFields',
    summary: "Clear every custom-field value of the contact",
    tag,
    access: { action: 'delete', scope: 'contacts' },
    params: identifierParams,
    response: { status: 200, description: 'Cleared', schema: successSchema },
    errors: lookupErrors,
    examples: { params: { identifier: 'id:41' }, response: { success: true } },
    handler: ({ db, who, params }) => clearContactCustomFields(db, who.workspaceId, params.identifier),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/find-by-custom-field',
    operationId: 'contacts.findByCustomField',
    summary: "Contacts whose value of a custom field is exactly this one (in the field type's canonical form)",
    tag,
    access: read,
    query: findByCustomFieldQuery,
    response: {
      status: 200,
      description: 'One page of full contact objects, by contact id',
      schema: z.object({ data: z.array(contactSchema), pageCount: z.number().int() }).meta({ id: 'ContactsByCustomFieldPage' }),
    },
    errors: [400, 401, 403, 422, 429, 500],
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
    handler: ({ db, who, query }) =>
      findContactsByCustomField(db, who.workspaceId, { page: query.page, perPage: query.perPage, customFieldId: query.customFieldId, value: query.value }, ['query']),
  }),
];
