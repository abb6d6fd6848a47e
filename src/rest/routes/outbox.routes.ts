import { outboxOperations as outbox } from '../../domain/outbox/outbox.operations.js';
import { get } from '../route.js';

/** GET /v1/outbox: what the sandbox channel adapter recorded instead of sending. */
export const outboxRoutes = [get('/v1/outbox', outbox.list)];
