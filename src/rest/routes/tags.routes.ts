import { createTagInput, tagIdOrNameParams, tagListSchema, tagSchema, updateTagInput } from '../../domain/tags/tag.schema.js';
import { createTag, deleteTag, getTag, listWorkspaceTags, updateTag } from '../../domain/tags/tag.service.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

const vip = {
  id: '1',
  name: 'VIP',
  createdAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
  deletedAt: null,
  folderId: null,
  workspaceId: '1',
};

const writeErrors = [400, 401, 403, 404, 413, 415, 422, 429, 500];

export const tagRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/tags',
    operationId: 'tags.list',
    summary: "The workspace's tags, sorted by name",
    tag: 'Tags',
    access: { action: 'read', scope: 'tags' },
    response: { status: 200, description: 'All tags (not paginated)', schema: tagListSchema },
    errors: [400, 401, 403, 404, 429, 500],
    examples: {
      response: {
        data: [
          { id: '6', name: 'Abandoned cart' },
          { id: '3', name: 'Customer' },
          { id: '2', name: 'Lead' },
          { id: '1', name: 'VIP' },
        ],
      },
    },
    handler: async ({ db, who }) => ({ data: (await listWorkspaceTags(db, who.workspaceId)).map(({ id, name }) => ({ id, name })) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/tags',
    operationId: 'tags.create',
    summary: 'Create a tag (names are unique among live tags, case-insensitively)',
    tag: 'Tags',
    access: { action: 'write', scope: 'tags' },
    body: createTagInput,
    response: { status: 200, description: 'The new tag', schema: tagSchema },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    examples: { body: { name: 'VIP' }, response: vip },
    handler: ({ db, who, body }) => createTag(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/tags/{idOrName}',
    operationId: 'tags.get',
    summary: 'One live tag by id, or by name (case-insensitive)',
    tag: 'Tags',
    access: { action: 'read', scope: 'tags' },
    params: tagIdOrNameParams,
    response: { status: 200, description: 'The tag', schema: tagSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { idOrName: 'vip' }, response: vip },
    handler: ({ db, who, params }) => getTag(db, who.workspaceId, params.idOrName),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/tags/{id}',
    operationId: 'tags.update',
    summary: 'Rename a tag',
    tag: 'Tags',
    access: { action: 'write', scope: 'tags' },
    params: idParams,
    body: updateTagInput,
    response: { status: 200, description: 'The renamed tag', schema: tagSchema },
    errors: writeErrors,
    examples: {
      params: { id: '1' },
      body: { name: 'VIP customer' },
      response: { ...vip, name: 'VIP customer', updatedAt: '2026-11-24T08:00:00.000Z' },
    },
    handler: ({ db, who, params, body }) => updateTag(db, who.workspaceId, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/tags/{id}',
    operationId: 'tags.delete',
    summary: 'Delete a tag: it leaves every list and contact, and its name is free again',
    tag: 'Tags',
    access: { action: 'delete', scope: 'tags' },
    params: idParams,
    response: { status: 200, description: 'Deleted', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '1' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteTag(db, who.workspaceId, params.id),
  }),
];
