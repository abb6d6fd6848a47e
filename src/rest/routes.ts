import type { Route } from './route.js';
import { automationRoutes } from './routes/automations.routes.js';
import { contactRoutes } from './routes/contacts.routes.js';
import { conversationRoutes } from './routes/conversations.routes.js';
import { dynamicImageRoutes } from './routes/dynamic-images.routes.js';
import { errorLogRoutes } from './routes/error-logs.routes.js';
import { tagRoutes } from './routes/tags.routes.js';
import { workspaceRoutes } from './routes/workspaces.routes.js';

/** The /v1 route table, one module per resource area. */
export const routes: Route[] = [
  ...automationRoutes,
  ...contactRoutes,
  ...tagRoutes,
  ...dynamicImageRoutes,
  ...conversationRoutes,
  ...workspaceRoutes,
  ...errorLogRoutes,
];
