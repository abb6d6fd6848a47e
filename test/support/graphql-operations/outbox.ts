import { sandboxAdapter } from '../../../src/channels/sandbox.adapter.js';
import { OutboxDocument } from '../../graphql/generated/graphql.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import { unique, type GraphQLOperation } from '../graphql-operations.js';

export const outboxOperations: GraphQLOperation[] = [
  {
    field: 'Query.outbox',
    action: 'read',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      // One recorded private reply, through the sandbox adapter as the engine records them.
      const inbox = await fixtures(t.db, ws).inbox(`Photo ${unique()}`, 'photo');
      await sandboxAdapter(t.db).sendPrivateReply({
        workspaceId: ws,
        inbox: { id: inbox, channel: 'photo', sourceId: `src-${inbox}` },
        commentId: `c-${unique()}`,
        content: { type: 'text', text: 'Thanks!' },
      });
      return (o) => gql(t, OutboxDocument, { perPage: 5, action: 'privateReply' }, o);
    },
  },
];
