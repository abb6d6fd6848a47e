import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { idNumber, nowIso } from '../db/values.js';
import { findContactById, insertContact, toContactScalars } from '../domain/contacts/contact.repository.js';
import { contactColumns } from '../db/columns.js';
import type { ContactScalars } from '../domain/contacts/contact.schema.js';
import type { EventInbox } from '../domain/events/channel-event.repository.js';
import { countMonthlyActiveContacts, monthStart } from '../domain/workspaces/plan.repository.js';

/** The person behind an event, as the network names them in one inbox. */
export interface Participant {
  /** The network's id of the person in this inbox (page- or account-scoped). */
  sourceId: string;
  /** A display name, when the event gave one ("Ada Lovelace", or a username). */
  name: string | null;
}

export interface LinkedContact {
  contact: ContactScalars;
  conversationId: number;
  /** True when this call created the contact (replyToNewContactsOnly answers only these). */
  created: boolean;
}

/** "Ada Lovelace" -> first and last name; a single word (a username) is the first name. */
export function splitName(name: string | null): { firstName: string | null; lastName: string | null } {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { firstName: null, lastName: null };
  return { firstName: words[0]!, lastName: words.length > 1 ? words.slice(1).join(' ') : null };
}

/**
 * The contact of a participant in an inbox, created with its contact inbox and a conversation when
 * this is the first time the inbox hears from them. Run inside the caller's transaction. Two events
 * of one new person at once make one contact: the contact inbox is unique per inbox and person, and
 * the loser of that race removes the contact it had just inserted and takes the winner's.
 */
export async function linkContact(trx: Executor, inbox: EventInbox, who: Participant, known?: SourceContact | null): Promise<LinkedContact> {
  const workspaceId = inbox.workspaceId;
  // `known`: the caller asked findSourceContact in this transaction already (null: nobody yet).
  if (known) return { contact: known.contact, conversationId: known.conversationId ?? (await ensureConversation(trx, workspaceId, Number(known.contact.id), inbox.id)), created: false };
  let created = false;
  let createdContact: ContactScalars | null = null;
  let contactId = known === null ? null : await contactIdBySource(trx, inbox, who.sourceId);
  if (contactId === null) {
    const contact = await insertContact(trx, workspaceId, { email: null, phoneNumber: null, ...splitName(who.name) });
    const id = idNumber(contact.id)!;
    const linked = await insertContactInbox.first(trx, { workspaceId, contactId: id, inboxId: inbox.id, channel: inbox.channel, sourceId: who.sourceId, createdAt: nowIso() });
    if (linked) {
      contactId = id;
      created = true;
      createdContact = contact;
    } else {
      await trx.deleteFrom('contacts').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
      contactId = (await contactIdBySource(trx, inbox, who.sourceId))!;
    }
  }
  const conversationId = await ensureConversation(trx, workspaceId, contactId, inbox.id);
  // A contact made just now is as insertContact returned it; an existing one is read.
  const contact = createdContact ?? (await findContactById(trx, workspaceId, contactId))!;
  return { contact, conversationId, created };
}

/** A person's contact in an inbox, with its latest conversation there (null: none yet). */
export interface SourceContact {
  contact: ContactScalars;
  conversationId: number | null;
}

/**
 * The contact already linked to this person in this inbox, with its latest conversation there, in
 * one statement (every comment asks it: its blocked flag, its MAC standing and the link follow from
 * the same row), or null; creates nothing.
 */
export async function findSourceContact(db: Executor, inbox: EventInbox, sourceId: string): Promise<SourceContact | null> {
  const row = await sourceContact.first(db, { inboxId: inbox.id, sourceId, workspaceId: inbox.workspaceId });
  return row ? { contact: toContactScalars(row), conversationId: row.conversation_id } : null;
}

const sourceContact = prepared((db, p: { inboxId: number; sourceId: string; workspaceId: number }) =>
  db
    .selectFrom('contact_inboxes as ci')
    .innerJoin('contacts as c', 'c.id', 'ci.contact_id')
    .select(contactColumns.map((column) => `c.${column}` as const))
    .select((eb) =>
      eb
        .selectFrom('conversations as v')
        .select((v) => v.fn.max('v.id').as('id'))
        .whereRef('v.contact_id', '=', 'c.id')
        .where('v.inbox_id', '=', p.inboxId)
        .as('conversation_id'),
    )
    .where('ci.inbox_id', '=', p.inboxId)
    .where('ci.source_id', '=', p.sourceId)
    .where('ci.workspace_id', '=', p.workspaceId),
);

/** The contact already linked to this person in this inbox, without creating anything. */
export async function contactIdBySource(db: Executor, inbox: EventInbox, sourceId: string): Promise<number | null> {
  const row = await contactOfSource.first(db, { inboxId: inbox.id, sourceId, workspaceId: inbox.workspaceId });
  return row?.contact_id ?? null;
}

/** The contact's latest conversation in the inbox, or a new one (its activity starts now). */
export async function ensureConversation(trx: Executor, workspaceId: number, contactId: number, inboxId: number): Promise<number> {
  const existing = await latestConversation.first(trx, { workspaceId, contactId, inboxId });
  if (existing) return existing.id;
  const row = await insertConversation.first(trx, { workspaceId, contactId, inboxId, now: nowIso() });
  return row!.id;
}

// The statements above, compiled once (src/db/prepared.ts): every event runs them.
const contactOfSource = prepared((db, p: { inboxId: number; sourceId: string; workspaceId: number }) =>
  db.selectFrom('contact_inboxes').select('contact_id').where('inbox_id', '=', p.inboxId).where('source_id', '=', p.sourceId).where('workspace_id', '=', p.workspaceId),
);

const insertContactInbox = prepared((db, p: { workspaceId: number; contactId: number; inboxId: number; channel: string; sourceId: string; createdAt: string }) =>
  db
    .insertInto('contact_inboxes')
    .values({ workspace_id: p.workspaceId, contact_id: p.contactId, inbox_id: p.inboxId, channel: p.channel, source_id: p.sourceId, created_at: p.createdAt })
    .onConflict((oc) => oc.columns(['inbox_id', 'source_id']).doNothing())
    .returning('id'),
);

const latestConversation = prepared((db, p: { workspaceId: number; contactId: number; inboxId: number }) =>
  db
    .selectFrom('conversations')
    .select('id')
    .where('workspace_id', '=', p.workspaceId)
    .where('contact_id', '=', p.contactId)
    .where('inbox_id', '=', p.inboxId)
    .orderBy('id', 'desc')
    // A literal: SQLite runs `limit ?` markedly slower here (10 us against 4 on this machine).
    .limit(sql.lit(1)),
);

const insertConversation = prepared((db, p: { workspaceId: number; contactId: number; inboxId: number; now: string }) =>
  db
    .insertInto('conversations')
    .values({
      workspace_id: p.workspaceId,
      contact_id: p.contactId,
      inbox_id: p.inboxId,
      assigned_user_id: null,
      assigned_inbox_team_id: null,
      bot_enabled: 1,
      followed: 0,
      additional_attributes: '{}',
      ai_context_last_message_id: null,
      bot_resume_at: null,
      archived_at: null,
      contact_last_read_at: null,
      agent_last_read_at: null,
      last_activity_at: p.now,
      admin_replied_at: null,
      contact_replied_at: null,
      created_at: p.now,
      updated_at: p.now,
    })
    .returning('id'),
);

/**
 * Monthly active contacts: a contact counts once it was created this month or messaged (either
 * way) this month. A workspace at its plan's limit (`mac_limit`) may keep acting for contacts that
 * already count, and stops for any other: answers true when acting for this contact is refused.
 * Ask before linkContact (with contactIdBySource's answer, null for a new person): linking creates
 * the contact, which then counts.
 */
export async function overMacLimit(db: Executor, workspaceId: number, contactId: number | null, now = new Date(), knownLimit?: number | null): Promise<boolean> {
  // `knownLimit`: the caller read the workspace's mac_limit already (with the automations' version).
  const limit = knownLimit !== undefined ? knownLimit : ((await db.selectFrom('workspaces').select('mac_limit').where('id', '=', workspaceId).executeTakeFirst())?.mac_limit ?? null);
  if (limit === null) return false;
  const since = monthStart(now);
  if (contactId !== null) {
    const c = await db.selectFrom('contacts').select(['created_at', 'last_message_at']).where('workspace_id', '=', workspaceId).where('id', '=', contactId).executeTakeFirst();
    if (c && (c.created_at >= since || (c.last_message_at !== null && c.last_message_at >= since))) return false;
  }
  return (await countMonthlyActiveContacts(db, workspaceId, now)) >= limit;
}

/** The contact exchanged a message now: it counts as active this month. */
export async function touchContactActivity(db: Executor, workspaceId: number, contactId: number, at = nowIso()): Promise<void> {
  await touchContact.run(db, { workspaceId, contactId, at });
}

const touchContact = prepared((db, p: { workspaceId: number; contactId: number; at: string }) =>
  db
    .updateTable('contacts')
    .set({ last_message_at: sql<string>`case when last_message_at is null or last_message_at < ${p.at} then ${p.at} else last_message_at end` })
    .where('workspace_id', '=', p.workspaceId)
    .where('id', '=', p.contactId),
);
