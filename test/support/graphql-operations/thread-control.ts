import { SyncThreadOwnerDocument, ThreadControlDocument } from '../../graphql/generated/graphql.js';
import { seedMessages } from '../contract-calls/messages.js';
import { seedThreadControl } from '../contract-calls/thread-control.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import { unique, type GraphQLOperation } from '../graphql-operations.js';
import type { TestApp } from '../harness.js';

const write = { action: 'write' as const, scope: 'conversations' as const, workspaceTokensOnly: false };

/** A fresh contact's conversation in a fresh photo inbox, and its contact inbox (the thread is ours). */
const thread = async (t: TestApp, ws: number) => {
  const f = fixtures(t.db, ws);
  const contact = await f.contact({ email: `tc-${unique()}@example.com` });
  const inbox = await f.inbox(`Photo ${unique()}`, 'photo');
  const { conversation } = await seedMessages(t.db, ws, contact, inbox);
  const { contactInbox } = await seedThreadControl(t.db, ws, contact, inbox);
  return { conversationId: String(conversation), contactInboxId: String(contactInbox) };
};

/** The thread-control mutations. */
export const threadControlOperations: GraphQLOperation[] = [
  {
    field: 'Mutation.threadControl',
    ...write,
    prepare: async (t, ws) => {
      const ids = await thread(t, ws);
      return (o) => gql(t, ThreadControlDocument, { ...ids, action: 'take' }, o);
    },
  },
  {
    field: 'Mutation.syncThreadOwner',
    ...write,
    prepare: async (t, ws) => {
      const ids = await thread(t, ws);
      return (o) => gql(t, SyncThreadOwnerDocument, ids, o);
    },
  },
];
