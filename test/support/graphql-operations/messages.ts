import { RefreshContactProfileDocument, SendMessageDocument, TriggerAutoReplyDocument } from '../../graphql/generated/graphql.js';
import { seedMessages } from '../contract-calls/messages.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import { unique, type GraphQLOperation } from '../graphql-operations.js';
import type { TestApp } from '../harness.js';

const write = { action: 'write' as const, scope: 'contacts' as const, workspaceTokensOnly: false };

/** A fresh contact in a fresh photo inbox, its messaging window open and its network profile known. */
const messagingContact = async (t: TestApp, ws: number) => {
  const f = fixtures(t.db, ws);
  const contact = await f.contact({ email: `m-${unique()}@example.com` });
  const inbox = await f.inbox(`Photo ${unique()}`, 'photo');
  await seedMessages(t.db, ws, contact, inbox);
  return { identifier: String(contact), inboxId: String(inbox) };
};

/** Contact.messages, and the message mutations (send, auto-reply, refresh the profile). */
export const messageOperations: GraphQLOperation[] = [
  {
    field: 'Mutation.sendMessage',
    ...write,
    prepare: async (t, ws) => {
      const c = await messagingContact(t, ws);
      return (o) => gql(t, SendMessageDocument, { ...c, text: 'We do!' }, o);
    },
  },
  {
    field: 'Mutation.triggerAutoReply',
    ...write,
    prepare: async (t, ws) => {
      const c = await messagingContact(t, ws);
      return (o) => gql(t, TriggerAutoReplyDocument, c, o);
    },
  },
  {
    field: 'Mutation.refreshContactProfile',
    ...write,
    prepare: async (t, ws) => {
      const { identifier } = await messagingContact(t, ws);
      return (o) => gql(t, RefreshContactProfileDocument, { identifier }, o);
    },
  },
];

