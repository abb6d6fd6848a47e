import { sequenceOperations as sequences } from '../../domain/sequences/sequence.operations.js';
import { del, get, patch, post } from '../route.js';

/** Sequences. */
export const sequenceRoutes = [
  get('/v1/sequences', sequences.list),
  post('/v1/sequences', sequences.create),
  get('/v1/sequences/{id}', sequences.get),
  patch('/v1/sequences/{id}', sequences.update),
  del('/v1/sequences/{id}', sequences.delete),
];
