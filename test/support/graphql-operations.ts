import type { Scope } from '../../src/domain/auth/scopes.js';
import {
  CommentAutomationDocument,
  CommentAutomationsDocument,
  ContactByIdentifierDocument,
  ContactIdsDocument,
  ConversationDocument,
  ConversationsDocument,
  CreateContactDocument,
  CreatePhotoCommentAutomationDocument,
  DeleteNetLeadAdAutomationDocument,
  DynamicImagesDocument,
  ErrorLogsDocument,
  FollowConversationDocument,
  LeadAdAutomationsDocument,
  TagsDocument,
  UnfollowConversationDocument,
  WorkspaceDocument,
  type CreatePhotoCommentAutomationInput,
} from '../graphql/generated/graphql.js';
import { fixtures, photoCommentBody } from './fixtures.js';
import { gql, type GraphQLBody } from './graphql.js';
import type { RequestOptions, TestApp, TestResponse } from './harness.js';

/**
 * Every Query and Mutation field, each able to make a call that succeeds for a permitted token:
 * `prepare` inserts what the call needs (a contact, a conversation to unfollow, a lead-ad
 * automation to delete) and returns the call. The GraphQL auth and plan-gate tests drive every
 * field through this table, and a test checks it names every root field of the schema.
 */
export interface GraphQLOperation {
  /** The root field, e.g. `Mutation.createContact`. */
  field: string;
  action: 'read' | 'write' | 'delete';
  scope: Scope;
  workspaceTokensOnly: boolean;
  prepare: (t: TestApp, workspaceId: number) => Promise<(options: RequestOptions) => Promise<TestResponse<GraphQLBody<unknown>>>>;
}

let serial = 0;
const unique = () => `${process.pid}-${++serial}`;

/** The photo-comment body of the REST tests, as GraphQL input (enum values are the same words here). */
export const photoCommentInput = () => photoCommentBody() as unknown as CreatePhotoCommentAutomationInput;

const conversationOf = async (t: TestApp, ws: number) => {
  const f = fixtures(t.db, ws);
  return String(await f.conversation({ contactId: await f.contact({ email: `c-${unique()}@example.com` }) }));
};

export const operations: GraphQLOperation[] = [
  { field: 'Query.workspace', action: 'read', scope: 'workspace', workspaceTokensOnly: true, prepare: async (t) => (o) => gql(t, WorkspaceDocument, {}, o) },
  { field: 'Query.tags', action: 'read', scope: 'tags', workspaceTokensOnly: false, prepare: async (t) => (o) => gql(t, TagsDocument, {}, o) },
  {
    field: 'Query.contact',
    action: 'read',
    scope: 'contacts',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const identifier = String(await fixtures(t.db, ws).contact({ email: `c-${unique()}@example.com` }));
      return (o) => gql(t, ContactByIdentifierDocument, { identifier }, o);
    },
  },
  { field: 'Query.contacts', action: 'read', scope: 'contacts', workspaceTokensOnly: false, prepare: async (t) => (o) => gql(t, ContactIdsDocument, { first: 5 }, o) },
  {
    field: 'Query.commentAutomation',
    action: 'read',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).commentAutomation('net', 'Page FAQ'));
      return (o) => gql(t, CommentAutomationDocument, { id, channel: 'net' }, o);
    },
  },
  {
    field: 'Query.commentAutomations',
    action: 'read',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, CommentAutomationsDocument, {}, o),
  },
  {
    field: 'Query.leadAdAutomations',
    action: 'read',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, LeadAdAutomationsDocument, {}, o),
  },
  {
    field: 'Query.dynamicImages',
    action: 'read',
    scope: 'dynamic_images',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, DynamicImagesDocument, {}, o),
  },
  { field: 'Query.errorLogs', action: 'read', scope: 'error_logs', workspaceTokensOnly: false, prepare: async (t) => (o) => gql(t, ErrorLogsDocument, {}, o) },
  {
    field: 'Query.conversation',
    action: 'read',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = await conversationOf(t, ws);
      return (o) => gql(t, ConversationDocument, { id }, o);
    },
  },
  {
    field: 'Query.conversations',
    action: 'read',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, ConversationsDocument, {}, o),
  },
  {
    field: 'Mutation.createContact',
    action: 'write',
    scope: 'contacts',
    workspaceTokensOnly: true,
    prepare: async (t) => {
      // A new address per call, so a repeated call is a new contact rather than a duplicate.
      return (o) => gql(t, CreateContactDocument, { input: { email: `new-${unique()}@example.com`, firstName: 'Ada' } }, o);
    },
  },
  {
    field: 'Mutation.createPhotoCommentAutomation',
    action: 'write',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t) => (o) => gql(t, CreatePhotoCommentAutomationDocument, { input: photoCommentInput() }, o),
  },
  {
    field: 'Mutation.deleteNetLeadAdAutomation',
    action: 'delete',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).leadAd('Spring form'));
      return (o) => gql(t, DeleteNetLeadAdAutomationDocument, { id }, o);
    },
  },
  {
    field: 'Mutation.unfollowConversation',
    action: 'write',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = await conversationOf(t, ws);
      return (o) => gql(t, UnfollowConversationDocument, { id }, o);
    },
  },
  {
    field: 'Mutation.followConversation',
    action: 'write',
    scope: 'conversations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = await conversationOf(t, ws);
      return (o) => gql(t, FollowConversationDocument, { id }, o);
    },
  },
];

/** The response path of an operation's root field (`Mutation.createContact` -> ['createContact']). */
export const rootPath = (op: GraphQLOperation) => [op.field.split('.')[1]];
