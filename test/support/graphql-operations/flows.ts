import { CreateFlowDocument, DeleteFlowDocument, FlowDocument, FlowsDocument, UpdateFlowDocument } from '../../graphql/generated/graphql.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import { unique, type GraphQLOperation } from '../graphql-operations.js';

/** A fresh flow of the workspace, as its plain id. */
const flowOf = async (t: Parameters<GraphQLOperation['prepare']>[0], ws: number) => String(await fixtures(t.db, ws).flow(`flow-${unique()}`));

const access = (action: GraphQLOperation['action']) => ({ action, scope: 'automations' as const, workspaceTokensOnly: false });

export const flowOperations: GraphQLOperation[] = [
  { field: 'Query.flows', ...access('read'), prepare: async (t) => (o) => gql(t, FlowsDocument, { perPage: 5 }, o) },
  {
    field: 'Query.flow',
    ...access('read'),
    prepare: async (t, ws) => {
      const id = await flowOf(t, ws);
      return (o) => gql(t, FlowDocument, { id }, o);
    },
  },
  {
    field: 'Mutation.createFlow',
    ...access('write'),
    prepare: async (t) => (o) => gql(t, CreateFlowDocument, { input: { name: `Welcome ${unique()}`, items: [{ type: 'text', text: 'Hi {{first_name}}' }] } }, o),
  },
  {
    field: 'Mutation.updateFlow',
    ...access('write'),
    prepare: async (t, ws) => {
      const id = await flowOf(t, ws);
      return (o) => gql(t, UpdateFlowDocument, { id, input: { name: 'Renamed' } }, o);
    },
  },
  {
    field: 'Mutation.deleteFlow',
    ...access('delete'),
    prepare: async (t, ws) => {
      const id = await flowOf(t, ws);
      return (o) => gql(t, DeleteFlowDocument, { id }, o);
    },
  },
];
