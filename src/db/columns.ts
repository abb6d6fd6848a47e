import type { ContactsTable, DynamicImagesTable, ErrorLogsTable } from './types.js';

/**
 * The columns of the searched tables, for selects that must not read everything: on PostgreSQL
 * these tables also hold `search_tokens` (a stored tsvector of several hundred bytes per row,
 * migration 2026_11_23_0006) that only the database's search reads; `select *` would ship it with
 * every row.
 */
export const contactColumns = [
  'id', 'workspace_id', 'avatar', 'phone_number', 'email', 'first_name', 'last_name', 'ref', 'country', 'state', 'city', 'location',
  'locale', 'timezone', 'gender', 'email_verified', 'email_opt_in', 'last_read_at', 'subscribed_at', 'broadcast_subscribed_at',
  'blocked_at', 'last_message_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof ContactsTable)[];

/** The columns of a contact listing (ContactListing in contact.schema.ts). */
export const contactListingColumns = [
  'id', 'workspace_id', 'avatar', 'phone_number', 'email', 'first_name', 'last_name', 'created_at', 'updated_at',
] as const satisfies readonly (typeof contactColumns)[number][];

export const errorLogColumns = ['id', 'workspace_id', 'contact_id', 'action', 'detail', 'http_code', 'created_at', 'updated_at'] as const satisfies readonly (keyof ErrorLogsTable)[];

export const dynamicImageColumns = [
  'id', 'workspace_id', 'name', 'custom_field_id', 'background_url', 'image_url', 'enabled', 'data', 'created_at', 'updated_at',
] as const satisfies readonly (keyof DynamicImagesTable)[];
