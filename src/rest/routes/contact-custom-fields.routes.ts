import type { Route } from '../route.js';

/** A contact's custom-field values (issue contacts-api). */
export const contactCustomFieldRoutes: Route[] = [];
