import { customFieldOperations as customFields } from '../../domain/custom-fields/custom-field.operations.js';
import { del, get, post, put } from '../route.js';

/** Custom field definitions. */
export const customFieldRoutes = [
  get('/v1/custom-fields', customFields.list),
  post('/v1/custom-fields', customFields.create),
  get('/v1/custom-fields/{idOrName}', customFields.get),
  put('/v1/custom-fields/{id}', customFields.update),
  del('/v1/custom-fields/{id}', customFields.delete),
];
