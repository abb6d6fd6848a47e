import type { Route } from '../route.js';

/** Sequences (issue contacts-api). */
export const sequenceRoutes: Route[] = [];
