import { fixtures } from '../fixtures.js';
import { call, unique, type GraphQLOperation } from '../graphql-operations.js';

export const devEventOperations: GraphQLOperation[] = [
  {
    field: 'Mutation.injectDevEvents',
    action: 'write',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      // A connected photo account in a developmentMode workspace: what dev events need.
      const name = `Photo ${unique()}`;
      await fixtures(t.db, ws).inbox(name, 'photo');
      await t.db.updateTable('workspaces').set({ development_mode: 1 }).where('id', '=', ws).execute();
      return call(t, 'mutation($input: DevEventsInput!) { injectDevEvents(input: $input) { stored } }', {
        input: { channel: 'photo', entry: [{ id: `src-${name}`, changes: [{ field: 'comments', value: { id: `c-${unique()}`, text: 'Hi', from: { id: 'u-1' } } }] }] },
      });
    },
  },
];
