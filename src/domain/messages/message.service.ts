import type { ChannelAdapter, Profile } from '../channels/channel-adapter.js';
import { isChannelError, type ChannelError } from '../channels/channel-error.js';
import type { Executor } from '../../db/database.js';
import { idNumber, nowIso } from '../../db/values.js';
import { ensureConversation, splitName, touchContactActivity } from '../contacts/contact-link.service.js';
import { AppError, notFound, unknownReferences } from '../../errors/catalogue.js';
import { invalidRequestData } from '../../errors/validation.js';
import type { Logger } from '../../observability/logger.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import { findContactById, updateContactFields, type EditableContactColumns } from '../contacts/contact.repository.js';
import type { Contact } from '../contacts/contact.schema.js';
import { contactChangeEvents, loadFullContacts, resolveContact } from '../contacts/contact.service.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import { insertErrorLog } from '../error-logs/error-log.repository.js';
import { findWorkspace } from '../workspaces/workspace.repository.js';
import { threadHeldByOther } from '../thread-control/thread-state.service.js';
import { decodeMessageCursor, encodeMessageCursor, messageFiltersHash } from './message.cursor.js';
import {
  findContactMessage,
  messageWindow,
  noteOutgoingMessage,
  sendTargets,
  type MessageListFilters,
  type SendTarget,
} from './message.repository.js';
import { MESSAGING_WINDOW_HOURS, type Message, type MessageFilters, type MessagesQuery, type SendMessageInput } from './message.schema.js';
import { storeMessage } from './message-store.service.js';

/** What sends and profile refreshes need besides the database: the channel adapter, and a logger for failures. */
export interface MessageDeps {
  db: Executor;
  adapter: ChannelAdapter;
  logger: Logger;
}

const channels: readonly string[] = ['photo', 'net'] satisfies Channel[];

// ---- Reading ----

type Path = (string | number)[];

/** The filters as the repository takes them; an inbox id that is not one of the workspace's inboxes is 422 at its parameter. */
async function checkFilters(db: Executor, workspaceId: number, contactId: number, f: MessageFilters, at: Path): Promise<MessageListFilters> {
  if (f.inboxId === undefined) return { direction: f.direction };
  const inboxId = idNumber(f.inboxId);
  const known = inboxId !== null && (await sendTargets(db, workspaceId, contactId)).some((t) => t.inboxId === inboxId);
  if (!known) throw invalidRequestData([{ message: `No inbox with id ${f.inboxId} among the contact's inboxes`, path: [...at, 'inboxId'] }]);
  return { inboxId: inboxId!, direction: f.direction };
}

/**
 * One page of a contact's messages, newest first by id, by keyset in both directions (as the
 * conversation list pages): `older` reads the `limit` messages strictly below `from` (the first page
 * without it), `newer` those strictly above. Whether messages lie beyond the page is known from one
 * extra row; on the side the caller came from, from a probe of one row. An empty page after `from`
 * (its messages deleted since) continues on the other side from `from` itself.
 */
async function readWindow(db: Executor, workspaceId: number, contactId: number, filters: MessageListFilters, w: { direction: 'older' | 'newer'; from?: number; limit: number }) {
  const read = (direction: 'older' | 'newer', from: number | undefined, limit: number) => messageWindow(db, workspaceId, contactId, filters, { direction, from, limit });
  const fetched = await read(w.direction, w.from, w.limit + 1);
  const more = fetched.length > w.limit;
  const page = fetched.slice(0, w.limit);
  if (w.direction === 'newer') page.reverse();
  const idOf = (m: Message) => Number(m.id);
  const step = w.direction === 'older' ? -1 : 1;
  const back = page.length ? idOf(w.direction === 'older' ? page[0] : page[page.length - 1]) : w.from === undefined ? undefined : w.from + step;
  const backExists = w.from !== undefined && back !== undefined && (await read(w.direction === 'older' ? 'newer' : 'older', back, 1)).length > 0;
  const ahead = more ? idOf(w.direction === 'older' ? page[page.length - 1] : page[0]) : null;
  const behind = backExists ? back! : null;
  return w.direction === 'older' ? { rows: page, older: ahead, newer: behind } : { rows: page, older: behind, newer: ahead };
}

/**
 * GET /v1/contacts/{identifier}/messages: a page after `cursor` (the first without one), with
 * `nextCursor` (older messages) and `prevCursor` (newer ones), each null when nothing lies there.
 */
export async function listContactMessagesPage(db: Executor, workspaceId: number, identifier: string, query: MessagesQuery) {
  const contact = await resolveContact(db, workspaceId, identifier);
  const { cursor, limit, ...given } = query;
  const hash = messageFiltersHash(given);
  const position = cursor === undefined ? undefined : decodeMessageCursor(cursor, hash, ['query', 'cursor']);
  const filters = await checkFilters(db, workspaceId, Number(contact.id), given, ['query']);
  const w = await readWindow(db, workspaceId, Number(contact.id), filters, { direction: position?.direction === 'prev' ? 'newer' : 'older', from: position?.id, limit });
  return {
    data: w.rows,
    nextCursor: w.older === null ? null : encodeMessageCursor(w.older, hash, 'next'),
    prevCursor: w.newer === null ? null : encodeMessageCursor(w.newer, hash, 'prev'),
  };
}

/** GET /v1/contacts/{identifier}/messages/{messageId}: 404 unless the message is that contact's. */
export async function getContactMessage(db: Executor, workspaceId: number, identifier: string, messageId: string): Promise<Message> {
  const contact = await resolveContact(db, workspaceId, identifier);
  const key = idNumber(messageId);
  const found = key === null ? null : await findContactMessage(db, workspaceId, Number(contact.id), key);
  if (!found) throw notFound('Message');
  return found;
}

/** Filters of Contact.messages (GraphQL), checked as REST checks them. */
export async function checkMessageFilters(db: Executor, workspaceId: number, contactId: number, f: MessageFilters): Promise<MessageListFilters> {
  return checkFilters(db, workspaceId, contactId, f, []);
}

// ---- Sending ----

/** 422 validation about the inbox a message would go through: `reason` a word, `detail` a sentence. */
const refused = (reason: string, detail: string, extra: Record<string, unknown> = {}) =>
  new AppError('validation', { data: { field: 'inboxId', reason, detail, ...extra } });

/**
 * The inbox a message to the contact goes through: `inboxId` when given (one of the contact's
 * inboxes, else 422 validation `notFound`), else the inbox of the contact's most recent
 * conversation activity. The inbox must be of a network channel and know the person's network id.
 */
async function chooseTarget(db: Executor, workspaceId: number, contactId: number, inboxId: string | undefined): Promise<SendTarget & { channel: Channel; personId: string }> {
  const targets = await sendTargets(db, workspaceId, contactId);
  let target: SendTarget | undefined;
  if (inboxId !== undefined) {
    target = targets.find((t) => String(t.inboxId) === inboxId);
    if (!target) throw unknownReferences('inboxId', [inboxId]);
  } else {
    target = targets.find((t) => channels.includes(t.channel) && t.personId !== null && t.active) ?? targets.find((t) => t.active) ?? targets[0];
    if (!target) throw refused('noInbox', 'The contact is in no inbox: there is no conversation to send a message in');
  }
  if (!target.active) {
    throw refused('inboxInactive', `Inbox ${target.inboxId} is inactive: it sends and receives nothing until it is switched on again`, { inboxId: String(target.inboxId) });
  }
  if (!channels.includes(target.channel)) {
    throw refused('channelUnsupported', `Inbox ${target.inboxId} is a ${target.channel} inbox: messages go out through photo and net inboxes only`, { inboxId: String(target.inboxId) });
  }
  if (target.personId === null) {
    throw refused('noNetworkId', `The contact has no network id in inbox ${target.inboxId}: they have never messaged or commented there, so the network cannot be told whom to send to`, {
      inboxId: String(target.inboxId),
    });
  }
  return target as SendTarget & { channel: Channel; personId: string };
}

/**
 * The messaging-window rule of both networks: a message may go out only within 24 hours of the
 * contact's last incoming message in that inbox (conversation `contactRepliedAt`).
 */
function checkWindow(target: SendTarget, now: Date): void {
  const last = target.contactRepliedAt;
  const closesAt = last === null ? null : new Date(Date.parse(last) + MESSAGING_WINDOW_HOURS * 3_600_000);
  if (closesAt !== null && closesAt.getTime() > now.getTime()) return;
  throw refused(
    'windowClosed',
    last === null
      ? `The contact has never messaged inbox ${target.inboxId}: the network allows messages only within ${MESSAGING_WINDOW_HOURS} hours of the contact's last message`
      : `The contact's last message in inbox ${target.inboxId} was at ${last}: the network allows messages only within ${MESSAGING_WINDOW_HOURS} hours of it (the window closed at ${closesAt!.toISOString()})`,
    { inboxId: String(target.inboxId), lastIncomingAt: last, windowClosedAt: closesAt?.toISOString() ?? null },
  );
}

/** An adapter failure as the API answers it: a closed window is 422 validation; anything else 400 businessError with the provider's words. */
function sendFailure(err: ChannelError, inboxId: number, messageId: number | null): AppError {
  const message = messageId === null ? {} : { messageId: String(messageId) };
  if (err.reason === 'windowClosed') {
    return refused('windowClosed', `The network refused the message: ${err.providerMessage}`, { inboxId: String(inboxId), providerMessage: err.providerMessage, ...message });
  }
  return new AppError('businessError', {
    data: { reason: err.reason, providerMessage: err.providerMessage, httpCode: err.httpCode, retryable: err.retryable, ...message },
  });
}

/** A failed adapter call's error log: the channel as action, the provider's words as detail. */
const logChannelFailure = (db: Executor, workspaceId: number, contactId: number, channel: Channel, err: ChannelError) =>
  insertErrorLog(db, workspaceId, { contactId, action: channel, detail: err.providerMessage, httpCode: err.httpCode === null ? '500' : String(err.httpCode) });

/**
 * Sends a text to the contact through the adapter (outside any transaction) and stores it on the
 * contact's latest conversation in that inbox: `sent` with the network's id, the conversation's
 * adminRepliedAt and lastActivityAt moved, the contact counted as active this month. A refusal of
 * the network is stored as a `failed` message with an error log, and answered as an error
 * (sendFailure).
 */
async function sendText(deps: MessageDeps, workspaceId: number, contactId: number, text: string, inboxId: string | undefined): Promise<Message> {
  const { db } = deps;
  const target = await chooseTarget(db, workspaceId, contactId, inboxId);
  checkWindow(target, new Date());
  if (await threadHeldByOther(db, workspaceId, contactId, target.inboxId)) {
    throw refused('threadNotOwned', `Another app holds the contact's thread in inbox ${target.inboxId} (thread control): take it back first`, { inboxId: String(target.inboxId) });
  }
  const inbox = { id: target.inboxId, channel: target.channel, sourceId: target.accountId };
  let externalId: string | null = null;
  let failure: ChannelError | null = null;
  try {
    externalId = (await deps.adapter.sendMessage({ workspaceId, inbox, recipientId: target.personId, content: { type: 'text', text }, contactId })).externalId;
  } catch (err) {
    if (!isChannelError(err)) throw err;
    failure = err;
  }
  const id = await db.transaction().execute(async (trx) => {
    // The window was open, so the contact has a conversation in the inbox; a deleted one is made again.
    const conversationId = target.conversationId ?? (await ensureConversation(trx, workspaceId, contactId, target.inboxId));
    const at = nowIso();
    const stored = await storeMessage(trx, workspaceId, {
      conversationId,
      contactId,
      inboxId: target.inboxId,
      direction: 'outgoing',
      externalId: failure ? null : externalId,
      text,
      status: failure ? 'failed' : 'sent',
      error: failure?.providerMessage ?? null,
      createdAt: at,
    });
    if (failure) {
      await logChannelFailure(trx, workspaceId, contactId, target.channel, failure);
    } else {
      await noteOutgoingMessage(trx, workspaceId, conversationId, at);
      await touchContactActivity(trx, workspaceId, contactId, at);
    }
    return stored;
  });
  if (failure) {
    deps.logger.warn({ workspaceId, contactId, inboxId: target.inboxId, reason: failure.reason, httpCode: failure.httpCode }, `message send failed: ${failure.providerMessage}`);
    throw sendFailure(failure, target.inboxId, id);
  }
  // The network answered an id the inbox already has (a replayed send): that message is the one sent.
  const message = id === null ? null : await findContactMessage(db, workspaceId, contactId, id);
  if (!message) throw new AppError('businessError', { data: { reason: 'duplicateMessageId', providerMessage: `The network answered message id ${externalId}, which inbox ${target.inboxId} already has` } });
  return message;
}

/** POST /v1/contacts/{identifier}/messages. */
export async function sendContactMessage(deps: MessageDeps, workspaceId: number, identifier: string, input: SendMessageInput): Promise<Message> {
  const contact = await resolveContact(deps.db, workspaceId, identifier);
  return sendText(deps, workspaceId, Number(contact.id), input.text, input.inboxId);
}

/** POST /v1/contacts/{identifier}/auto-replies: the workspace's default reply, sent as sendContactMessage sends. */
export async function triggerContactAutoReply(deps: MessageDeps, workspaceId: number, identifier: string, input?: { inboxId?: string }): Promise<Message> {
  const contact = await resolveContact(deps.db, workspaceId, identifier);
  const reply = (await findWorkspace(deps.db, workspaceId))?.defaultReply.trim() ?? '';
  if (!reply) throw new AppError('validation', { data: { field: 'defaultReply', reason: 'notSet', detail: 'The workspace has no default reply to send: set its defaultReply first' } });
  return sendText(deps, workspaceId, Number(contact.id), reply, input?.inboxId);
}

// ---- Profile ----

/** The names and avatar a profile gives; a field the network leaves out keeps the contact's value. */
export function profileFields(p: Profile): Partial<EditableContactColumns> {
  const fields: Partial<EditableContactColumns> = {};
  if (p.firstName || p.lastName) {
    fields.firstName = p.firstName || null;
    fields.lastName = p.lastName || null;
  } else {
    const split = splitName(p.name || p.username || null);
    if (split.firstName !== null) Object.assign(fields, split);
  }
  if (p.avatarUrl) fields.avatar = p.avatarUrl;
  return fields;
}

/**
 * POST /v1/contacts/{identifier}/refresh-profile: the contact's profile from the network (through
 * the most recent of its inboxes that knows the person's network id) sets its first and last name
 * and avatar. The network not knowing the person is 422 validation `profileNotFound`; other
 * failures leave an error log and are 400 businessError with the provider's words.
 */
export async function refreshContactProfile(deps: MessageDeps, workspaceId: number, identifier: string): Promise<Contact> {
  const { db } = deps;
  const contact = await resolveContact(db, workspaceId, identifier);
  const contactId = Number(contact.id);
  const targets = (await sendTargets(db, workspaceId, contactId)).filter((t) => channels.includes(t.channel) && t.personId !== null);
  // The most recent such membership.
  targets.sort((a, b) => b.membershipId - a.membershipId);
  const target = targets[0] as (SendTarget & { channel: Channel; personId: string }) | undefined;
  if (!target) throw new AppError('validation', { data: { reason: 'noNetworkId', detail: 'The contact has no network id in any photo or net inbox: there is no profile to read' } });
  let profile: Profile;
  try {
    profile = await deps.adapter.fetchProfile({ workspaceId, inbox: { id: target.inboxId, channel: target.channel, sourceId: target.accountId }, userId: target.personId });
  } catch (err) {
    if (!isChannelError(err)) throw err;
    if (err.reason === 'notFound') {
      throw new AppError('validation', { data: { field: 'identifier', reason: 'profileNotFound', detail: `The network has no profile for the contact in inbox ${target.inboxId}`, providerMessage: err.providerMessage } });
    }
    await logChannelFailure(db, workspaceId, contactId, target.channel, err);
    deps.logger.warn({ workspaceId, contactId, inboxId: target.inboxId, reason: err.reason }, `profile fetch failed: ${err.providerMessage}`);
    throw new AppError('businessError', { data: { reason: err.reason, providerMessage: err.providerMessage, httpCode: err.httpCode, retryable: err.retryable } });
  }
  const fields = profileFields(profile);
  if (Object.keys(fields).length === 0) return (await loadFullContacts(db, workspaceId, [contact]))[0];
  // The contact as it is now (the profile took a network call since it was read), locked on
  // PostgreSQL: the names and avatar that changed from it are recorded with the change.
  const updated = await db.transaction().execute(async (trx) => {
    const before = await findContactById(trx, workspaceId, contactId, { lock: true });
    const after = before && (await updateContactFields(trx, workspaceId, contactId, fields));
    if (!before || !after) throw notFound('Contact');
    await recordEvents(trx, workspaceId, contactChangeEvents(before, after));
    return after;
  });
  return (await loadFullContacts(db, workspaceId, [updated]))[0];
}
