import type { Executor } from '../../../src/db/database.js';
import { insertMessage } from '../../../src/domain/messages/message.repository.js';
import { upsertSandboxRecord } from '../../../src/domain/sandbox/sandbox-record.repository.js';
import { fixtures } from '../fixtures.js';
import type { CallTable } from './seed.js';

/**
 * The contact's membership of the connected photo account with its network id, a conversation there
 * whose messaging window is open (the contact wrote a minute ago), that incoming message, and the
 * profile the sandbox adapter answers refresh-profile with.
 */
export async function seedMessages(db: Executor, workspaceId: number, contactId: number, photoInbox: number) {
  const f = fixtures(db, workspaceId);
  const personId = `psid-${workspaceId}-${contactId}`;
  await db
    .insertInto('contact_inboxes')
    .values({ workspace_id: workspaceId, contact_id: contactId, inbox_id: photoInbox, channel: 'photo', source_id: personId, created_at: new Date().toISOString() })
    .execute();
  const recent = new Date(Date.now() - 60_000).toISOString();
  const conversation = await f.conversation({ contactId, inboxId: photoInbox, lastActivityAt: recent, createdAt: recent });
  await db.updateTable('conversations').set({ contact_replied_at: recent }).where('id', '=', conversation).execute();
  const message = await insertMessage(db, workspaceId, {
    conversationId: conversation,
    contactId,
    inboxId: photoInbox,
    direction: 'incoming',
    externalId: `mid-${workspaceId}-1`,
    text: 'Do you ship to Lisbon?',
    status: 'received',
    createdAt: recent,
  });
  await upsertSandboxRecord(db, workspaceId, 'profile', personId, { firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace', username: 'ada', avatarUrl: 'https://cdn.photo.example/p/ada.jpg' });
  return { photoInbox, conversation, message: message! };
}

/** A contact's messages: list, one, send, auto-reply and refresh-profile, on the seeded contact (its window is open). */
export const messageCalls: CallTable = {
  'contacts.listMessages': (s) => ({ method: 'GET', path: `/v1/contacts/${s.contact}/messages?limit=10&direction=incoming` }),
  'contacts.getMessage': (s) => ({ method: 'GET', path: `/v1/contacts/${s.contact}/messages/${s.messages.message}` }),
  'contacts.sendMessage': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/messages`, body: { text: 'We do! Delivery takes 3 to 5 days.', inboxId: String(s.messages.photoInbox) } }),
  'contacts.triggerAutoReply': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/auto-replies`, body: { inboxId: String(s.messages.photoInbox) } }),
  'contacts.refreshProfile': (s) => ({ method: 'POST', path: `/v1/contacts/${s.contact}/refresh-profile` }),
};
