import { channelListSchema, inboxListSchema, inboxSchema, listInboxesQuery, updateInboxInput } from '../../domain/inboxes/inbox.schema.js';
import { listChannels, listWorkspaceInboxes, updateWorkspaceInbox } from '../../domain/inboxes/inbox.service.js';
import { idParams } from '../../domain/shared/schemas.js';
import { defineRoute, type Route } from '../route.js';
import { exampleInbox } from '../../domain/contacts/contact.examples.js';


/** Inboxes and channels (issue contacts-api). */
export const inboxRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/inboxes',
    operationId: 'inboxes.list',
    summary: "The workspace's inboxes in creation order, optionally of one channel",
    tag: 'Inboxes',
    access: { action: 'read', scope: 'inboxes' },
    query: listInboxesQuery,
    response: { status: 200, description: 'One page of inboxes', schema: inboxListSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: { query: { page: '1', perPage: '20', channel: 'chat' }, response: { data: [exampleInbox], pageCount: 1 } },
    handler: ({ db, who, query }) => listWorkspaceInboxes(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/inboxes/{id}',
    operationId: 'inboxes.update',
    summary: 'Rename an inbox or switch it on or off',
    tag: 'Inboxes',
    access: { action: 'write', scope: 'inboxes' },
    params: idParams,
    body: updateInboxInput,
    response: { status: 200, description: 'The inbox as changed', schema: inboxSchema },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: {
      params: { id: '3' },
      body: { name: 'Website chat (EU)', status: 'inactive' },
      response: { ...exampleInbox, name: 'Website chat (EU)', status: 'inactive', updatedAt: '2026-11-23T11:00:00.000Z' },
    },
    handler: ({ db, who, params, body }) => updateWorkspaceInbox(db, who.workspaceId, params.id, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/channels',
    operationId: 'inboxes.listChannels',
    summary: 'The channels the workspace has inboxes on, with inbox and contact counts',
    tag: 'Inboxes',
    access: { action: 'read', scope: 'inboxes' },
    response: { status: 200, description: 'Channels by name', schema: channelListSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: {
      response: {
        data: [
          { channel: 'chat', inboxCount: 1, contactCount: 112 },
          { channel: 'net', inboxCount: 2, contactCount: 840 },
          { channel: 'photo', inboxCount: 1, contactCount: 1310 },
        ],
      },
    },
    handler: async ({ db, who }) => ({ data: await listChannels(db, who.workspaceId) }),
  }),
];
