import { CommentAutomationEventsDocument } from '../../graphql/generated/graphql.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import type { GraphQLOperation } from '../graphql-operations.js';

/** The events of a comment automation (none yet: an empty page). */
export const commentEventOperations: GraphQLOperation[] = [
  {
    field: 'Query.commentAutomationEvents',
    action: 'read',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).commentAutomation('photo', 'Events'));
      return (o) => gql(t, CommentAutomationEventsDocument, { id, channel: 'photo', perPage: 5 }, o);
    },
  },
];
