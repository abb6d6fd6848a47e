import { operation, operationsOf } from '../shared/operation.js';
import { idParams, successSchema } from '../shared/schemas.js';
import { createSequenceInput, sequencePageSchema, sequenceSchema, sequencesQuery, updateSequenceInput } from './sequence.schema.js';
import { createSequence, deleteSequence, getSequence, listSequencesPage, updateSequence } from './sequence.service.js';

const welcome = { id: '1', name: 'Welcome series', isActive: true, folderId: '3', createdAt: '2026-11-23T10:15:00.000Z', updatedAt: '2026-11-23T10:15:00.000Z' };

/** Sequences: a name, an isActive flag and the folder they are filed in. */
export const sequenceOperations = operationsOf('Sequences', {
  list: operation({
    id: 'sequences.list',
    summary: 'List sequences',
    description: "The workspace's sequences, in creation order.",
    access: { action: 'read', scope: 'sequences' },
    query: sequencesQuery,
    output: sequencePageSchema,
    outputDescription: 'A page of sequences',
    examples: {
      query: { page: '1', perPage: '20' },
      response: { data: [welcome, { ...welcome, id: '2', name: 'Abandoned cart follow-up', isActive: false, folderId: null }], pageCount: 1 },
    },
    run: ({ db, who, query }) => listSequencesPage(db, who.workspaceId, { page: query.page, perPage: query.perPage }),
  }),
  create: operation({
    id: 'sequences.create',
    summary: 'Create a sequence',
    description: 'The sequence is active unless isActive is false; folderId files it in a sequence folder (404 when the workspace has no such folder).',
    access: { action: 'write', scope: 'sequences' },
    body: createSequenceInput,
    output: sequenceSchema,
    outputDescription: 'The new sequence',
    examples: { body: { name: 'Welcome series', folderId: '3' }, response: welcome },
    run: ({ db, who, body }) => createSequence(db, who.workspaceId, body),
  }),
  get: operation({
    id: 'sequences.get',
    summary: 'Get a sequence',
    access: { action: 'read', scope: 'sequences' },
    params: idParams,
    output: sequenceSchema,
    outputDescription: 'The sequence',
    examples: { params: { id: '1' }, response: welcome },
    run: ({ db, who, params }) => getSequence(db, who.workspaceId, params.id),
  }),
  update: operation({
    id: 'sequences.update',
    summary: 'Change a sequence',
    description: 'Renames it, switches it on or off, or files it in a sequence folder (folderId; null takes it out of its folder, an unknown folder is 404).',
    access: { action: 'write', scope: 'sequences' },
    params: idParams,
    body: updateSequenceInput,
    output: sequenceSchema,
    outputDescription: 'The sequence as changed',
    examples: { params: { id: '1' }, body: { isActive: false, folderId: null }, response: { ...welcome, isActive: false, folderId: null, updatedAt: '2026-11-24T08:00:00.000Z' } },
    run: ({ db, who, queue, params, body }) => updateSequence(db, queue, who.workspaceId, params.id, body),
  }),
  delete: operation({
    id: 'sequences.delete',
    summary: 'Delete a sequence',
    description: 'Deletes the sequence and every subscription to it.',
    access: { action: 'delete', scope: 'sequences' },
    params: idParams,
    output: successSchema,
    outputDescription: 'Deleted',
    examples: { params: { id: '1' }, response: { success: true } },
    run: ({ db, who, params }) => deleteSequence(db, who.workspaceId, params.id),
  }),
});
