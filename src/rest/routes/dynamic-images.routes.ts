import { dynamicImageOperations as images } from '../../domain/dynamic-images/dynamic-image.operations.js';
import { del, get, patch, post, put } from '../route.js';

/** Dynamic images. */
export const dynamicImageRoutes = [
  get('/v1/dynamic-images', images.list),
  post('/v1/dynamic-images', images.create, { status: 201, location: (i: { id: string }) => `/v1/dynamic-images/${i.id}` }),
  get('/v1/dynamic-images/{id}', images.get),
  put('/v1/dynamic-images/{id}', images.update),
  patch('/v1/dynamic-images/{id}/enabled', images.setEnabled),
  del('/v1/dynamic-images/{id}', images.delete),
  // 503 with Retry-After when every renderer is busy.
  get('/v1/dynamic-images/{id}/render', images.render, { errors: [503] }),
];
