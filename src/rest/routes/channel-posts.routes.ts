import type { Route } from '../route.js';

/** The media and posts of the connected accounts (GET /v1/photo-comments/photo-media, /v1/net-comments/net-posts). */
export const channelPostRoutes: Route[] = [];
