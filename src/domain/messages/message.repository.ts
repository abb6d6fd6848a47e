import { sql, type ExpressionBuilder, type Insertable, type RawBuilder, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { flushHeldWrites, heldInsert, heldWritesOf, type HeldKind } from '../../db/held-writes.js';
import { writeLatest } from '../shared/latest-times.js';
import type { ContactInboxesTable, DB, MessagesTable } from '../../db/types.js';
import { idString, nowIso, parseJson } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import type { Message } from './message.schema.js';

export interface NewMessage {
  conversationId: number;
  contactId: number;
  inboxId: number;
  direction: 'incoming' | 'outgoing';
  /** The network's message id (null until a send answers one, or when a send failed). */
  externalId: string | null;
  text: string | null;
  attachments?: { type: string; url: string | null }[];
  status: 'received' | 'sent' | 'failed';
  error?: string | null;
  /** The automation that sent it (outgoing), so read and postback receipts count on it. */
  automation?: { kind: 'comment' | 'leadAd'; id: number } | null;
  createdAt?: string;
}

/**
 * Stores a message of a conversation; an incoming one the inbox already has (same network id: a
 * redelivery) inserts nothing. Answers the new row's id, or null for such a duplicate.
 */
export async function insertMessage(db: Executor, workspaceId: number, m: NewMessage): Promise<number | null> {
  const values = {
    workspace_id: workspaceId,
    conversation_id: m.conversationId,
    contact_id: m.contactId,
    inbox_id: m.inboxId,
    direction: m.direction,
    external_id: m.externalId,
    text: m.text,
    attachments: JSON.stringify(m.attachments ?? []),
    status: m.status,
    error: m.error ?? null,
    automation_kind: m.automation?.kind ?? null,
    automation_id: m.automation?.id ?? null,
    created_at: m.createdAt ?? nowIso(),
  };
  // A transaction that holds writes (db/held-writes.ts) stores the replies it sent itself: each
  // names a send of its own (a new outbox entry), so none is a redelivery, and each is new, with
  // an id taken ahead.
  const held = heldWritesOf(db);
  if (held) return (await held.holdNew(db, heldMessages, values)).id;
  const row = await insertOne.first(db, values);
  return row?.id ?? null;
}

/** Held messages, each with its id. */
const heldMessages = heldInsert('messages', (db, rows: (Parameters<typeof insertOne.first>[1] & { id: number })[]) =>
  db
    .insertInto('messages')
    .values(rows.map((r) => ({ ...r, seen_at: null, clicked_at: null }))),
);

// Every reply and inbound message runs it: compiled once (src/db/prepared.ts).
const insertOne = prepared((db, r: Omit<Insertable<MessagesTable>, 'seen_at' | 'clicked_at'>) =>
  db
    .insertInto('messages')
    .values({
      workspace_id: r.workspace_id,
      conversation_id: r.conversation_id,
      contact_id: r.contact_id,
      inbox_id: r.inbox_id,
      direction: r.direction,
      external_id: r.external_id,
      text: r.text,
      attachments: r.attachments,
      status: r.status,
      error: r.error,
      automation_kind: r.automation_kind,
      automation_id: r.automation_id,
      seen_at: null,
      clicked_at: null,
      created_at: r.created_at,
    })
    .onConflict((oc) => oc.columns(['inbox_id', 'external_id']).doNothing())
    .returning('id'),
);

/* ------------------------------------------------------------------------------------------------ */
/* Reading messages                                                                                 */

const toMessage = (r: Selectable<MessagesTable>): Message => ({
  id: idString(r.id),
  contactId: idString(r.contact_id),
  conversationId: idString(r.conversation_id),
  inboxId: idString(r.inbox_id),
  direction: r.direction,
  externalId: r.external_id,
  text: r.text,
  attachments: parseJson<Message['attachments']>(r.attachments),
  status: r.status,
  error: r.error,
  automationKind: r.automation_kind,
  automationId: r.automation_id === null ? null : idString(r.automation_id),
  seenAt: r.seen_at,
  clickedAt: r.clicked_at,
  createdAt: r.created_at,
});

/** What the list filters on (the inbox id checked to be one of the contact's by the service). */
export interface MessageListFilters {
  inboxId?: number;
  direction?: 'incoming' | 'outgoing';
}

function contactMessages(db: Executor, workspaceId: number, filters: MessageListFilters) {
  let q = db.selectFrom('messages').selectAll().where('workspace_id', '=', workspaceId);
  if (filters.inboxId !== undefined) q = q.where('inbox_id', '=', filters.inboxId);
  if (filters.direction !== undefined) q = q.where('direction', '=', filters.direction);
  return q;
}

/**
 * One window of a contact's messages in id order, on the (workspace_id, contact_id, id) index:
 * `older` reads newest first, strictly below `from` when given; `newer` reads oldest first, strictly
 * above it (the caller reverses it). Keyset only: a message stored meanwhile never shifts a page.
 */
export async function messageWindow(
  db: Executor,
  workspaceId: number,
  contactId: number,
  filters: MessageListFilters,
  w: { direction: 'older' | 'newer'; from?: number; limit: number },
): Promise<Message[]> {
  await flushHeldWrites(db);
  let q = contactMessages(db, workspaceId, filters).where('contact_id', '=', contactId);
  if (w.from !== undefined) q = q.where('id', w.direction === 'older' ? '<' : '>', w.from);
  const rows = await q.orderBy('id', w.direction === 'older' ? 'desc' : 'asc').limit(w.limit).execute();
  return rows.map(toMessage);
}

/**
 * The first `limit` messages (newest first, strictly below `before` when given) of each of many
 * contacts, in one statement whatever their number: ranked per contact by a window function.
 */
export async function messagesOfContacts(
  db: Executor,
  workspaceId: number,
  contactIds: readonly number[],
  filters: MessageListFilters,
  w: { before?: number; limit: number },
): Promise<Message[]> {
  if (contactIds.length === 0) return [];
  await flushHeldWrites(db);
  let inner = db
    .selectFrom('messages')
    .selectAll()
    .select(sql<number>`row_number() over (partition by contact_id order by id desc)`.as('rank'))
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('contact_id', 'in', [...contactIds]);
  if (filters.inboxId !== undefined) inner = inner.where('inbox_id', '=', filters.inboxId);
  if (filters.direction !== undefined) inner = inner.where('direction', '=', filters.direction);
  if (w.before !== undefined) inner = inner.where('id', '<', w.before);
  const rows = await db.selectFrom(inner.as('ranked')).selectAll().where('rank', '<=', w.limit).orderBy('contact_id').orderBy('id', 'desc').execute();
  return rows.map(({ rank: _rank, ...r }) => toMessage(r as Selectable<MessagesTable>));
}

/** One message of the contact, or null (another contact's, another workspace's, or none). */
export async function findContactMessage(db: Executor, workspaceId: number, contactId: number, id: number): Promise<Message | null> {
  await flushHeldWrites(db);
  const row = await db.selectFrom('messages').selectAll().where('workspace_id', '=', workspaceId).where('contact_id', '=', contactId).where('id', '=', id).executeTakeFirst();
  return row ? toMessage(row) : null;
}

/** Messages by id in one statement (node and nodes); only this workspace's. */
export async function messagesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<Message[]> {
  if (ids.length === 0) return [];
  await flushHeldWrites(db);
  const rows = await db.selectFrom('messages').selectAll().where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map(toMessage);
}

/* ------------------------------------------------------------------------------------------------ */
/* The conversation a message moves                                                                 */

/** `column` becomes `at` unless it already holds a later instant (a late redelivery moves nothing back). */
const later = (column: 'contact_replied_at' | 'admin_replied_at' | 'last_activity_at' | 'contact_last_read_at', at: string | RawBuilder<string>) =>
  sql<string>`case when ${sql.ref(column)} is null or ${sql.ref(column)} < ${at} then ${at} else ${sql.ref(column)} end`;

/**
 * An incoming message at `at`: the contact replied and the conversation was active then (a
 * conversation nobody wrote in yet, just made for this message, takes the message's time as is).
 * `agent_last_read_at` stays, so the conversation reads as unread (an agent last read it before).
 */
export async function noteIncomingMessage(db: Executor, workspaceId: number, conversationId: number, at: string): Promise<void> {
  const activity = sql<string>`case when contact_replied_at is null and admin_replied_at is null then ${at} else ${later('last_activity_at', at)} end`;
  await db
    .updateTable('conversations')
    .set({ contact_replied_at: later('contact_replied_at', at), last_activity_at: activity, updated_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', conversationId)
    .execute();
}

/**
 * An outgoing message sent at `at`: the workspace replied and the conversation was active then.
 * Held by a transaction that holds writes (db/held-writes.ts), with the other notes of its chunk.
 */
export async function noteOutgoingMessage(db: Executor, workspaceId: number, conversationId: number, at: string): Promise<void> {
  const held = heldWritesOf(db);
  if (held) held.hold(outgoingNotes, { workspaceId, conversationId, at });
  else await noteOutgoing.run(db, { workspaceId, conversationId, at, now: nowIso() });
}

/** Held outgoing notes: one statement a workspace, each conversation moved to its latest note. */
const outgoingNotes: HeldKind<{ workspaceId: number; conversationId: number; at: string }> = {
  write: (db, notes) =>
    writeLatest(db, notes, (n) => n.conversationId, (workspaceId, ids, at) =>
      db
        .updateTable('conversations')
        .set({ admin_replied_at: later('admin_replied_at', at), last_activity_at: later('last_activity_at', at), updated_at: nowIso() })
        .where(sameWorkspace('workspace_id', workspaceId))
        .where('id', 'in', ids)
        .execute(),
    ),
};

const noteOutgoing = prepared((db, p: { workspaceId: number; conversationId: number; at: string; now: string }) =>
  db
    .updateTable('conversations')
    .set({ admin_replied_at: later('admin_replied_at', p.at), last_activity_at: later('last_activity_at', p.at), updated_at: p.now })
    .where('workspace_id', '=', p.workspaceId)
    .where('id', '=', p.conversationId),
);

/** The contact read their conversations in the inbox up to `at`. */
export async function noteContactRead(db: Executor, workspaceId: number, inboxId: number, contactId: number, at: string): Promise<void> {
  await db
    .updateTable('conversations')
    .set({ contact_last_read_at: later('contact_last_read_at', at), updated_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('contact_id', '=', contactId)
    .where('inbox_id', '=', inboxId)
    .execute();
}

/* ------------------------------------------------------------------------------------------------ */
/* Receipts                                                                                         */

/** An outgoing message a receipt marked for the first time, with the automation that sent it. */
export interface MarkedMessage {
  id: number;
  automationKind: 'comment' | 'leadAd' | null;
  automationId: number | null;
}

/**
 * Read receipt: the contact's outgoing messages in the inbox sent at or before `watermark` (or, on
 * the photo network, up to the message `upToId`) that were not seen yet are seen now. One
 * conditional UPDATE: a message is marked by exactly one receipt however many arrive at once, so
 * the caller counts each on its automation once.
 */
export async function markMessagesSeen(
  db: Executor,
  workspaceId: number,
  m: { inboxId: number; contactId: number; watermark: string } | { inboxId: number; contactId: number; upToId: number },
  now = nowIso(),
): Promise<MarkedMessage[]> {
  await flushHeldWrites(db);
  let q = db
    .updateTable('messages')
    .set({ seen_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('contact_id', '=', m.contactId)
    .where('inbox_id', '=', m.inboxId)
    .where('direction', '=', 'outgoing')
    .where('status', '=', 'sent')
    .where('seen_at', 'is', null);
  q = 'watermark' in m ? q.where('created_at', '<=', m.watermark) : q.where('id', '<=', m.upToId);
  const rows = await q.returning(['id', 'automation_kind', 'automation_id']).execute();
  return rows.map((r) => ({ id: r.id, automationKind: r.automation_kind, automationId: r.automation_id }));
}

/** Postback receipt: the contact's outgoing message with this network id is clicked now, the first time only. */
export async function markMessageClicked(
  db: Executor,
  workspaceId: number,
  m: { inboxId: number; contactId: number; externalId: string },
  now = nowIso(),
): Promise<MarkedMessage | null> {
  await flushHeldWrites(db);
  const row = await db
    .updateTable('messages')
    .set({ clicked_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('inbox_id', '=', m.inboxId)
    .where('external_id', '=', m.externalId)
    .where('contact_id', '=', m.contactId)
    .where('direction', '=', 'outgoing')
    .where('clicked_at', 'is', null)
    .returning(['id', 'automation_kind', 'automation_id'])
    .executeTakeFirst();
  return row ? { id: row.id, automationKind: row.automation_kind, automationId: row.automation_id } : null;
}

/** The message of the inbox with this network id (any direction), or null. */
export async function messageIdByExternalId(db: Executor, workspaceId: number, inboxId: number, externalId: string): Promise<number | null> {
  await flushHeldWrites(db);
  const row = await db.selectFrom('messages').select('id').where('workspace_id', '=', workspaceId).where('inbox_id', '=', inboxId).where('external_id', '=', externalId).executeTakeFirst();
  return row?.id ?? null;
}

/* ------------------------------------------------------------------------------------------------ */
/* Where a message to a contact goes                                                                */

/** An inbox of the contact a message can go out through, with what the send needs to know. */
export interface SendTarget {
  /** The contact inbox (membership) row. */
  membershipId: number;
  inboxId: number;
  channel: string;
  /** The network's id of the connected account (the inbox's sourceId). */
  accountId: string;
  /** An inactive inbox sends nothing (inbox.schema.ts). */
  active: boolean;
  /** The network's id of the person in this inbox (null: the engine never heard from them here). */
  personId: string | null;
  /** The contact's latest conversation in the inbox, if any. */
  conversationId: number | null;
  lastActivityAt: string | null;
  /** The contact's last incoming message in the inbox (the messaging window starts there). */
  contactRepliedAt: string | null;
}

/**
 * The contact's inboxes (of the workspace), each with its latest conversation, its last activity
 * and the contact's last incoming message there; most recent activity first (never active last,
 * newer memberships first). One membership per inbox: the one that knows the person's network id.
 */
export async function sendTargets(db: Executor, workspaceId: number, contactId: number): Promise<SendTarget[]> {
  const conv = (eb: ExpressionBuilder<DB & { m: ContactInboxesTable }, 'm'>) =>
    eb.selectFrom('conversations as v').whereRef('v.inbox_id', '=', 'm.inbox_id').where('v.contact_id', '=', contactId).where('v.workspace_id', '=', workspaceId);
  const rows = await db
    .selectFrom('contact_inboxes as m')
    .innerJoin('inboxes as i', 'i.id', 'm.inbox_id')
    .select((eb) => [
      'm.id',
      'm.inbox_id',
      'm.source_id as person_id',
      'i.channel',
      'i.source_id as account_id',
      'i.status',
      conv(eb).select((e) => e.fn.max('v.id').as('x')).as('conversation_id'),
      conv(eb).select((e) => e.fn.max('v.last_activity_at').as('x')).as('last_activity_at'),
      conv(eb).select((e) => e.fn.max('v.contact_replied_at').as('x')).as('contact_replied_at'),
    ])
    .where('m.workspace_id', '=', workspaceId)
    .where('i.workspace_id', '=', workspaceId)
    .where('m.contact_id', '=', contactId)
    .orderBy('m.id', 'desc')
    .execute();
  const byInbox = new Map<number, SendTarget>();
  for (const r of rows) {
    const seen = byInbox.get(r.inbox_id);
    if (seen && (seen.personId !== null || r.person_id === null)) continue;
    byInbox.set(r.inbox_id, {
      membershipId: r.id,
      inboxId: r.inbox_id,
      channel: r.channel,
      accountId: r.account_id ?? '',
      active: r.status === 'active',
      personId: r.person_id,
      conversationId: r.conversation_id === null ? null : Number(r.conversation_id),
      lastActivityAt: r.last_activity_at as string | null,
      contactRepliedAt: r.contact_replied_at as string | null,
    });
  }
  return [...byInbox.values()].sort((a, b) => (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? ''));
}
