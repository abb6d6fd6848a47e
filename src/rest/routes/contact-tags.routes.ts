import type { Route } from '../route.js';

/** A contact's tags, and bulk tagging (issue contacts-api). */
export const contactTagRoutes: Route[] = [];
