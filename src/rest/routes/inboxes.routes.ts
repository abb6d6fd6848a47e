import { inboxOperations as inboxes } from '../../domain/inboxes/inbox.operations.js';
import { get, patch } from '../route.js';

/** Inboxes and channels. */
export const inboxRoutes = [
  get('/v1/inboxes', inboxes.list),
  patch('/v1/inboxes/{id}', inboxes.update),
  get('/v1/channels', inboxes.listChannels, { errors: [400] }),
];
