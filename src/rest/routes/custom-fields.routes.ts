import {
  createCustomFieldInput,
  customFieldIdOrNameParams,
  customFieldPageSchema,
  customFieldSchema,
  customFieldsQuery,
  updateCustomFieldInput,
} from '../../domain/custom-fields/custom-field.schema.js';
import { createCustomField, deleteCustomField, getCustomField, listCustomFieldsPage, updateCustomField } from '../../domain/custom-fields/custom-field.service.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

/** Custom field definitions (issue contacts-api). Scope `custom_fields`. */

const tag = 'Custom fields';
const read = { action: 'read', scope: 'custom_fields' } as const;

const plan = {
  id: '7',
  name: 'Plan',
  description: 'Subscription plan',
  type: 'select' as const,
  options: ['Free', 'Pro', 'Business'],
  createdAt: '2026-11-20T09:30:00.000Z',
  updatedAt: '2026-11-20T09:30:00.000Z',
};

export const customFieldRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/custom-fields',
    operationId: 'customFields.list',
    summary: "The workspace's custom fields, by name",
    tag,
    access: read,
    query: customFieldsQuery,
    response: { status: 200, description: 'One page of fields, sorted by name case-insensitively, ties by id', schema: customFieldPageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: {
      query: { page: '1', perPage: '20', type: 'select' },
      response: {
        data: [
          plan,
          { id: '9', name: 'Preferred channel', description: '', type: 'select', options: ['Email', 'SMS', 'Chat'], createdAt: '2026-11-21T14:05:00.000Z', updatedAt: '2026-11-21T14:05:00.000Z' },
        ],
        pageCount: 1,
      },
    },
    handler: ({ db, who, query }) => listCustomFieldsPage(db, who.workspaceId, { page: query.page, perPage: query.perPage, type: query.type }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/custom-fields',
    operationId: 'customFields.create',
    summary: 'Create a custom field',
    tag,
    access: { action: 'write', scope: 'custom_fields' },
    body: createCustomFieldInput,
    response: { status: 200, description: 'The new field', schema: customFieldSchema },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    examples: {
      body: { name: 'Plan', description: 'Subscription plan', type: 'select', options: ['Free', 'Pro', 'Business'] },
      response: plan,
    },
    handler: ({ db, who, body }) => createCustomField(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/custom-fields/{idOrName}',
    operationId: 'customFields.get',
    summary: 'One custom field, by id or by name',
    tag,
    access: read,
    params: customFieldIdOrNameParams,
    response: { status: 200, description: 'The field', schema: customFieldSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { idOrName: '7' }, response: plan },
    handler: ({ db, who, params }) => getCustomField(db, who.workspaceId, params.idOrName),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/custom-fields/{id}',
    operationId: 'customFields.update',
    summary: 'Change a custom field: name, description, type or options',
    tag,
    access: { action: 'write', scope: 'custom_fields' },
    params: idParams,
    body: updateCustomFieldInput,
    response: { status: 200, description: 'The field as stored', schema: customFieldSchema },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: {
      params: { id: '7' },
      body: { options: ['Free', 'Pro', 'Business', 'Enterprise'] },
      response: { ...plan, options: ['Free', 'Pro', 'Business', 'Enterprise'], updatedAt: '2026-11-23T08:00:00.000Z' },
    },
    handler: ({ db, who, params, body }) => updateCustomField(db, who.workspaceId, params.id, body, ['body']),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/custom-fields/{id}',
    operationId: 'customFields.delete',
    summary: "Delete a custom field and every contact's value of it",
    tag,
    access: { action: 'delete', scope: 'custom_fields' },
    params: idParams,
    response: { status: 200, description: 'Deleted; dynamic images that used the field no longer name it', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '7' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteCustomField(db, who.workspaceId, params.id),
  }),
];
