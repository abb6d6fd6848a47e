import { operation, operationsOf } from '../shared/operation.js';
import { idParams, successSchema } from '../shared/schemas.js';
import { createTagInput, tagIdOrNameParams, tagListSchema, tagSchema, updateTagInput } from './tag.schema.js';
import { createTag, deleteTag, getTag, listWorkspaceTags, updateTag } from './tag.service.js';

const vip = {
  id: '1',
  name: 'VIP',
  createdAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
  deletedAt: null,
  folderId: null,
  workspaceId: '1',
};

/** The workspace's tags. */
export const tagOperations = operationsOf('Tags', {
  list: operation({
    id: 'tags.list',
    summary: 'List tags',
    description: "The workspace's tags, sorted by name.",
    access: { action: 'read', scope: 'tags' },
    output: tagListSchema,
    outputDescription: 'All tags (not paginated)',
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
    run: ({ db, who }) => listWorkspaceTags(db, who.workspaceId),
    present: (tags) => ({ data: tags.map(({ id, name }) => ({ id, name })) }),
  }),
  create: operation({
    id: 'tags.create',
    summary: 'Create a tag',
    description: 'Names are unique among live tags, case-insensitively.',
    access: { action: 'write', scope: 'tags' },
    body: createTagInput,
    output: tagSchema,
    outputDescription: 'The new tag',
    examples: { body: { name: 'VIP' }, response: vip },
    run: ({ db, who, body }) => createTag(db, who.workspaceId, body),
  }),
  get: operation({
    id: 'tags.get',
    summary: 'Get a tag',
    description: 'One live tag by id, or by name (case-insensitive).',
    access: { action: 'read', scope: 'tags' },
    params: tagIdOrNameParams,
    output: tagSchema,
    outputDescription: 'The tag',
    examples: { params: { idOrName: 'vip' }, response: vip },
    run: ({ db, who, params }) => getTag(db, who.workspaceId, params.idOrName),
  }),
  update: operation({
    id: 'tags.update',
    summary: 'Rename a tag',
    access: { action: 'write', scope: 'tags' },
    params: idParams,
    body: updateTagInput,
    output: tagSchema,
    outputDescription: 'The renamed tag',
    examples: { params: { id: '1' }, body: { name: 'VIP customer' }, response: { ...vip, name: 'VIP customer', updatedAt: '2026-11-24T08:00:00.000Z' } },
    run: ({ db, who, params, body }) => updateTag(db, who.workspaceId, params.id, body),
  }),
  delete: operation({
    id: 'tags.delete',
    summary: 'Delete a tag',
    description: 'The tag leaves every list and contact, and its name is free again.',
    access: { action: 'delete', scope: 'tags' },
    params: idParams,
    output: successSchema,
    outputDescription: 'Deleted',
    examples: { params: { id: '1' }, response: { success: true } },
    run: ({ db, who, params }) => deleteTag(db, who.workspaceId, params.id),
  }),
});
