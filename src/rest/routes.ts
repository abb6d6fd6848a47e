import type { Route } from './route.js';
import { commentAutomationRoutes } from './routes/comment-automations.routes.js';
import { commentEventRoutes } from './routes/comment-events.routes.js';
import { channelPostRoutes } from './routes/channel-posts.routes.js';
import { leadAdRoutes } from './routes/lead-ads.routes.js';
import { contactRoutes } from './routes/contacts.routes.js';
import { contactSearchRoutes } from './routes/contact-search.routes.js';
import { contactCustomFieldRoutes } from './routes/contact-custom-fields.routes.js';
import { contactTagRoutes } from './routes/contact-tags.routes.js';
import { contactSequenceRoutes } from './routes/contact-sequences.routes.js';
import { contactNoteRoutes } from './routes/contact-notes.routes.js';
import { contactMessageRoutes } from './routes/contact-messages.routes.js';
import { customFieldRoutes } from './routes/custom-fields.routes.js';
import { sequenceRoutes } from './routes/sequences.routes.js';
import { inboxRoutes } from './routes/inboxes.routes.js';
import { tokenRoutes } from './routes/token.routes.js';
import { conversationRoutes } from './routes/conversations.routes.js';
import { dynamicImageRoutes } from './routes/dynamic-images.routes.js';
import { errorLogRoutes } from './routes/error-logs.routes.js';
import { outboxRoutes } from './routes/outbox.routes.js';
import { devEventRoutes } from './routes/dev-events.routes.js';
import { tagRoutes } from './routes/tags.routes.js';
import { workspaceRoutes } from './routes/workspaces.routes.js';

/**
 * The /v1 route table, one module per resource area. Order does not matter: the router tries literal
 * segments before parameters (src/rest/router.ts).
 */
export const routes: Route[] = [
  ...commentAutomationRoutes,
  ...commentEventRoutes,
  ...channelPostRoutes,
  ...leadAdRoutes,
  ...contactRoutes,
  ...contactSearchRoutes,
  ...contactCustomFieldRoutes,
  ...contactTagRoutes,
  ...contactSequenceRoutes,
  ...contactNoteRoutes,
  ...contactMessageRoutes,
  ...customFieldRoutes,
  ...sequenceRoutes,
  ...inboxRoutes,
  ...tokenRoutes,
  ...tagRoutes,
  ...dynamicImageRoutes,
  ...conversationRoutes,
  ...workspaceRoutes,
  ...errorLogRoutes,
  ...outboxRoutes,
  ...devEventRoutes,
];
