import type { Route } from '../route.js';

/** A contact's sequence subscriptions, and bulk subscribing (issue contacts-api). */
export const contactSequenceRoutes: Route[] = [];
