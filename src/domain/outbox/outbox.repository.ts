import type { Insertable, Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { flushHeldWrites, heldInsert, heldWritesOf } from '../../db/held-writes.js';
import type { OutboxTable } from '../../db/types.js';
import { idNumber, idString, nowIso, parseJson } from '../../db/values.js';
import type { NewOutboxEntry, OutboxEntry, OutboxFilter, OutgoingContent, ThreadControlRequest } from './outbox.schema.js';

const columns = ['id', 'created_at', 'channel', 'inbox_id', 'action', 'comment_id', 'post_id', 'recipient_id', 'contact_id', 'automation_kind', 'automation_id', 'payload'] as const;

const toEntry = (r: Pick<Selectable<OutboxTable>, (typeof columns)[number]>): OutboxEntry => ({
  id: idString(r.id),
  createdAt: r.created_at,
  channel: r.channel,
  inboxId: idString(r.inbox_id),
  action: r.action,
  commentId: r.comment_id,
  postId: r.post_id,
  recipientId: r.recipient_id,
  contactId: r.contact_id === null ? null : idString(r.contact_id),
  automationKind: r.automation_kind,
  automationId: r.automation_id === null ? null : idString(r.automation_id),
  ...(r.action === 'threadControl'
    ? { payload: null, threadControl: parseJson<ThreadControlRequest>(r.payload ?? '{}') }
    : { payload: r.payload === null ? null : parseJson<OutgoingContent>(r.payload) }),
});

export async function insertOutboxEntry(db: Executor, workspaceId: number, e: NewOutboxEntry): Promise<OutboxEntry> {
  const values = {
    workspace_id: workspaceId,
    inbox_id: e.inboxId,
    channel: e.channel,
    action: e.action,
    comment_id: e.commentId ?? null,
    post_id: e.postId ?? null,
    recipient_id: e.recipientId ?? null,
    contact_id: e.contactId ?? null,
    automation_kind: e.automation?.kind ?? null,
    automation_id: e.automation?.id ?? null,
    payload: e.threadControl ? JSON.stringify(e.threadControl) : e.payload ? JSON.stringify(e.payload) : null,
    dedupe_key: e.dedupeKey ?? null,
    created_at: nowIso(),
  };
  // A transaction that holds writes (db/held-writes.ts) sends for rows it made itself: no earlier
  // send has the key, and the entry is new, with an id taken ahead.
  const held = heldWritesOf(db);
  if (held) return toEntry(await held.holdNew(db, heldEntries, values));
  const row = await insertEntry.first(db, values);
  if (row) return toEntry(row);
  // The same key was recorded before (a retried send): that entry is the answer.
  const existing = await db.selectFrom('outbox').select(columns).where('workspace_id', '=', workspaceId).where('dedupe_key', '=', e.dedupeKey!).executeTakeFirstOrThrow();
  return toEntry(existing);
}

/** Held entries, each with its id. */
const heldEntries = heldInsert('outbox', (db, rows: Selectable<OutboxTable>[]) => db.insertInto('outbox').values(rows));

// Every send of the sandbox adapter runs it: compiled once (src/db/prepared.ts).
const insertEntry = prepared((db, r: Insertable<OutboxTable>) =>
  db
    .insertInto('outbox')
    .values({
      workspace_id: r.workspace_id,
      inbox_id: r.inbox_id,
      channel: r.channel,
      action: r.action,
      comment_id: r.comment_id,
      post_id: r.post_id,
      recipient_id: r.recipient_id,
      contact_id: r.contact_id,
      automation_kind: r.automation_kind,
      automation_id: r.automation_id,
      payload: r.payload,
      dedupe_key: r.dedupe_key,
      created_at: r.created_at,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'dedupe_key']).doNothing())
    .returning(columns),
);

/** The workspace's entries, filtered; an id beyond any id (or not a 32-bit key) matches nothing. */
function filtered(db: Executor, workspaceId: number, f: OutboxFilter) {
  let q = db.selectFrom('outbox').where('workspace_id', '=', workspaceId);
  if (f.contactId !== undefined) q = q.where('contact_id', '=', idNumber(f.contactId) ?? -1);
  if (f.automationId !== undefined) q = q.where('automation_id', '=', idNumber(f.automationId) ?? -1);
  if (f.automationKind !== undefined) q = q.where('automation_kind', '=', f.automationKind);
  if (f.action !== undefined) q = q.where('action', '=', f.action);
  if (f.channel !== undefined) q = q.where('channel', '=', f.channel);
  return q;
}

export async function countOutboxEntries(db: Executor, workspaceId: number, f: OutboxFilter): Promise<number> {
  await flushHeldWrites(db);
  return countRows(filtered(db, workspaceId, f));
}

/** Newest first: by id, the order the entries were recorded in (each filter has an index ending in id). */
export async function listOutboxEntries(db: Executor, workspaceId: number, f: OutboxFilter, window: { limit: number; offset: number }): Promise<OutboxEntry[]> {
  await flushHeldWrites(db);
  const rows = await filtered(db, workspaceId, f).select(columns).orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute();
  return rows.map(toEntry);
}

/** Entries by id in one statement (node(id:) and nodes(ids:)); only this workspace's. */
export async function outboxEntriesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<OutboxEntry[]> {
  if (ids.length === 0) return [];
  await flushHeldWrites(db);
  const rows = await db.selectFrom('outbox').select(columns).where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
  return rows.map(toEntry);
}

/** The latest threadControl entry of a person's thread in the inbox (the sandbox's answer to who holds it), or null. */
export async function latestThreadControlEntry(db: Executor, workspaceId: number, inboxId: number, recipientId: string): Promise<OutboxEntry | null> {
  await flushHeldWrites(db);
  const row = await db
    .selectFrom('outbox')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('action', '=', 'threadControl')
    .where('inbox_id', '=', inboxId)
    .where('recipient_id', '=', recipientId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toEntry(row) : null;
}
