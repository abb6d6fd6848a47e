import { sequenceOperations as sequences } from '../../domain/sequences/sequence.operations.js';
import { sequenceStepOperations as steps } from '../../domain/sequences/sequence-step.operations.js';
import { del, get, patch, post, put } from '../route.js';

/** Sequences. */
export const sequenceRoutes = [
  get('/v1/sequences', sequences.list),
  // An unknown folderId in the body is 404.
  post('/v1/sequences', sequences.create, { errors: [404] }),
  get('/v1/sequences/{id}', sequences.get),
  patch('/v1/sequences/{id}', sequences.update),
  del('/v1/sequences/{id}', sequences.delete),
  get('/v1/sequences/{id}/steps', steps.list),
  put('/v1/sequences/{id}/steps', steps.upsert),
  del('/v1/sequences/{id}/steps/{stepId}', steps.delete, { status: 204 }),
  get('/v1/sequences/{id}/steps/{stepId}/contacts', steps.listContacts),
];
