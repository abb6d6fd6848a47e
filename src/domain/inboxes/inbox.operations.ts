import { exampleInbox } from '../contacts/contact.examples.js';
import { operation, operationsOf } from '../shared/operation.js';
import { idParams } from '../shared/schemas.js';
import { channelListSchema, inboxListSchema, inboxSchema, listInboxesQuery, updateInboxInput } from './inbox.schema.js';
import { listChannels, listWorkspaceInboxes, updateWorkspaceInbox } from './inbox.service.js';

/** Inboxes and channels. */
export const inboxOperations = operationsOf('Inboxes', {
  list: operation({
    id: 'inboxes.list',
    summary: 'List inboxes',
    description: "The workspace's inboxes in creation order, optionally of one channel.",
    access: { action: 'read', scope: 'inboxes' },
    query: listInboxesQuery,
    output: inboxListSchema,
    outputDescription: 'One page of inboxes',
    examples: { query: { page: '1', perPage: '20', channel: 'chat' }, response: { data: [exampleInbox], pageCount: 1 } },
    run: ({ db, who, query }) => listWorkspaceInboxes(db, who.workspaceId, query),
  }),
  update: operation({
    id: 'inboxes.update',
    summary: 'Change an inbox',
    description: 'Renames an inbox or switches it on or off.',
    access: { action: 'write', scope: 'inboxes' },
    params: idParams,
    body: updateInboxInput,
    output: inboxSchema,
    outputDescription: 'The inbox as changed',
    examples: {
      params: { id: '3' },
      body: { name: 'Website chat (EU)', status: 'inactive' },
      response: { ...exampleInbox, name: 'Website chat (EU)', status: 'inactive', updatedAt: '2026-11-23T11:00:00.000Z' },
    },
    run: ({ db, who, params, body }) => updateWorkspaceInbox(db, who.workspaceId, params.id, body),
  }),
  listChannels: operation({
    id: 'inboxes.listChannels',
    summary: 'List channels',
    description: 'The channels the workspace has inboxes on, with inbox and contact counts.',
    access: { action: 'read', scope: 'inboxes' },
    output: channelListSchema,
    outputDescription: 'Channels by name',
    examples: {
      response: {
        data: [
          { channel: 'chat', inboxCount: 1, contactCount: 112 },
          { channel: 'net', inboxCount: 2, contactCount: 840 },
          { channel: 'photo', inboxCount: 1, contactCount: 1310 },
        ],
      },
    },
    run: ({ db, who }) => listChannels(db, who.workspaceId),
    present: (channels) => ({ data: channels }),
  }),
});
