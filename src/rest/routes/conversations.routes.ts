import {
  assignConversationInput,
  conversationPageSchema,
  conversationSchema,
  conversationsQuery,
  disableBotInput,
  type Conversation,
} from '../../domain/conversations/conversation.schema.js';
import {
  assignConversation,
  getConversationWithRelations,
  listConversationsPage,
  setConversationArchived,
  setConversationBot,
  setConversationFollowed,
  setConversationRead,
  withRelations,
} from '../../domain/conversations/conversation.service.js';
import type { ConversationScalars } from '../../domain/conversations/conversation.schema.js';
import { encodeCursor, filtersHash } from '../../domain/conversations/conversation.cursor.js';
import type { Executor } from '../../db/database.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';
import { exampleInbox } from '../../domain/contacts/contact.examples.js';

const access = (action: 'read' | 'write') => ({ action, scope: 'conversations' as const });

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
const errors = [400, 401, 403, 404, 422, 429, 500];

/** The action's result as every conversation route answers it: with its assignee, team and inbox. */
const answer = async (db: Executor, workspaceId: number, row: Promise<ConversationScalars>) => (await withRelations(db, workspaceId, [await row]))[0];

/**
 * A body-less action on one conversation (no body, `{}`, or an empty body; any field is 422) that
 * answers the conversation as changed.
 */
const action = (
  verb: string,
  operationId: string,
  summary: string,
  example: Partial<Conversation>,
  run: (db: Executor, workspaceId: number, id: string) => Promise<ConversationScalars>,
) =>
  defineRoute({
    method: 'POST',
    path: `/v1/conversations/{id}/${verb}`,
    operationId,
    summary,
    tag: 'Conversations',
    access: access('write'),
    params: idParams,
    response: { status: 200, description: 'The conversation as changed', schema: conversationSchema },
    errors,
    examples: { params: { id: '4' }, response: changed(example) },
    handler: ({ db, who, params }) => answer(db, who.workspaceId, run(db, who.workspaceId, params.id)),
  });

/** Conversations (issue automations-api): the cursor-paged list, one conversation, and its actions. */
export const conversationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/conversations',
    operationId: 'conversations.list',
    summary: 'Conversations by last activity, newest first, a cursor page at a time',
    tag: 'Conversations',
    access: access('read'),
    query: conversationsQuery,
    response: { status: 200, description: 'A page of conversations and the cursors around it', schema: conversationPageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: {
      query: { ...listExampleFilters, cursor: listExampleCursor, limit: '20' },
      response: { data: [exampleConversation], nextCursor: null, prevCursor: encodeCursor({ at: exampleConversation.lastActivityAt!, id: 4 }, listExampleHash, 'prev') },
    },
    handler: ({ db, who, query }) => listConversationsPage(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/conversations/{id}',
    operationId: 'conversations.get',
    summary: 'One conversation with its inbox, assignee and team',
    tag: 'Conversations',
    access: access('read'),
    params: idParams,
    response: { status: 200, description: 'The conversation', schema: conversationSchema },
    errors,
    examples: { params: { id: '4' }, response: exampleConversation },
    handler: ({ db, who, params }) => getConversationWithRelations(db, who.workspaceId, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/conversations/{id}/follow',
    operationId: 'conversations.follow',
    summary: 'Follow a conversation (idempotent); the twin of unfollow',
    tag: 'Conversations',
    access: access('write'),
    params: idParams,
    response: { status: 200, description: 'Followed', schema: successSchema },
    errors,
    examples: { params: { id: '4' }, response: { success: true } },
    handler: ({ db, who, params }) => setConversationFollowed(db, who.workspaceId, params.id, true),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/conversations/{id}/unfollow',
    operationId: 'conversations.unfollow',
    summary: 'Stop following a conversation (idempotent)',
    tag: 'Conversations',
    access: access('write'),
    params: idParams,
    response: { status: 200, description: 'Unfollowed', schema: successSchema },
    errors,
    examples: { params: { id: '4' }, response: { success: true } },
    handler: ({ db, who, params }) => setConversationFollowed(db, who.workspaceId, params.id, false),
  }),
  action('archive', 'conversations.archive', 'Archive a conversation (archivedAt now; an archived one keeps its first archive time)', { archivedAt: '2026-11-24T08:00:00.000Z' }, (db, ws, id) =>
    setConversationArchived(db, ws, id, true),
  ),
  action('unarchive', 'conversations.unarchive', 'Unarchive a conversation (archivedAt null)', {}, (db, ws, id) => setConversationArchived(db, ws, id, false)),
  defineRoute({
    method: 'POST',
    path: '/v1/conversations/{id}/assign',
    operationId: 'conversations.assign',
    summary: 'Assign a conversation to a user and/or an inbox team (null clears; left out keeps)',
    tag: 'Conversations',
    access: access('write'),
    params: idParams,
    body: assignConversationInput,
    response: { status: 200, description: 'The conversation as changed', schema: conversationSchema },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: { params: { id: '4' }, body: { userId: null, inboxTeamId: '1' }, response: changed({ assignedUserId: null, assignedUser: null }) },
    handler: ({ db, who, params, body }) => answer(db, who.workspaceId, assignConversation(db, who.workspaceId, params.id, body)),
  }),
  action('enable-bot', 'conversations.enableBot', 'Switch the bot on (botEnabled true, botResumeAt null)', {}, (db, ws, id) => setConversationBot(db, ws, id, true)),
  defineRoute({
    method: 'POST',
    path: '/v1/conversations/{id}/disable-bot',
    operationId: 'conversations.disableBot',
    summary: 'Switch the bot off, until resumeAt (in the future) or until enabled again; the body may be left out',
    tag: 'Conversations',
    access: access('write'),
    params: idParams,
    body: disableBotInput,
    response: { status: 200, description: 'The conversation as changed', schema: conversationSchema },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: {
      params: { id: '4' },
      body: { resumeAt: '2099-01-01T09:00:00.000Z' },
      response: changed({ botEnabled: false, botResumeAt: '2099-01-01T09:00:00.000Z' }),
    },
    handler: ({ db, who, params, body }) => answer(db, who.workspaceId, setConversationBot(db, who.workspaceId, params.id, false, body)),
  }),
  action('read', 'conversations.read', 'Mark a conversation read (agentLastReadAt now)', { agentLastReadAt: '2026-11-24T08:00:00.000Z' }, (db, ws, id) =>
    setConversationRead(db, ws, id, true),
  ),
  action('unread', 'conversations.unread', 'Mark a conversation unread (agentLastReadAt null)', { agentLastReadAt: null }, (db, ws, id) => setConversationRead(db, ws, id, false)),
];
