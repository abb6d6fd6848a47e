import { commentEventOperations as events } from '../../domain/comment-events/comment-event.operations.js';
import { get } from '../route.js';

/** What an automation did with each comment it saw. */
export const commentEventRoutes = [get('/v1/photo-comments/{id}/events', events.photo.list), get('/v1/net-comments/{id}/events', events.net.list)];
