import type { Executor } from '../../db/database.js';
import { flushHeldWrites } from '../../db/held-writes.js';
import { idNumber, nowIso } from '../../db/values.js';
import { insertConversation, latestConversationId } from '../conversations/conversation.repository.js';
import type { EventInbox } from '../events/channel-event.repository.js';
import { contactIdOfSource, insertSourceContactInbox } from '../inboxes/inbox.repository.js';
import { countMonthlyActiveContacts, monthStart, workspaceMacLimit } from '../workspaces/plan.repository.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import {
  deleteContactById,
  findContactActivity,
  findContactById,
  findContactOfSource,
  insertContact,
  touchContactLastMessage,
  type SourceContact,
  updateContactFields,
  type EditableContactColumns,
} from './contact.repository.js';
import type { ContactScalars } from './contact.schema.js';
import { newContactEvent } from './contact.service.js';

/** The person behind an event, as the network names them in one inbox. */
export interface Participant {
  /** The network's id of the person in this inbox (page- or account-scoped). */
  sourceId: string;
  /** A display name, when the event gave one ("Ada Lovelace", or a username). */
  name: string | null;
  /** Fields a new contact takes from the network's profile (names, avatar: message.service.ts profileFields), when it had one. */
  profile?: Partial<EditableContactColumns>;
}

export interface LinkedContact {
  contact: ContactScalars;
  conversationId: number;
  /** True when this call created the contact (replyToNewContactsOnly answers only these). */
  created: boolean;
  /**
   * Until when another app holds the person's thread in standby (null: not in standby), when this
   * transaction knows it already: read with the contact, or none for a contact created now.
   */
  standbyUntil?: string | null;
}

/** "Ada Lovelace" -> first and last name; a single word (a username) is the first name. */
export function splitName(name: string | null): { firstName: string | null; lastName: string | null } {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { firstName: null, lastName: null };
  return { firstName: words[0]!, lastName: words.length > 1 ? words.slice(1).join(' ') : null };
}

/**
 * The contact of a participant in an inbox, created with its contact inbox and a conversation when
 * this is the first time the inbox hears from them (with the profile's fields, when given). Run
 * inside the caller's transaction. Two events of one new person at once make one contact: the
 * contact inbox is unique per inbox and person, and the loser of that race removes the contact it
 * had just inserted and takes the winner's. A contact created records newContact in the
 * transaction (the loser's removed one does not). `activeAt`: the person is met through a message
 * sent then, so a contact created counts as active from its first row (`created` tells the caller
 * it need not mark it again).
 */
export async function linkContact(trx: Executor, inbox: EventInbox, who: Participant, known?: SourceContact | null, opts: { activeAt?: string } = {}): Promise<LinkedContact> {
  const workspaceId = inbox.workspaceId;
  // `known`: the caller asked findSourceContact in this transaction already (null: nobody yet).
  if (known) {
    const conversationId = known.conversationId ?? (await ensureConversation(trx, workspaceId, Number(known.contact.id), inbox.id));
    return { contact: known.contact, conversationId, created: false, standbyUntil: known.standbyUntil };
  }
  let created = false;
  let createdContact: ContactScalars | null = null;
  let contactId = known === null ? null : await contactIdBySource(trx, inbox, who.sourceId);
  if (contactId === null) {
    const contact = await insertContact(trx, workspaceId, { email: null, phoneNumber: null, ...splitName(who.name) }, opts.activeAt ?? null);
    const id = idNumber(contact.id)!;
    const linked = await insertSourceContactInbox(trx, workspaceId, { contactId: id, inboxId: inbox.id, channel: inbox.channel, sourceId: who.sourceId, createdAt: nowIso() });
    if (linked) {
      contactId = id;
      created = true;
      const profile = who.profile ?? {};
      createdContact = (Object.keys(profile).length > 0 ? await updateContactFields(trx, workspaceId, id, profile) : null) ?? contact;
      await recordEvents(trx, workspaceId, [newContactEvent(createdContact)]);
    } else {
      await deleteContactById(trx, workspaceId, id);
      contactId = (await contactIdBySource(trx, inbox, who.sourceId))!;
    }
  }
  // A contact made in this transaction has no conversation yet: no need to look for one.
  const conversationId = created ? await insertConversation(trx, workspaceId, { contactId, inboxId: inbox.id, now: nowIso() }) : await ensureConversation(trx, workspaceId, contactId, inbox.id);
  // A contact made just now is as insertContact returned it; an existing one is read.
  const contact = createdContact ?? (await findContactById(trx, workspaceId, contactId))!;
  // A contact inbox made just now has no thread state yet.
  return { contact, conversationId, created, ...(created ? { standbyUntil: null } : {}) };
}

/** What findSourceContact answers (its shape is the repository's). */
export type { SourceContact };

/**
 * The contact already linked to this person in this inbox, with its latest conversation there, in
 * one statement (every comment asks it: its blocked flag, its MAC standing and the link follow from
 * the same row), or null; creates nothing.
 */
export async function findSourceContact(db: Executor, inbox: EventInbox, sourceId: string): Promise<SourceContact | null> {
  return findContactOfSource(db, inbox.workspaceId, inbox.id, sourceId);
}

/** The contact already linked to this person in this inbox, without creating anything. */
export async function contactIdBySource(db: Executor, inbox: EventInbox, sourceId: string): Promise<number | null> {
  return contactIdOfSource(db, inbox.workspaceId, inbox.id, sourceId);
}

/** The contact's latest conversation in the inbox, or a new one (its activity starts now). */
export async function ensureConversation(trx: Executor, workspaceId: number, contactId: number, inboxId: number): Promise<number> {
  const existing = await latestConversationId(trx, workspaceId, contactId, inboxId);
  if (existing !== null) return existing;
  return insertConversation(trx, workspaceId, { contactId, inboxId, now: nowIso() });
}

/**
 * Monthly active contacts: a contact counts once it was created this month or messaged (either
 * way) this month. A workspace at its plan's limit (`mac_limit`) may keep acting for contacts that
 * already count, and stops for any other: answers true when acting for this contact is refused.
 * Ask before linkContact (with contactIdBySource's answer, null for a new person): linking creates
 * the contact, which then counts.
 */
export async function overMacLimit(db: Executor, workspaceId: number, contactId: number | null, now = new Date(), knownLimit?: number | null): Promise<boolean> {
  // `knownLimit`: the caller read the workspace's mac_limit already (with the automations' version).
  const limit = knownLimit !== undefined ? knownLimit : await workspaceMacLimit(db, workspaceId);
  if (limit === null) return false;
  // Contacts' activity the transaction holds (db/held-writes.ts) counts: it is written first.
  await flushHeldWrites(db);
  const since = monthStart(now);
  if (contactId !== null) {
    const c = await findContactActivity(db, workspaceId, contactId);
    if (c && (c.createdAt >= since || (c.lastMessageAt !== null && c.lastMessageAt >= since))) return false;
  }
  return (await countMonthlyActiveContacts(db, workspaceId, now)) >= limit;
}

/** The contact exchanged a message now: it counts as active this month. */
export async function touchContactActivity(db: Executor, workspaceId: number, contactId: number, at = nowIso()): Promise<void> {
  await touchContactLastMessage(db, workspaceId, contactId, at);
}
