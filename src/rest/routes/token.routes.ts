import type { Route } from '../route.js';

/** The presented token (issue contacts-api). */
export const tokenRoutes: Route[] = [];
