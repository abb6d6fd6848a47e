import type { Route } from '../route.js';

/** Inboxes and channels (issue contacts-api). */
export const inboxRoutes: Route[] = [];
