import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { createSequenceInput, sequencePageSchema, sequenceSchema, sequencesQuery, updateSequenceInput } from '../../domain/sequences/sequence.schema.js';
import { createSequence, deleteSequence, getSequence, listSequencesPage, updateSequence } from '../../domain/sequences/sequence.service.js';
import { defineRoute } from '../route.js';

const welcome = { id: '1', name: 'Welcome series', isActive: true, createdAt: '2026-11-23T10:15:00.000Z', updatedAt: '2026-11-23T10:15:00.000Z' };
const access = (action: 'read' | 'write' | 'delete') => ({ action, scope: 'sequences' as const });

/** Sequences (issue contacts-api): a name and an isActive flag; steps come later. */
export const sequenceRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/sequences',
    operationId: 'sequences.list',
    summary: "The workspace's sequences, in creation order",
    tag: 'Sequences',
    access: access('read'),
    query: sequencesQuery,
    response: { status: 200, description: 'A page of sequences', schema: sequencePageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: {
      query: { page: '1', perPage: '20' },
      response: { data: [welcome, { ...welcome, id: '2', name: 'Abandoned cart follow-up', isActive: false }], pageCount: 1 },
    },
    handler: ({ db, who, query }) => listSequencesPage(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/sequences',
    operationId: 'sequences.create',
    summary: 'Create a sequence (active unless isActive is false)',
    tag: 'Sequences',
    access: access('write'),
    body: createSequenceInput,
    response: { status: 200, description: 'The new sequence', schema: sequenceSchema },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    examples: { body: { name: 'Welcome series' }, response: welcome },
    handler: ({ db, who, body }) => createSequence(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/sequences/{id}',
    operationId: 'sequences.get',
    summary: 'One sequence',
    tag: 'Sequences',
    access: access('read'),
    params: idParams,
    response: { status: 200, description: 'The sequence', schema: sequenceSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '1' }, response: welcome },
    handler: ({ db, who, params }) => getSequence(db, who.workspaceId, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/sequences/{id}',
    operationId: 'sequences.update',
    summary: 'Rename a sequence or switch it on or off',
    tag: 'Sequences',
    access: access('write'),
    params: idParams,
    body: updateSequenceInput,
    response: { status: 200, description: 'The sequence as changed', schema: sequenceSchema },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: { params: { id: '1' }, body: { isActive: false }, response: { ...welcome, isActive: false, updatedAt: '2026-11-24T08:00:00.000Z' } },
    handler: ({ db, who, params, body }) => updateSequence(db, who.workspaceId, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/sequences/{id}',
    operationId: 'sequences.delete',
    summary: 'Delete a sequence and every subscription to it',
    tag: 'Sequences',
    access: access('delete'),
    params: idParams,
    response: { status: 200, description: 'Deleted', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '1' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteSequence(db, who.workspaceId, params.id),
  }),
];
