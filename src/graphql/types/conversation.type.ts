import { z } from 'zod';
import {
  assignConversationFields,
  booleanFilterDescriptions,
  conversationFilterPieces,
  disableBotFields,
  UNASSIGNED,
} from '../../domain/conversations/conversation.schema.js';
import {
  assignConversation,
  conversationsConnection,
  getConversation,
  setConversationArchived,
  setConversationBot,
  setConversationFollowed,
  setConversationRead,
} from '../../domain/conversations/conversation.service.js';
import { plainIds, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { DEFAULT_FIRST, MAX_FIRST } from '../connection.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { InboxTeamType, InboxType, UserType } from './inbox.type.js';
import { ContactRef, conversationListings, ConversationRef } from './refs.js';

builder.node(ConversationRef, {
  ...nodeOptions('Conversation', { action: 'read', scope: 'conversations' }, ({ loaders }) => loaders.conversation),
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

const read = { action: 'read', scope: 'conversations' } as const;
const write = { action: 'write', scope: 'conversations' } as const;

const conversationIdArg = (arg: ArgBuilder) =>
  arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Conversation'));

builder.queryField('conversation', (t) =>
  t.field({
    type: ConversationRef,
    description: 'One conversation of the workspace, as GET /v1/conversations/{id} (404 notFound otherwise).',
    access: read,
    args: { id: conversationIdArg(t.arg) },
    resolve: (_r, { id }, { db, who }) => getConversation(db, who.workspaceId, id),
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
      access: read,
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

const followMutation = (name: 'followConversation' | 'unfollowConversation', followed: boolean, description: string) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: SuccessType,
      description,
      access: write,
      args: { id: conversationIdArg(t.arg) },
      resolve: (_r, { id }, { db, who }) => setConversationFollowed(db, who.workspaceId, id, followed),
    }),
  );

followMutation('unfollowConversation', false, 'Like POST /v1/conversations/{id}/unfollow: stop following (idempotent). The trial and MAC gates apply.');
followMutation('followConversation', true, 'Like POST /v1/conversations/{id}/follow: follow (idempotent). The trial and MAC gates apply.');

/** A mutation on one conversation that answers it as changed. */
const action = (name: string, description: string, run: (db: Parameters<typeof getConversation>[0], workspaceId: number, id: string) => ReturnType<typeof getConversation>) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: ConversationRef,
      description: `${description} The trial and MAC gates apply.`,
      access: write,
      args: { id: conversationIdArg(t.arg) },
      resolve: (_r, { id }, { db, who }) => run(db, who.workspaceId, id),
    }),
  );

action('archiveConversation', 'Like POST /v1/conversations/{id}/archive: archivedAt now (an archived one keeps its first archive time).', (db, ws, id) =>
  setConversationArchived(db, ws, id, true),
);
action('unarchiveConversation', 'Like POST /v1/conversations/{id}/unarchive: archivedAt null.', (db, ws, id) => setConversationArchived(db, ws, id, false));
action('enableConversationBot', 'Like POST /v1/conversations/{id}/enable-bot: botEnabled true, botResumeAt null.', (db, ws, id) =>
  setConversationBot(db, ws, id, true),
);
action('markConversationRead', 'Like POST /v1/conversations/{id}/read: agentLastReadAt now.', (db, ws, id) => setConversationRead(db, ws, id, true));
action('markConversationUnread', 'Like POST /v1/conversations/{id}/unread: agentLastReadAt null.', (db, ws, id) => setConversationRead(db, ws, id, false));

builder.mutationField('disableConversationBot', (t) =>
  t.field({
    type: ConversationRef,
    description: 'Like POST /v1/conversations/{id}/disable-bot: botEnabled false, botResumeAt = resumeAt (in the future) or null. The trial and MAC gates apply.',
    access: write,
    args: {
      id: conversationIdArg(t.arg),
      resumeAt: t.arg({ type: 'DateTime', description: 'When the bot switches back on by itself; in the future' }).validate(disableBotFields.resumeAt),
    },
    resolve: (_r, { id, resumeAt }, { db, who }) => setConversationBot(db, who.workspaceId, id, false, { resumeAt }),
  }),
);

builder.mutationField('assignConversation', (t) =>
  t.field({
    type: ConversationRef,
    description:
      'Like POST /v1/conversations/{id}/assign: userId and inboxTeamId each set (an id of the workspace, plain or global), cleared (null) or kept (left out); at least one. A user or team not in the workspace is 422 validation naming it. The trial and MAC gates apply.',
    access: write,
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
    resolve: (_r, { id, userId, inboxTeamId }, { db, who }) => assignConversation(db, who.workspaceId, id, { userId, inboxTeamId }),
  }),
);
