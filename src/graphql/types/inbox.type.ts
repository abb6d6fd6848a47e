import type { InboxRow, InboxTeamRow } from '../../domain/inboxes/inbox.repository.js';
import type { UserRecord } from '../../domain/users/user.repository.js';
import { builder } from '../builder.js';

export const InboxType = builder.objectRef<InboxRow>('Inbox').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    channel: t.exposeString('channel'),
    sourceId: t.exposeString('sourceId'),
    workspaceId: t.exposeID('workspaceId'),
    status: t.exposeString('status'),
  }),
});

export const InboxTeamType = builder.objectRef<InboxTeamRow>('InboxTeam').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    workspaceId: t.exposeID('workspaceId'),
    name: t.exposeString('name'),
  }),
});

export const UserType = builder.objectRef<UserRecord>('User').implement({
  description: 'A user (agent) of the workspace.',
  fields: (t) => ({
    id: t.id({ resolve: (u) => String(u.id) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    emailVerified: t.exposeBoolean('emailVerified'),
    image: t.exposeString('image', { nullable: true }),
    isAnonymous: t.exposeBoolean('isAnonymous'),
  }),
});
