import type { Executor } from '../../../src/db/database.js';
import type { CallTable } from './seed.js';

/** The contact inbox of the seeded contact's conversation in the photo account (seedMessages made both). */
export async function seedThreadControl(db: Executor, workspaceId: number, contactId: number, photoInbox: number) {
  const row = await db
    .selectFrom('contact_inboxes')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('contact_id', '=', contactId)
    .where('inbox_id', '=', photoInbox)
    .executeTakeFirstOrThrow();
  return { contactInbox: row.id };
}

/**
 * Thread control of the photo conversation. A take of a thread that is ours, and a sync the sandbox
 * answers with our app, change nothing (notEscalation): the thread stays ours, so the other calls
 * that send to the contact keep succeeding however often these run.
 */
export const threadControlCalls: CallTable = {
  'conversations.threadControl': (s) => ({
    method: 'POST',
    path: `/v1/conversations/${s.messages.conversation}/thread-control`,
    body: { contactInboxId: String(s.threadControl.contactInbox), action: 'take', metadata: 'Back to the bot' },
  }),
  'conversations.syncThreadOwner': (s) => ({
    method: 'POST',
    path: `/v1/conversations/${s.messages.conversation}/thread-control/sync`,
    body: { contactInboxId: String(s.threadControl.contactInbox) },
  }),
};
