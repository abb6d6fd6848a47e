import type { Route } from '../route.js';

/** Custom field definitions (issue contacts-api). */
export const customFieldRoutes: Route[] = [];
