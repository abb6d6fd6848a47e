import {
  ArchiveConversationDocument,
  AssignConversationDocument,
  DisableConversationBotDocument,
  EnableConversationBotDocument,
  MarkConversationReadDocument,
  MarkConversationUnreadDocument,
  UnarchiveConversationDocument,
} from '../../graphql/generated/graphql.js';
import type { TypedDocumentString } from '../../graphql/generated/graphql.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import { conversationOf, unique, type GraphQLOperation } from '../graphql-operations.js';

const write = { action: 'write' as const, scope: 'conversations' as const, workspaceTokensOnly: false };

/** A conversation action: a fresh conversation of the workspace, and the mutation on it. */
const action = <R>(field: string, document: TypedDocumentString<R, { id: string | number }>): GraphQLOperation => ({
  field: `Mutation.${field}`,
  ...write,
  prepare: async (t, ws) => {
    const id = await conversationOf(t, ws);
    return (o) => gql(t, document, { id }, o);
  },
});

/**
 * The conversation mutations (Query.conversation, Query.conversations,
 * followConversation and unfollowConversation are in graphql-operations.ts).
 */
export const conversationOperations: GraphQLOperation[] = [
  action('archiveConversation', ArchiveConversationDocument),
  action('unarchiveConversation', UnarchiveConversationDocument),
  action('enableConversationBot', EnableConversationBotDocument),
  action('markConversationRead', MarkConversationReadDocument),
  action('markConversationUnread', MarkConversationUnreadDocument),
  {
    field: 'Mutation.disableConversationBot',
    ...write,
    prepare: async (t, ws) => {
      const id = await conversationOf(t, ws);
      return (o) => gql(t, DisableConversationBotDocument, { id, resumeAt: '2099-01-01T00:00:00.000Z' }, o);
    },
  },
  {
    field: 'Mutation.assignConversation',
    ...write,
    prepare: async (t, ws) => {
      const id = await conversationOf(t, ws);
      const inboxTeamId = String(await fixtures(t.db, ws).team(`Team ${unique()}`));
      return (o) => gql(t, AssignConversationDocument, { id, userId: null, inboxTeamId }, o);
    },
  },
];
