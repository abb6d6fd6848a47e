import type { Route } from '../route.js';

/** Listing, counting and searching contacts (issue contacts-api). */
export const contactSearchRoutes: Route[] = [];
