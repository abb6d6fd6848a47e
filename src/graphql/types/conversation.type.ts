import { z } from 'zod';
import {
  assignConversationFields,
  booleanFilterDescriptions,
  conversationFilterPieces,
  disableBotFields,
  UNASSIGNED,
} from '../../domain/conversations/conversation.schema.js';
import { conversationsConnection } from '../../domain/conversations/conversation.service.js';
import { conversationOperations as conversations } from '../../domain/conversations/conversation.operations.js';
import { plainIds, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { DEFAULT_FIRST, MAX_FIRST } from '../connection.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { InboxTeamType, InboxType, UserType } from './inbox.type.js';
import { ContactRef, conversationListings, ConversationRef } from './refs.js';

builder.node(ConversationRef, {
  ...nodeOptions('Conversation', conversations.get.access, ({ loaders }) => loaders.conversation),
  description: 'A conversation with a contact; the assignee, team, inbox and contact load through per-request DataLoaders.',
  fields: (t) => {
    const { beyond } = conversationListings;
    const when = (name: 'botResumeAt' | 'contactLastReadAt' | 'agentLastReadAt' | 'adminRepliedAt' | 'contactRepliedAt') =>
      t.field({ type: 'DateTime', nullable: true, resolve: beyond(name) });
    return {
      rawId: rawIdField(t),
      workspaceId: t.exposeID('workspaceId'),
      contactId: t.exposeID('contactId'),
      inboxId: t.exposeID('inboxId', { nullable: true }),
      createdAt: t.field({ type: 'DateTime', resolve: beyond('createdAt') }),
      updatedAt: t.field({ type: 'DateTime', resolve: beyond('updatedAt') }),
      botResumeAt: when('botResumeAt'),
      archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
      contactLastReadAt: when('contactLastReadAt'),
      agentLastReadAt: when('agentLastReadAt'),
      lastActivityAt: t.expose('lastActivityAt', { type: 'DateTime', nullable: true }),
      adminRepliedAt: when('adminRepliedAt'),
      contactRepliedAt: when('contactRepliedAt'),
      botEnabled: t.exposeBoolean('botEnabled'),
      followed: t.exposeBoolean('followed', { description: 'Subscribed to updates' }),
      additionalAttributes: t.string({ resolve: beyond('additionalAttributes') }),
      aiContextLastMessageId: t.string({ nullable: true, resolve: beyond('aiContextLastMessageId') }),
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


const conversationIdArg = (arg: ArgBuilder) =>
  arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Conversation'));

builder.queryField('conversation', (t) =>
  t.field({
    type: ConversationRef,
    description: 'One conversation of the workspace, as GET /v1/conversations/{id} (404 notFound otherwise).',
    access: conversations.get.access,
    args: { id: conversationIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(conversations.get, ctx, { params: { id } }),
  }),
);

const count = (name: 'first' | 'last') =>
  z
    .number()
    .int()
    .min(1, `${name} must be at least 1`)
    .max(MAX_FIRST, `${name} must be at most ${MAX_FIRST} (list-argument cap)`)
    .nullish()
    .transform((v) => v ?? undefined);
const cursorArg = z
  .string()
  .max(500)
  .nullish()
  .transform((v) => v ?? undefined);
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/**
 * The connection's arguments: REST's filters (the same zod pieces; ids may also be global ids),
 * and both directions: `first`/`after` (older rows) or `last`/`before` (newer rows), not mixed.
 */
const conversationsArgs = z
  .object({
    first: count('first'),
    last: count('last'),
    after: cursorArg,
    before: cursorArg,
    followed: optional(z.boolean()),
    archived: optional(z.boolean()),
    botEnabled: optional(z.boolean()),
    assignedUserId: optional(z.preprocess(plainIds('User'), conversationFilterPieces.assignedUserId)),
    assignedInboxTeamId: optional(z.preprocess(plainIds('InboxTeam'), conversationFilterPieces.assignedInboxTeamId)),
    inboxId: optional(z.preprocess(plainIds('Inbox'), conversationFilterPieces.inboxId)),
    keyword: optional(conversationFilterPieces.keyword),
  })
  .superRefine((a, ctx) => {
    const mixed = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (a.first !== undefined && a.last !== undefined) mixed('Give first or last, not both', 'last');
    if (a.after !== undefined && a.before !== undefined) mixed('Give after or before, not both', 'before');
    if (a.last !== undefined && a.after !== undefined) mixed('after goes with first: use before with last', 'after');
    if (a.first !== undefined && a.before !== undefined) mixed('before goes with last: use after with first', 'before');
  });

builder.queryField('conversations', (t) =>
  t.connection(
    {
      type: ConversationRef,
      description: `Like GET /v1/conversations: by last activity, newest first, ties by id; keyset pages that never repeat or skip a row under inserts. Both directions: \`first\`/\`after\` read older rows, \`last\`/\`before\` newer ones (\`first\` defaults to ${DEFAULT_FIRST}; at most ${MAX_FIRST}). Cursors are tied to the filters: a cursor used with other filters is refused. \`assignedUserId\`/\`assignedInboxTeamId\` take "${UNASSIGNED}" for unassigned ones.`,
      // The list's rule; GraphQL's connection pages both ways with cursors of its own.
      access: conversations.list.access,
      args: {
        followed: t.arg.boolean({ description: booleanFilterDescriptions.followed }),
        archived: t.arg.boolean({ description: booleanFilterDescriptions.archived }),
        botEnabled: t.arg.boolean({ description: booleanFilterDescriptions.botEnabled }),
        assignedUserId: t.arg.id({ description: `A user's id (plain or global), or "${UNASSIGNED}"` }),
        assignedInboxTeamId: t.arg.id({ description: `An inbox team's id (plain or global), or "${UNASSIGNED}"` }),
        inboxId: t.arg.id({ description: "An inbox's id (plain or global)" }),
        keyword: t.arg.string({ description: "Case-insensitive substring of the contact's name, email or phone number" }),
      },
      validate: conversationsArgs,
      complexity: (args) => ({ field: 1, multiplier: args.first ?? args.last ?? DEFAULT_FIRST }),
      resolve: (_r, args, { db, who }) => {
        const a = args as unknown as z.output<typeof conversationsArgs>;
        const first = a.first ?? (a.last === undefined ? DEFAULT_FIRST : undefined);
        return conversationsConnection(db, who.workspaceId, { ...a, first });
      },
    },
    { name: 'ConversationConnection' },
    { name: 'ConversationEdge' },
  ),
);

const followMutation = (name: 'followConversation' | 'unfollowConversation', op: typeof conversations.follow, description: string) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: SuccessType,
      description,
      access: op.access,
      args: { id: conversationIdArg(t.arg) },
      resolve: (_r, { id }, ctx) => runOperation(op, ctx, { params: { id } }),
    }),
  );

followMutation('unfollowConversation', conversations.unfollow, 'Like POST /v1/conversations/{id}/unfollow: stop following (idempotent). The trial and MAC gates apply.');
followMutation('followConversation', conversations.follow, 'Like POST /v1/conversations/{id}/follow: follow (idempotent). The trial and MAC gates apply.');

/** A mutation on one conversation that answers it as changed. */
const action = (name: string, description: string, op: typeof conversations.archive) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: ConversationRef,
      description: `${description} The trial and MAC gates apply.`,
      access: op.access,
      args: { id: conversationIdArg(t.arg) },
      resolve: (_r, { id }, ctx) => runOperation(op, ctx, { params: { id } }),
    }),
  );

action('archiveConversation', 'Like POST /v1/conversations/{id}/archive: archivedAt now (an archived one keeps its first archive time).', conversations.archive);
action('unarchiveConversation', 'Like POST /v1/conversations/{id}/unarchive: archivedAt null.', conversations.unarchive);
action('enableConversationBot', 'Like POST /v1/conversations/{id}/enable-bot: botEnabled true, botResumeAt null.', conversations.enableBot);
action('markConversationRead', 'Like POST /v1/conversations/{id}/read: agentLastReadAt now.', conversations.read);
action('markConversationUnread', 'Like POST /v1/conversations/{id}/unread: agentLastReadAt null.', conversations.unread);

builder.mutationField('disableConversationBot', (t) =>
  t.field({
    type: ConversationRef,
    description: 'Like POST /v1/conversations/{id}/disable-bot: botEnabled false, botResumeAt = resumeAt (in the future) or null. The trial and MAC gates apply.',
    access: conversations.disableBot.access,
    args: {
      id: conversationIdArg(t.arg),
      resumeAt: t.arg({ type: 'DateTime', description: 'When the bot switches back on by itself; in the future' }).validate(disableBotFields.resumeAt),
    },
    resolve: (_r, { id, resumeAt }, ctx) => runOperation(conversations.disableBot, ctx, { params: { id }, body: { resumeAt } }),
  }),
);

builder.mutationField('assignConversation', (t) =>
  t.field({
    type: ConversationRef,
    description:
      'Like POST /v1/conversations/{id}/assign: userId and inboxTeamId each set (an id of the workspace, plain or global), cleared (null) or kept (left out); at least one. A user or team not in the workspace is 422 validation naming it. The trial and MAC gates apply.',
    access: conversations.assign.access,
    args: {
      id: conversationIdArg(t.arg),
      userId: t.arg.id({ description: "A user's id; null clears the assignee" }).validate(z.preprocess(plainIds('User'), assignConversationFields.userId)),
      inboxTeamId: t.arg
        .id({ description: "An inbox team's id; null clears the team" })
        .validate(z.preprocess(plainIds('InboxTeam'), assignConversationFields.inboxTeamId)),
    },
    validate: z
      .looseObject({ userId: z.unknown(), inboxTeamId: z.unknown() })
      .refine((a) => a.userId !== undefined || a.inboxTeamId !== undefined, { message: 'Provide at least one of userId or inboxTeamId' }),
    resolve: (_r, { id, userId, inboxTeamId }, ctx) => runOperation(conversations.assign, ctx, { params: { id }, body: { userId, inboxTeamId } }),
  }),
);
