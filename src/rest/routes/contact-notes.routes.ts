import type { Route } from '../route.js';

/** A contact's notes (issue contacts-api). */
export const contactNoteRoutes: Route[] = [];
