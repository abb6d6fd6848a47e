import { fixtures, photoCommentBody } from './fixtures.js';
import type { TestApp } from './harness.js';

/**
 * The contract's eleven endpoints, each able to make a call that succeeds for a permitted token:
 * `prepare` inserts what the call needs into the workspace (a contact to read, a lead-ad
 * automation to delete, ...) and returns the request. Platform tests (authentication,
 * permissions, isolation, plan gates) drive every endpoint through this one table.
 */
export interface EndpointCall {
  method: string;
  path: string;
  body?: unknown;
  /** The status of a successful call. */
  ok: number;
}

export interface Endpoint {
  /** `METHOD /v1/path/{param}` as the contract names it. */
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The token scope the endpoint needs. */
  scope: string;
  /** Only workspace API tokens (developerAccessToken, tokenInSearchParams) may call it. */
  workspaceTokensOnly: boolean;
  prepare: (t: TestApp, workspaceId: number) => Promise<EndpointCall>;
}

let serial = 0;
const unique = () => `${process.pid}-${++serial}`;

export const endpoints: Endpoint[] = [
  {
    name: 'POST /v1/photo-comments',
    method: 'POST',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async () => ({ method: 'POST', path: '/v1/photo-comments', body: photoCommentBody(), ok: 201 }),
  },
  {
    name: 'POST /v1/contacts',
    method: 'POST',
    scope: 'contacts',
    workspaceTokensOnly: true,
    prepare: async () => ({ method: 'POST', path: '/v1/contacts', body: { email: `new-${unique()}@example.com`, firstName: 'Ada' }, ok: 200 }),
  },
  {
    name: 'GET /v1/tags',
    method: 'GET',
    scope: 'tags',
    workspaceTokensOnly: false,
    prepare: async () => ({ method: 'GET', path: '/v1/tags', ok: 200 }),
  },
  {
    name: 'GET /v1/net-comments/{id}',
    method: 'GET',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => ({ method: 'GET', path: `/v1/net-comments/${await fixtures(t.db, ws).commentAutomation('net', 'Page FAQ')}`, ok: 200 }),
  },
  {
    name: 'GET /v1/dynamic-images',
    method: 'GET',
    scope: 'dynamic_images',
    workspaceTokensOnly: false,
    prepare: async () => ({ method: 'GET', path: '/v1/dynamic-images', ok: 200 }),
  },
  {
    name: 'GET /v1/contacts/{identifier}/custom-fields',
    method: 'GET',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => ({ method: 'GET', path: `/v1/contacts/${await fixtures(t.db, ws).contact({ email: `c-${unique()}@example.com` })}/custom-fields`, ok: 200 }),
  },
  {
    name: 'GET /v1/contacts/{identifier}/sequences',
    method: 'GET',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => ({ method: 'GET', path: `/v1/contacts/${await fixtures(t.db, ws).contact({ email: `c-${unique()}@example.com` })}/sequences`, ok: 200 }),
  },
  {
    name: 'DELETE /v1/net-lead-ads/{id}',
    method: 'DELETE',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => ({ method: 'DELETE', path: `/v1/net-lead-ads/${await fixtures(t.db, ws).leadAd('Spring form')}`, ok: 200 }),
  },
  {
    name: 'POST /v1/conversations/{id}/unfollow',
    method: 'POST',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const f = fixtures(t.db, ws);
      const contactId = await f.contact({ email: `c-${unique()}@example.com` });
      return { method: 'POST', path: `/v1/conversations/${await f.conversation({ contactId })}/unfollow`, ok: 200 };
    },
  },
  {
    name: 'GET /v1/workspaces',
    method: 'GET',
    scope: 'workspace',
    workspaceTokensOnly: true,
    prepare: async () => ({ method: 'GET', path: '/v1/workspaces', ok: 200 }),
  },
  {
    name: 'GET /v1/error-logs',
    method: 'GET',
    scope: 'error_logs',
    workspaceTokensOnly: false,
    prepare: async () => ({ method: 'GET', path: '/v1/error-logs', ok: 200 }),
  },
];

/** The envelope of each platform error, as the contract's table words it. */
export const envelopes = {
  UNAUTHORIZED: { defined: true, code: 'UNAUTHORIZED', status: 401, message: 'Authentication required' },
  INVALID_CHATBOT_TOKEN: { defined: true, code: 'INVALID_CHATBOT_TOKEN', status: 401, message: 'Invalid or missing workspace API token' },
  FORBIDDEN: { defined: true, code: 'FORBIDDEN', status: 403, message: 'You do not have permission to perform this action' },
  trialExpired: { defined: true, code: 'trialExpired', status: 403, message: 'Trial expired' },
  macLimitReached: { defined: true, code: 'macLimitReached', status: 403, message: 'Monthly active contact limit reached' },
  notFound: { defined: true, code: 'notFound', status: 404, message: 'Resource not found' },
  tooManyRequests: { defined: true, code: 'tooManyRequests', status: 429, message: 'Too many requests' },
  INTERNAL_SERVER_ERROR: { defined: true, code: 'INTERNAL_SERVER_ERROR', status: 500, message: 'An unexpected error occurred' },
} as const;

export const forbidden = (data: Record<string, unknown>) => ({ ...envelopes.FORBIDDEN, data });

/** Rate limits out of the way, for tests about something else that make many calls. */
export const unlimited = { RATE_LIMIT_IP_POINTS: '1000000', RATE_LIMIT_WORKSPACE_POINTS: '1000000' };
