import { exampleInbox } from '../contacts/contact.examples.js';
import { operation, operationsOf } from '../shared/operation.js';
import { idParams, successSchema } from '../shared/schemas.js';
import type { Executor } from '../../db/database.js';
import { encodeCursor, filtersHash } from './conversation.cursor.js';
import {
  assignConversationInput,
  conversationPageSchema,
  conversationSchema,
  conversationsQuery,
  disableBotInput,
  type Conversation,
  type ConversationScalars,
} from './conversation.schema.js';
import {
  assignConversation,
  getConversation,
  listConversationsPage,
  setConversationArchived,
  setConversationBot,
  setConversationFollowed,
  setConversationRead,
  withRelations,
} from './conversation.service.js';

const exampleConversation: Conversation = {
  id: '4',
  workspaceId: '1',
  contactId: '41',
  inboxId: exampleInbox.id,
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
  botResumeAt: null,
  archivedAt: null,
  contactLastReadAt: '2026-11-23T10:14:00.000Z',
  agentLastReadAt: '2026-11-23T10:15:00.000Z',
  lastActivityAt: '2026-11-23T10:14:00.000Z',
  adminRepliedAt: '2026-11-23T10:15:00.000Z',
  contactRepliedAt: '2026-11-23T10:14:00.000Z',
  botEnabled: true,
  followed: true,
  additionalAttributes: '{}',
  aiContextLastMessageId: null,
  assignedUserId: '2',
  assignedInboxTeamId: '1',
  assignedUser: {
    id: '2',
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-01T09:00:00.000Z',
    name: 'Grace Agent',
    email: 'grace@company.example',
    emailVerified: true,
    image: null,
    isAnonymous: false,
  },
  assignedInboxTeam: { id: '1', createdAt: '2026-11-01T09:00:00.000Z', updatedAt: '2026-11-01T09:00:00.000Z', workspaceId: '1', name: 'Support' },
  inbox: exampleInbox,
};
/** The list example: a second page of these filters, its cursor made as the service makes them. */
const listExampleFilters = {
  followed: 'true',
  archived: 'false',
  botEnabled: 'true',
  assignedUserId: '2',
  assignedInboxTeamId: '1',
  inboxId: exampleInbox.id,
  keyword: 'lovelace',
} as const;
const { cursor: _noCursor, limit: _noLimit, ...listExampleParsed } = conversationsQuery.parse(listExampleFilters);
const listExampleHash = filtersHash(listExampleParsed);
const listExampleCursor = encodeCursor({ at: '2026-11-23T11:02:00.000Z', id: 9 }, listExampleHash, 'next');

const changed = (extra: Partial<Conversation>): Conversation => ({ ...exampleConversation, updatedAt: '2026-11-24T08:00:00.000Z', ...extra });
const read = { action: 'read', scope: 'conversations' } as const;
const write = { action: 'write', scope: 'conversations' } as const;

/** REST answers a conversation with its assignee, team and inbox; GraphQL loads them per field. */
const withItsRelations = async (row: ConversationScalars, { db, who }: { db: Executor; who: { workspaceId: number } }) =>
  (await withRelations(db, who.workspaceId, [row]))[0];

/** A body-less action on one conversation that answers it as changed. */
const action = (
  id: string,
  summary: string,
  description: string,
  example: Partial<Conversation>,
  change: (db: Executor, workspaceId: number, id: string, actor: number | null) => Promise<ConversationScalars>,
) =>
  operation({
    id,
    summary,
    description,
    access: write,
    params: idParams,
    output: conversationSchema,
    outputDescription: 'The conversation as changed',
    examples: { params: { id: '4' }, response: changed(example) },
    // The actor of the events the change records: the user of a user access token, else none.
    run: ({ db, who, params }) => change(db, who.workspaceId, params.id, who.userId),
    present: withItsRelations,
  });

/** Conversations: the cursor-paged list, one conversation, and its actions. */
export const conversationOperations = operationsOf('Conversations', {
  list: operation({
    id: 'conversations.list',
    summary: 'List conversations',
    description: 'Conversations by last activity, newest first, a cursor page at a time.',
    access: read,
    query: conversationsQuery,
    output: conversationPageSchema,
    outputDescription: 'A page of conversations and the cursors around it',
    examples: {
      query: { ...listExampleFilters, cursor: listExampleCursor, limit: '20' },
      response: { data: [exampleConversation], nextCursor: null, prevCursor: encodeCursor({ at: exampleConversation.lastActivityAt!, id: 4 }, listExampleHash, 'prev') },
    },
    run: ({ db, who, query }) => listConversationsPage(db, who.workspaceId, query),
  }),
  get: operation({
    id: 'conversations.get',
    summary: 'Get a conversation',
    description: 'One conversation with its inbox, assignee and team.',
    access: read,
    params: idParams,
    output: conversationSchema,
    outputDescription: 'The conversation',
    examples: { params: { id: '4' }, response: exampleConversation },
    run: ({ db, who, params }) => getConversation(db, who.workspaceId, params.id),
    present: withItsRelations,
  }),
  follow: operation({
    id: 'conversations.follow',
    summary: 'Follow a conversation',
    description: 'Idempotent; the twin of unfollow.',
    access: write,
    params: idParams,
    output: successSchema,
    outputDescription: 'Followed',
    examples: { params: { id: '4' }, response: { success: true } },
    run: ({ db, who, params }) => setConversationFollowed(db, who.workspaceId, params.id, true, who.userId),
  }),
  unfollow: operation({
    id: 'conversations.unfollow',
    summary: 'Unfollow a conversation',
    description: 'Stop following a conversation (idempotent).',
    access: write,
    params: idParams,
    output: successSchema,
    outputDescription: 'Unfollowed',
    examples: { params: { id: '4' }, response: { success: true } },
    run: ({ db, who, params }) => setConversationFollowed(db, who.workspaceId, params.id, false, who.userId),
  }),
  archive: action('conversations.archive', 'Archive a conversation', 'archivedAt is now; an archived one keeps its first archive time.', { archivedAt: '2026-11-24T08:00:00.000Z' }, (db, ws, id, actor) =>
    setConversationArchived(db, ws, id, true, actor),
  ),
  unarchive: action('conversations.unarchive', 'Unarchive a conversation', 'archivedAt is null again.', {}, (db, ws, id, actor) => setConversationArchived(db, ws, id, false, actor)),
  assign: operation({
    id: 'conversations.assign',
    summary: 'Assign a conversation',
    description: 'To a user and/or an inbox team: null clears, left out keeps.',
    access: write,
    params: idParams,
    body: assignConversationInput,
    output: conversationSchema,
    outputDescription: 'The conversation as changed',
    examples: { params: { id: '4' }, body: { userId: null, inboxTeamId: '1' }, response: changed({ assignedUserId: null, assignedUser: null }) },
    run: ({ db, who, params, body }) => assignConversation(db, who.workspaceId, params.id, body, who.userId),
    present: withItsRelations,
  }),
  enableBot: action('conversations.enableBot', 'Switch the bot on', 'botEnabled is true, botResumeAt null.', {}, (db, ws, id, actor) => setConversationBot(db, ws, id, true, actor)),
  disableBot: operation({
    id: 'conversations.disableBot',
    summary: 'Switch the bot off',
    description: 'Until resumeAt (in the future) or until enabled again; the body may be left out.',
    access: write,
    params: idParams,
    body: disableBotInput,
    output: conversationSchema,
    outputDescription: 'The conversation as changed',
    examples: {
      params: { id: '4' },
      body: { resumeAt: '2099-01-01T09:00:00.000Z' },
      response: changed({ botEnabled: false, botResumeAt: '2099-01-01T09:00:00.000Z' }),
    },
    run: ({ db, who, params, body }) => setConversationBot(db, who.workspaceId, params.id, false, who.userId, body),
    present: withItsRelations,
  }),
  read: action('conversations.read', 'Mark a conversation read', 'agentLastReadAt is now.', { agentLastReadAt: '2026-11-24T08:00:00.000Z' }, (db, ws, id) => setConversationRead(db, ws, id, true)),
  unread: action('conversations.unread', 'Mark a conversation unread', 'agentLastReadAt is null.', { agentLastReadAt: null }, (db, ws, id) => setConversationRead(db, ws, id, false)),
});
