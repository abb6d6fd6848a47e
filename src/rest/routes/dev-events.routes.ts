import { devEventOperations as devEvents } from '../../domain/events/dev-event.operations.js';
import { post } from '../route.js';

/** POST /v1/dev/events: webhook entries injected with the workspace token. */
export const devEventRoutes = [post('/v1/dev/events', devEvents.inject, { status: 202 })];
