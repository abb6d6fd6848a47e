import { fixtures } from '../fixtures.js';
import type { GraphQLBody } from '../graphql.js';
import { unique, type GraphQLOperation } from '../graphql-operations.js';

/** A fresh sequence with one step, as plain ids. */
async function sequenceWithStep(t: Parameters<GraphQLOperation['prepare']>[0], ws: number) {
  const f = fixtures(t.db, ws);
  const sequence = await f.sequence(`Sequence ${unique()}`);
  return { sequence: String(sequence), step: String(await f.sequenceStep(sequence)) };
}

const access = (action: GraphQLOperation['action'], scope: 'sequences' | 'contacts' = 'sequences') => ({ action, scope, workspaceTokensOnly: false });

/** Sequence steps (scope sequences) and sending a flow to a contact (scope contacts). */
export const sequenceStepOperations: GraphQLOperation[] = [
  {
    field: 'Query.sequenceSteps',
    ...access('read'),
    prepare: async (t, ws) => {
      const { sequence } = await sequenceWithStep(t, ws);
      return (o) => t.graphql<GraphQLBody<unknown>>('query ($id: ID!) { sequenceSteps(sequenceId: $id) { id order delayUnit sendDays } }', { id: sequence }, o);
    },
  },
  {
    field: 'Query.sequenceStepContacts',
    ...access('read'),
    prepare: async (t, ws) => {
      const { sequence, step } = await sequenceWithStep(t, ws);
      return (o) => t.graphql<GraphQLBody<unknown>>('query ($id: ID!, $step: ID!) { sequenceStepContacts(sequenceId: $id, stepId: $step, eventType: message_sent) { total pageCount data { contactId eventType } } }', { id: sequence, step }, o);
    },
  },
  {
    field: 'Mutation.upsertSequenceStep',
    ...access('write'),
    prepare: async (t, ws) => {
      const { sequence } = await sequenceWithStep(t, ws);
      return (o) =>
        t.graphql<GraphQLBody<unknown>>('mutation ($id: ID!, $input: UpsertSequenceStepInput!) { upsertSequenceStep(sequenceId: $id, input: $input) { stepId } }', { id: sequence, input: { order: 1, delayUnit: 'minutes', delayMinutes: 30 } }, o);
    },
  },
  {
    field: 'Mutation.deleteSequenceStep',
    ...access('delete'),
    prepare: async (t, ws) => {
      const { sequence, step } = await sequenceWithStep(t, ws);
      return (o) => t.graphql<GraphQLBody<unknown>>('mutation ($id: ID!, $step: ID!) { deleteSequenceStep(sequenceId: $id, stepId: $step) { success } }', { id: sequence, step }, o);
    },
  },
  {
    field: 'Mutation.sendFlow',
    ...access('write', 'contacts'),
    prepare: async (t, ws) => {
      const f = fixtures(t.db, ws);
      const contact = await f.contact({ email: `flow-${unique()}@example.com` });
      const inbox = await f.inbox(`Inbox ${unique()}`, 'net');
      await f.contactInbox(contact, inbox, 'net');
      await f.conversation({ contactId: contact, inboxId: inbox });
      const flow = String(await f.flow(`Flow ${unique()}`));
      return (o) => t.graphql<GraphQLBody<unknown>>('mutation ($c: String!, $flow: ID!) { sendFlow(identifier: $c, flowId: $flow) { success } }', { c: `id:${contact}`, flow }, o);
    },
  },
];
