import type { Contact, ContactScalars } from './contact.schema.js';

/**
 * Records the route-table examples of several areas show (OpenAPI `examples`, /docs): one contact,
 * one inbox and one tag, so every operation that answers them shows the same record.
 */

export const exampleInbox = {
  id: '3',
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-01T09:00:00.000Z',
  name: 'Website chat',
  channel: 'chat',
  sourceId: 'web-widget-1',
  workspaceId: '1',
  status: 'active',
};

export const exampleTag = { id: '1', name: 'VIP', createdAt: '2026-11-01T09:00:00.000Z', updatedAt: '2026-11-01T09:00:00.000Z', deletedAt: null, folderId: null, workspaceId: '1' };

/** The contact's own fields, as a list item without `include` shows them. */
export const exampleContactScalars: ContactScalars = {
  id: '41',
  avatar: null,
  phoneNumber: '+14155550123',
  email: 'ada.lovelace@mail.example',
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullName: 'Ada Lovelace',
  ref: null,
  country: null,
  state: null,
  city: null,
  location: null,
  locale: null,
  timezone: null,
  workspaceId: '1',
  gender: 'unknown',
  emailVerified: false,
  emailOptIn: false,
  createdAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
  lastReadAt: null,
  subscribedAt: null,
  broadcastSubscribedAt: null,
  blockedAt: null,
};

/** A contact as every contact route answers it: the create response's shape. */
export const exampleContact: Contact = { ...exampleContactScalars, contactCustomFields: [], tags: [], contactNotes: [], contactInboxes: [] };
