import {
  ChannelPostsDocument,
  CreateNetCommentAutomationDocument,
  DeleteCommentAutomationDocument,
  UpdateCommentAutomationDocument,
  type CreateNetCommentAutomationInput,
} from '../../graphql/generated/graphql.js';
import { fixtures, photoCommentBody } from '../fixtures.js';
import { gql } from '../graphql.js';
import type { GraphQLOperation } from '../graphql-operations.js';

/** The photo body without its type, as a net create input (type defaults to chat). */
const netInput = () => {
  const { type: _photo, ...input } = photoCommentBody();
  return input as unknown as CreateNetCommentAutomationInput;
};

const automations = { scope: 'automations', workspaceTokensOnly: false } as const;

/** Comment automations (both channels) and the channels' posts. */
export const commentAutomationOperations: GraphQLOperation[] = [
  { field: 'Query.channelPosts', action: 'read', ...automations, prepare: async (t) => (o) => gql(t, ChannelPostsDocument, { channel: 'photo', kind: 'published' }, o) },
  { field: 'Mutation.createNetCommentAutomation', action: 'write', ...automations, prepare: async (t) => (o) => gql(t, CreateNetCommentAutomationDocument, { input: netInput() }, o) },
  {
    field: 'Mutation.updateCommentAutomation',
    action: 'write',
    ...automations,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).commentAutomation('net', 'Page FAQ'));
      return (o) => gql(t, UpdateCommentAutomationDocument, { id, channel: 'net', input: { isActive: false } }, o);
    },
  },
  {
    field: 'Mutation.deleteCommentAutomation',
    action: 'delete',
    ...automations,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).commentAutomation('photo', 'To delete'));
      return (o) => gql(t, DeleteCommentAutomationDocument, { id, channel: 'photo' }, o);
    },
  },
];
