import { inTransaction } from '../../db/database.js';
import { count } from '../comments/counter-tally.js';
import type { Profile } from '../../domain/channels/channel-adapter.js';
import { isChannelError } from '../../domain/channels/channel-error.js';
import type { HandoverEvent, MessageEvent, PostbackEvent, ReadEvent, StandbyEvent } from '../../domain/events/channel-event.schema.js';
import type { StoredEvent } from '../../domain/events/channel-event.repository.js';
import {
  markMessageClicked,
  markMessagesSeen,
  messageIdByExternalId,
  noteContactRead,
  noteIncomingMessage,
  type MarkedMessage,
} from '../../domain/messages/message.repository.js';
import { profileFields } from '../../domain/messages/message.service.js';
import { contactIdBySource, linkContact, touchContactActivity } from '../../domain/contacts/contact-link.service.js';
import { applyNetworkThreadEvent, type ThreadChange } from '../../domain/thread-control/thread-state.service.js';
import type { EngineDeps } from '../context.js';
import type { EventProcessor } from '../process-event.js';
import { storeMessage } from '../../domain/messages/message-store.service.js';

/**
 * The engine's processors of `messaging` events (docs/engine.md, "Messages of a contact"): an incoming
 * message is stored on the contact's conversation; read and postback receipts mark outgoing
 * messages seen and clicked, counted once per message on the comment automation that sent it.
 * Each runs its writes in one transaction, keyed by network ids, so a job run twice (a worker died
 * after the commit) changes nothing the second time.
 */

/** The sender's profile for a person the inbox has never heard from, or null: a failed fetch only costs the name. */
async function newcomerProfile(deps: EngineDeps, stored: StoredEvent, senderId: string): Promise<Profile | null> {
  if ((await contactIdBySource(deps.db, stored.inbox, senderId)) !== null) return null;
  try {
    return await deps.adapter.fetchProfile({ workspaceId: stored.workspaceId, inbox: stored.inbox, userId: senderId });
  } catch (err) {
    if (!isChannelError(err)) throw err;
    deps.logger.debug({ workspaceId: stored.workspaceId, inboxId: stored.inbox.id, reason: err.reason }, `no profile for a new contact: ${err.providerMessage}`);
    return null;
  }
}

/**
 * An incoming message: the sender becomes (or is matched to) a contact with a contact inbox and a
 * conversation; the message is stored on it (`received`, once per inbox and network id); the
 * conversation's contactRepliedAt and lastActivityAt move to the message's time and it reads as
 * unread (agentLastReadAt stays); the contact counts as active this month. A new contact's name and
 * avatar come from its profile when the adapter has one. The account's own messages (the sender is
 * the inbox's account) are not stored as incoming.
 */
export const processMessageEvent: EventProcessor = async (deps, stored) => {
  const event = stored.event as MessageEvent;
  if (event.senderId === stored.inbox.sourceId) return 'own message: not stored';
  // Outside the transaction: adapter calls never run inside one.
  const profile = await newcomerProfile(deps, stored, event.senderId);
  const name = profile ? profile.name || [profile.firstName, profile.lastName].filter(Boolean).join(' ') || profile.username || null : null;
  return inTransaction(deps.db, async (trx) => {
    // A new contact takes the profile's names and avatar as it is created (its newContact says them).
    const linked = await linkContact(trx, stored.inbox, { sourceId: event.senderId, name, profile: profile ? profileFields(profile) : undefined });
    const contactId = Number(linked.contact.id);
    const id = await storeMessage(trx, stored.workspaceId, {
      conversationId: linked.conversationId,
      contactId,
      inboxId: stored.inbox.id,
      direction: 'incoming',
      externalId: event.messageId,
      text: event.text,
      attachments: event.attachments,
      status: 'received',
      createdAt: event.createdAt,
    });
    if (id === null) return `duplicate message ${event.messageId}: already stored`;
    await noteIncomingMessage(trx, stored.workspaceId, linked.conversationId, event.createdAt);
    await touchContactActivity(trx, stored.workspaceId, contactId, event.createdAt);
    // The networks deliver `messaging` to the thread's owner: the message proves it is ours.
    await applyNetworkThreadEvent(trx, stored.workspaceId, stored.inbox.id, event.senderId, {
      kind: 'evidence',
      state: 'owned',
      ownerAppId: deps.adapter.appId,
      at: event.createdAt,
      event: 'message',
      source: 'network',
      userMessageAt: event.createdAt,
    });
    return `stored message ${id} for contact ${contactId}${linked.created ? ' (new contact)' : ''}`;
  });
};

/** Counts marked messages on the comment automations that sent them (lead-ad automations keep no counters). */
async function countOnAutomations(deps: EngineDeps, trx: EngineDeps['db'], workspaceId: number, marked: MarkedMessage[], counter: 'seen_count' | 'clicked_count'): Promise<void> {
  const perAutomation = new Map<number, number>();
  for (const m of marked) {
    if (m.automationKind === 'comment' && m.automationId !== null) perAutomation.set(m.automationId, (perAutomation.get(m.automationId) ?? 0) + 1);
  }
  // In id order, so concurrent receipts take the automations' row locks in one order (PostgreSQL).
  for (const [automationId, by] of [...perAutomation].sort(([a], [b]) => a - b)) await count(deps, trx, workspaceId, automationId, [counter], by);
}

/**
 * A read receipt: the sender's outgoing messages in the inbox sent at or before the watermark (on
 * the photo network: up to the message it names) and not seen yet are seen now, each counted once
 * on its comment automation's seenCount; the sender's conversations there get contactLastReadAt.
 * A receipt of a person the inbox does not know changes nothing.
 */
export const processReadEvent: EventProcessor = async (deps, stored) => {
  const event = stored.event as ReadEvent;
  return inTransaction(deps.db, async (trx) => {
    const contactId = await contactIdBySource(trx, stored.inbox, event.senderId);
    if (contactId === null) return 'read receipt of an unknown person: nothing to mark';
    const scope = { inboxId: stored.inbox.id, contactId };
    let marked: MarkedMessage[];
    if (event.messageId !== null) {
      const upToId = await messageIdByExternalId(trx, stored.workspaceId, stored.inbox.id, event.messageId);
      marked = upToId === null ? [] : await markMessagesSeen(trx, stored.workspaceId, { ...scope, upToId });
    } else {
      marked = await markMessagesSeen(trx, stored.workspaceId, { ...scope, watermark: event.watermark });
    }
    await noteContactRead(trx, stored.workspaceId, stored.inbox.id, contactId, event.watermark);
    // Last: the automations' row locks come after every other (counter-tally.ts).
    await countOnAutomations(deps, trx, stored.workspaceId, marked, 'seen_count');
    return `marked ${marked.length} message(s) seen`;
  });
};

/**
 * A postback receipt: the outgoing message it names (by network id) is clicked, the first time
 * only, and counted once on its comment automation's clickedCount.
 */
export const processPostbackEvent: EventProcessor = async (deps, stored) => {
  const event = stored.event as PostbackEvent;
  if (event.messageId === null) return 'postback without a message id: nothing to mark';
  const messageId = event.messageId;
  return inTransaction(deps.db, async (trx) => {
    const contactId = await contactIdBySource(trx, stored.inbox, event.senderId);
    if (contactId === null) return 'postback of an unknown person: nothing to mark';
    const marked = await markMessageClicked(trx, stored.workspaceId, { inboxId: stored.inbox.id, contactId, externalId: messageId });
    if (!marked) return `message ${messageId}: unknown or already clicked`;
    await countOnAutomations(deps, trx, stored.workspaceId, [marked], 'clicked_count');
    return `marked message ${marked.id} clicked`;
  });
};

/**
 * A handover event (docs/engine.md, "Thread control"): a pass or take names the thread's new owner,
 * ours (owned) or another app (standby); a request of another app is recorded as the thread's last
 * event; app roles concern the account, no thread. A network's handover wins over one of our calls
 * of the same second; otherwise the later transition wins, whatever order the events arrive in.
 */
export const processHandoverEvent: EventProcessor = async (deps, stored) => {
  const event = stored.event as HandoverEvent;
  if (event.action === 'appRoles') return `app roles of the account: ${Object.entries(event.appRoles ?? {}).map(([app, roles]) => `${app} ${roles.join('/')}`).join(', ') || 'none'}`;
  if (event.senderId === null) return 'a handover without a person: nothing to record';
  const base = { at: event.createdAt, source: 'network' as const };
  let change: ThreadChange;
  if (event.action === 'request') {
    change = { ...base, kind: 'note', ownerAppId: deps.adapter.appId, event: 'requestThreadControl' };
  } else if (event.newOwnerAppId === null) {
    // A take that does not name the taker: an app took the thread from us, so another app holds it.
    change = { ...base, kind: 'handover', state: 'standby', ownerAppId: null, event: 'takeThreadControl' };
  } else {
    const ours = event.newOwnerAppId === deps.adapter.appId;
    change = { ...base, kind: 'handover', state: ours ? 'owned' : 'standby', ownerAppId: event.newOwnerAppId, event: event.action === 'pass' ? 'passThreadControl' : 'takeThreadControl' };
  }
  return applyNetworkThreadEvent(deps.db, stored.workspaceId, stored.inbox.id, event.senderId, change);
};

/**
 * Something delivered on standby: another app holds the thread. It moves the thread to standby when
 * later than its last transition; the person's message or postback also counts as their last message.
 */
export const processStandbyEvent: EventProcessor = async (deps, stored) => {
  const event = stored.event as StandbyEvent;
  return applyNetworkThreadEvent(deps.db, stored.workspaceId, stored.inbox.id, event.senderId, {
    kind: 'evidence',
    state: 'standby',
    at: event.createdAt,
    event: 'standbyMessage',
    source: 'network',
    userMessageAt: event.userMessage ? event.createdAt : null,
  });
};
