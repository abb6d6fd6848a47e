import { tagOperations as tags } from '../../domain/tags/tag.operations.js';
import { del, get, post, put } from '../route.js';

export const tagRoutes = [
  get('/v1/tags', tags.list, { errors: [400, 404] }),
  post('/v1/tags', tags.create),
  get('/v1/tags/{idOrName}', tags.get),
  put('/v1/tags/{id}', tags.update),
  del('/v1/tags/{id}', tags.delete),
];
