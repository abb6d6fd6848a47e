/**
 * Token scopes: one per resource area. A token whose `scopes` is null may use every area; otherwise
 * each route and GraphQL field names the area it touches and the token must list it.
 */
export const scopes = [
  'contacts',
  'tags',
  'custom_fields',
  'sequences',
  'inboxes',
  'automations',
  'dynamic_images',
  'conversations',
  'workspace',
  'error_logs',
  'webhooks',
] as const;

export type Scope = (typeof scopes)[number];
