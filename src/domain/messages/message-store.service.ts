import { inTransaction, type Executor } from '../../db/database.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import type { NewEvent } from '../workspace-events/workspace-event.schema.js';
import { insertMessage, type NewMessage } from './message.repository.js';

/**
 * The event a stored message makes: messageReceived for one from the contact, messageSent for one
 * that reached the network. The body names the message, its conversation and inbox, and what it
 * says (text, attachments' types and URLs), so a receiver needs no second call.
 */
export const messageEvent = (id: number, m: NewMessage): NewEvent => ({
  type: m.direction === 'incoming' ? 'messageReceived' : 'messageSent',
  contactId: m.contactId,
  data: {
    message_id: String(id),
    conversation_id: String(m.conversationId),
    inbox_id: String(m.inboxId),
    text: m.text,
    attachments: m.attachments ?? [],
    ...(m.automation ? { automation_kind: m.automation.kind, automation_id: String(m.automation.id) } : {}),
  },
});

/**
 * Stores a message and its event in one transaction (the caller's, or one of its own). Every path
 * that stores a message comes through here (the API's sends, the engine's replies, flows, incoming
 * messages), so webhooks and subscriptions see each message once. A failed send is an error log,
 * not a message event; a redelivered incoming message (already stored) records nothing.
 */
export async function storeMessage(db: Executor, workspaceId: number, m: NewMessage): Promise<number | null> {
  return inTransaction(db, async (trx) => {
    const id = await insertMessage(trx, workspaceId, m);
    if (id !== null && m.status !== 'failed') await recordEvents(trx, workspaceId, [messageEvent(id, m)]);
    return id;
  });
}
