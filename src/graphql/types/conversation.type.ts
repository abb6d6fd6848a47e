import { z } from 'zod';
import { listConversations } from '../../domain/conversations/conversation.repository.js';
import { getConversation, setConversationFollowed } from '../../domain/conversations/conversation.service.js';
import { builder, SuccessType } from '../builder.js';
import { connectionArgs, connectionComplexity, DEFAULT_FIRST, keysetConnection, MAX_FIRST } from '../connection.js';
import { byId } from '../cursor.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { InboxTeamType, InboxType, UserType } from './inbox.type.js';
import { ContactRef, ConversationRef } from './refs.js';

builder.node(ConversationRef, {
  ...nodeOptions('Conversation', { action: 'read', scope: 'conversations' }, ({ loaders }) => loaders.conversation),
  description: 'A conversation with a contact; the assignee, team, inbox and contact load through per-request DataLoaders.',
  fields: (t) => {
    const when = (name: 'botResumeAt' | 'archivedAt' | 'contactLastReadAt' | 'agentLastReadAt' | 'lastActivityAt' | 'adminRepliedAt' | 'contactRepliedAt') =>
      t.expose(name, { type: 'DateTime', nullable: true });
    return {
      rawId: rawIdField(t),
      workspaceId: t.exposeID('workspaceId'),
      contactId: t.exposeID('contactId'),
      inboxId: t.exposeID('inboxId', { nullable: true }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
      botResumeAt: when('botResumeAt'),
      archivedAt: when('archivedAt'),
      contactLastReadAt: when('contactLastReadAt'),
      agentLastReadAt: when('agentLastReadAt'),
      lastActivityAt: when('lastActivityAt'),
      adminRepliedAt: when('adminRepliedAt'),
      contactRepliedAt: when('contactRepliedAt'),
      botEnabled: t.exposeBoolean('botEnabled'),
      followed: t.exposeBoolean('followed', { description: 'Subscribed to updates' }),
      additionalAttributes: t.exposeString('additionalAttributes'),
      aiContextLastMessageId: t.exposeString('aiContextLastMessageId', { nullable: true }),
      assignedUserId: t.exposeID('assignedUserId', { nullable: true }),
      assignedInboxTeamId: t.exposeID('assignedInboxTeamId', { nullable: true }),
      assignedUser: t.field({
        type: UserType,
        nullable: true,
        resolve: (c, _a, { loaders }) => (c.assignedUserId === null ? null : loaders.user.load(Number(c.assignedUserId))),
      }),
      assignedInboxTeam: t.field({
        type: InboxTeamType,
        nullable: true,
        resolve: (c, _a, { loaders }) => (c.assignedInboxTeamId === null ? null : loaders.team.load(Number(c.assignedInboxTeamId))),
      }),
      inbox: t.field({ type: InboxType, nullable: true, resolve: (c, _a, { loaders }) => (c.inboxId === null ? null : loaders.conversationInbox.load(Number(c.inboxId))) }),
      contact: t.field({
        type: ContactRef,
        // Every conversation belongs to a contact of its workspace (foreign key), so this is never null.
        resolve: async (c, _a, { loaders }) => (await loaders.contact.load(Number(c.contactId)))!,
      }),
    };
  },
});

const read = { action: 'read', scope: 'conversations' } as const;
const conversationCursor = byId('conversation');
const write = { action: 'write', scope: 'conversations' } as const;

builder.queryField('conversation', (t) =>
  t.field({
    type: ConversationRef,
    description: 'One conversation of the workspace (404 notFound otherwise).',
    access: read,
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Conversation')) },
    resolve: (_r, { id }, { db, who }) => getConversation(db, who.workspaceId, id),
  }),
);

builder.queryField('conversations', (t) =>
  t.connection(
    {
      type: ConversationRef,
      description: `Conversations, newest first; \`followed\` keeps only followed (true) or unfollowed (false) ones. \`first\` defaults to ${DEFAULT_FIRST}, at most ${MAX_FIRST}.`,
      access: read,
      args: { followed: t.arg.boolean() },
      validate: connectionArgs.extend({ followed: z.boolean().nullish() }),
      complexity: connectionComplexity,
      resolve: (_r, args, { db, who }) =>
        keysetConnection(conversationCursor, args, ({ limit, after }) =>
          listConversations(db, who.workspaceId, { limit, beforeId: after, followed: args.followed ?? undefined }),
        ),
    },
    { name: 'ConversationConnection' },
    { name: 'ConversationEdge' },
  ),
);

const followMutation = (name: 'followConversation' | 'unfollowConversation', followed: boolean, description: string) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: SuccessType,
      description,
      access: write,
      args: { id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Conversation')) },
      resolve: (_r, { id }, { db, who }) => setConversationFollowed(db, who.workspaceId, id, followed),
    }),
  );

followMutation('unfollowConversation', false, 'Like POST /v1/conversations/{id}/unfollow: stop following (idempotent). The trial and MAC gates apply.');
followMutation('followConversation', true, 'Follow the conversation again (idempotent). The trial and MAC gates apply.');
