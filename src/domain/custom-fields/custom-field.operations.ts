import { operation, operationsOf } from '../shared/operation.js';
import { idParams, successSchema } from '../shared/schemas.js';
import {
  createCustomFieldInput,
  customFieldIdOrNameParams,
  customFieldPageSchema,
  customFieldSchema,
  customFieldsQuery,
  updateCustomFieldInput,
} from './custom-field.schema.js';
import { createCustomField, deleteCustomField, getCustomField, listCustomFieldsPage, updateCustomField } from './custom-field.service.js';

const plan = {
  id: '7',
  name: 'Plan',
  description: 'Subscription plan',
  type: 'select' as const,
  options: ['Free', 'Pro', 'Business'],
  createdAt: '2026-11-20T09:30:00.000Z',
  updatedAt: '2026-11-20T09:30:00.000Z',
};

/**
 * Custom field definitions, scope `custom_fields`. Issues the service finds in
 * an input are reported at the input part's path (`at`: `['body', 'options']` on REST).
 */
export const customFieldOperations = operationsOf('Custom fields', {
  list: operation({
    id: 'customFields.list',
    summary: 'List custom fields',
    description: "The workspace's custom fields, by name.",
    access: { action: 'read', scope: 'custom_fields' },
    query: customFieldsQuery,
    output: customFieldPageSchema,
    outputDescription: 'One page of fields, sorted by name case-insensitively, ties by id',
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
    run: ({ db, who, query }) => listCustomFieldsPage(db, who.workspaceId, { page: query.page, perPage: query.perPage, type: query.type }),
  }),
  create: operation({
    id: 'customFields.create',
    summary: 'Create a custom field',
    access: { action: 'write', scope: 'custom_fields' },
    body: createCustomFieldInput,
    output: customFieldSchema,
    outputDescription: 'The new field',
    examples: {
      body: { name: 'Plan', description: 'Subscription plan', type: 'select', options: ['Free', 'Pro', 'Business'] },
      response: plan,
    },
    run: ({ db, who, body }) => createCustomField(db, who.workspaceId, body),
  }),
  get: operation({
    id: 'customFields.get',
    summary: 'Get a custom field',
    description: 'One custom field, by id or by name.',
    access: { action: 'read', scope: 'custom_fields' },
    params: customFieldIdOrNameParams,
    output: customFieldSchema,
    outputDescription: 'The field',
    examples: { params: { idOrName: '7' }, response: plan },
    run: ({ db, who, params }) => getCustomField(db, who.workspaceId, params.idOrName),
  }),
  update: operation({
    id: 'customFields.update',
    summary: 'Change a custom field',
    description: 'Changes its name, description, type or options.',
    access: { action: 'write', scope: 'custom_fields' },
    params: idParams,
    body: updateCustomFieldInput,
    output: customFieldSchema,
    outputDescription: 'The field as stored',
    examples: {
      params: { id: '7' },
      body: { options: ['Free', 'Pro', 'Business', 'Enterprise'] },
      response: { ...plan, options: ['Free', 'Pro', 'Business', 'Enterprise'], updatedAt: '2026-11-23T08:00:00.000Z' },
    },
    run: ({ db, who, params, body, at }) => updateCustomField(db, who.workspaceId, params.id, body, at.body),
  }),
  delete: operation({
    id: 'customFields.delete',
    summary: 'Delete a custom field',
    description: "Deletes the field and every contact's value of it.",
    access: { action: 'delete', scope: 'custom_fields' },
    params: idParams,
    output: successSchema,
    outputDescription: 'Deleted; dynamic images that used the field no longer name it',
    examples: { params: { id: '7' }, response: { success: true } },
    run: ({ db, who, params }) => deleteCustomField(db, who.workspaceId, params.id),
  }),
});
