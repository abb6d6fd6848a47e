import type { Route } from '../route.js';
import { commentAutomationRoutes } from './comment-automations.routes.js';
import { commentEventRoutes } from './comment-events.routes.js';
import { channelPostRoutes } from './channel-posts.routes.js';
import { leadAdRoutes } from './lead-ads.routes.js';
import { contactRoutes } from './contacts.routes.js';
import { contactTransferRoutes } from './contact-transfers.routes.js';
import { contactSearchRoutes } from './contact-search.routes.js';
import { contactCustomFieldRoutes } from './contact-custom-fields.routes.js';
import { contactTagRoutes } from './contact-tags.routes.js';
import { contactSequenceRoutes } from './contact-sequences.routes.js';
import { contactNoteRoutes } from './contact-notes.routes.js';
import { contactMessageRoutes } from './contact-messages.routes.js';
import { contactFlowRoutes } from './contact-flows.routes.js';
import { customFieldRoutes } from './custom-fields.routes.js';
import { sequenceRoutes } from './sequences.routes.js';
import { folderRoutes } from './folders.routes.js';
import { flowRoutes } from './flows.routes.js';
import { inboxRoutes } from './inboxes.routes.js';
import { tokenRoutes } from './token.routes.js';
import { conversationRoutes } from './conversations.routes.js';
import { dynamicImageRoutes } from './dynamic-images.routes.js';
import { errorLogRoutes } from './error-logs.routes.js';
import { outboxRoutes } from './outbox.routes.js';
import { devEventRoutes } from './dev-events.routes.js';
import { tagRoutes } from './tags.routes.js';
import { webhookRoutes } from './webhooks.routes.js';
import { workspaceRoutes } from './workspaces.routes.js';

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
  ...contactTransferRoutes,
  ...contactSearchRoutes,
  ...contactCustomFieldRoutes,
  ...contactTagRoutes,
  ...contactSequenceRoutes,
  ...contactNoteRoutes,
  ...contactMessageRoutes,
  ...contactFlowRoutes,
  ...customFieldRoutes,
  ...sequenceRoutes,
  ...folderRoutes,
  ...flowRoutes,
  ...inboxRoutes,
  ...tokenRoutes,
  ...tagRoutes,
  ...dynamicImageRoutes,
  ...conversationRoutes,
  ...workspaceRoutes,
  ...errorLogRoutes,
  ...outboxRoutes,
  ...devEventRoutes,
  ...webhookRoutes,
];
