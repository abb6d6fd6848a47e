import type { ContactInboxRow, InboxRow, InboxTeamRow } from '../../domain/inboxes/inbox.repository.js';
import type { UserRecord } from '../../domain/users/user.repository.js';
import { builder } from '../builder.js';
import { nodeOptions, rawIdField } from '../node.js';

/**
 * Inboxes, teams and users have no root field: they are reached from conversations (and inboxes
 * from a contact's memberships). As Nodes they need the conversations scope.
 */
const read = { action: 'read', scope: 'conversations' } as const;

export const InboxType = builder.node(builder.objectRef<InboxRow>('Inbox'), {
  ...nodeOptions('Inbox', read, ({ loaders }) => loaders.inbox),
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    channel: t.exposeString('channel'),
    sourceId: t.exposeString('sourceId'),
    workspaceId: t.exposeID('workspaceId'),
    status: t.exposeString('status'),
  }),
});

export const InboxTeamType = builder.node(builder.objectRef<InboxTeamRow>('InboxTeam'), {
  ...nodeOptions('InboxTeam', read, ({ loaders }) => loaders.team),
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    workspaceId: t.exposeID('workspaceId'),
    name: t.exposeString('name'),
  }),
});

export const UserType = builder.node(builder.objectRef<UserRecord>('User'), {
  ...nodeOptions('User', read, ({ loaders }) => loaders.user),
  description: 'A user (agent) of the workspace.',
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    emailVerified: t.exposeBoolean('emailVerified'),
    image: t.exposeString('image', { nullable: true }),
    isAnonymous: t.exposeBoolean('isAnonymous'),
  }),
});

const readContacts = { action: 'read', scope: 'contacts' } as const;

export const ContactInboxType = builder.node(builder.objectRef<ContactInboxRow>('ContactInbox'), {
  ...nodeOptions('ContactInbox', readContacts, ({ loaders }) => loaders.contactInbox),
  fields: (t) => ({
    rawId: rawIdField(t),
    contactId: t.exposeID('contactId'),
    inboxId: t.exposeID('inboxId'),
    channel: t.exposeString('channel'),
    inbox: t.field({ type: InboxType, nullable: true, resolve: (m, _a, { loaders }) => loaders.inbox.load(Number(m.inboxId)) }),
  }),
});

