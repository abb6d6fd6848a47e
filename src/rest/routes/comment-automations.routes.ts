import { netCommentOperations as net, photoCommentOperations as photo } from '../../domain/comment-automations/comment-automation.operations.js';
import { del, get, patch, post } from '../route.js';

type Created = { id: string };

/** Comment automations of both networks: the same operations, by channel. */
export const commentAutomationRoutes = [
  get('/v1/photo-comments', photo.list),
  get('/v1/net-comments', net.list),
  post('/v1/net-comments', net.create, { status: 201, location: (a: Created) => `/v1/net-comments/${a.id}` }),
  patch('/v1/photo-comments/{id}', photo.update),
  patch('/v1/net-comments/{id}', net.update),
  del('/v1/photo-comments/{id}', photo.delete),
  del('/v1/net-comments/{id}', net.delete),
  post('/v1/photo-comments', photo.create, { status: 201, location: (a: Created) => `/v1/photo-comments/${a.id}` }),
  get('/v1/photo-comments/{id}', photo.get),
  get('/v1/net-comments/{id}', net.get),
];
