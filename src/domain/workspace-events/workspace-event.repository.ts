import { sql } from 'kysely';
import { isPostgres, type Executor } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { idString, parseJson } from '../../db/values.js';
import type { EventType, WorkspaceEvent } from './workspace-event.schema.js';

export interface StoredEvent extends WorkspaceEvent {
  workspaceId: number;
  sourceId: number | null;
  /** The body as stored: what a webhook sends and signs, byte for byte. */
  bodyText: string;
}

const toEvent = (r: { id: number; workspace_id: number; type: string; contact_id: number | null; source_id: number | null; body: string; occurred_at: string }): StoredEvent => ({
  id: idString(r.id),
  workspaceId: r.workspace_id,
  type: r.type as EventType,
  contactId: r.contact_id === null ? null : idString(r.contact_id),
  sourceId: r.source_id,
  occurredAt: r.occurred_at,
  body: parseJson(r.body),
  bodyText: r.body,
});

/**
 * Events per insert: a bulk call may record 100,000 (1,000 contacts and 100 tags or sequences),
 * and each event binds 7 values, where SQLite takes at most 32,766 per statement and PostgreSQL
 * 65,535. Up to this many it is one statement.
 */
const EVENTS_PER_INSERT = 4000;

export type NewEventRow = { type: string; contact_id: number | null; source_id: number | null; body: string; occurred_at: string; fanned_out?: boolean };

/**
 * Several events of one workspace in one statement; their ids, in order. One marked `fanned_out`
 * is taken already: the fan-out leaves it alone (a webhook's ping goes to that webhook only).
 */
export async function insertEvents(db: Executor, workspaceId: number, rows: readonly NewEventRow[]): Promise<{ id: number }[]> {
  // One event is the engine's case (a new contact, a reply sent): its statement is prepared.
  if (rows.length === 1) {
    const { fanned_out, ...r } = rows[0]!;
    return insertOne.all(db, { ...r, workspace_id: workspaceId, fanned_out_at: fanned_out ? r.occurred_at : null });
  }
  const ids: { id: number }[] = [];
  for (let i = 0; i < rows.length; i += EVENTS_PER_INSERT) {
    const chunk = rows.slice(i, i + EVENTS_PER_INSERT);
    ids.push(
      ...(await db
        .insertInto('workspace_events')
        .values(chunk.map(({ fanned_out, ...r }) => ({ ...r, workspace_id: workspaceId, fanned_out_at: fanned_out ? r.occurred_at : null })))
        .returning('id')
        .execute()),
    );
  }
  return ids;
}

const insertOne = prepared((db, r: Omit<NewEventRow, 'fanned_out'> & { workspace_id: number; fanned_out_at: string | null }) =>
  db
    .insertInto('workspace_events')
    .values({ type: r.type, contact_id: r.contact_id, source_id: r.source_id, body: r.body, occurred_at: r.occurred_at, workspace_id: r.workspace_id, fanned_out_at: r.fanned_out_at })
    .returning('id'),
);

/** The workspace's events after an id, oldest first, optionally of some types. */
export async function eventsAfter(db: Executor, workspaceId: number, afterId: number, opts: { types?: readonly string[]; limit: number }): Promise<StoredEvent[]> {
  let q = db.selectFrom('workspace_events').selectAll().where('workspace_id', '=', workspaceId).where('id', '>', afterId);
  if (opts.types && opts.types.length > 0) q = q.where('type', 'in', [...opts.types]);
  return (await q.orderBy('id').limit(opts.limit).execute()).map(toEvent);
}

/** The workspace's newest event id, 0 for none: where a subscription without `after` starts. */
export async function latestEventId(db: Executor, workspaceId: number): Promise<number> {
  const row = await db.selectFrom('workspace_events').select((e) => e.fn.max('id').as('id')).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** One event of the workspace. */
export async function findEvent(db: Executor, workspaceId: number, id: number): Promise<StoredEvent | null> {
  const row = await db.selectFrom('workspace_events').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return row ? toEvent(row) : null;
}

/**
 * Takes up to `limit` events no fan-out has taken, of any workspace, oldest first, marking them
 * taken: call it in the transaction that fans them out, so a crash leaves them for the next one.
 * PostgreSQL skips rows another process has locked (two fan-outs never take the same event);
 * SQLite's one writer makes the statement alone atomic.
 *
 * PostgreSQL walks the partial index of unfanned events in order (the planner is told so for the
 * claim, in its transaction): an event taken leaves a dead entry in that index until VACUUM, and
 * only an ordered index scan marks such entries dead as it passes, so the next claim skips them.
 * Left to itself the planner chose a bitmap scan and a sort, which never marks them: every claim
 * read each event taken since the last VACUUM (25,000 entries and 1,800 pages, 3 ms, near the end
 * of bench/engine.ts, against 0.1 ms), a cost that grows with the table between two autovacuums.
 */
export async function claimUnfannedEvents(db: Executor, limit: number, now: string): Promise<StoredEvent[]> {
  let pick = db.selectFrom('workspace_events').select('id').where('fanned_out_at', 'is', null).orderBy('id').limit(limit);
  const postgres = isPostgres(db);
  if (postgres) {
    pick = pick.forUpdate().skipLocked();
    await sql`set local enable_bitmapscan = off; set local enable_seqscan = off`.execute(db);
  }
  const rows = await db.updateTable('workspace_events').set({ fanned_out_at: now }).where('id', 'in', pick).returningAll().execute();
  if (postgres) await sql`reset enable_bitmapscan; reset enable_seqscan`.execute(db);
  return rows.map(toEvent).sort((a, b) => Number(a.id) - Number(b.id));
}
