import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { nowIso, parseJson } from '../../db/values.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import type { ChannelEvent } from './channel-event.schema.js';
import { eventExternalId } from './channel-event.schema.js';
import { sameWorkspace } from '../shared/scope.js';

/** An inbox an event is delivered to: the workspace that connected the account, and how. */
export interface EventInbox {
  id: number;
  workspaceId: number;
  channel: Channel;
  sourceId: string;
}

/** The active inboxes of `channel` connected to any of `accountIds`, in every workspace (or only `workspaceId`'s). */
export async function findInboxesByAccount(db: Executor, channel: Channel, accountIds: string[], workspaceId?: number): Promise<EventInbox[]> {
  if (accountIds.length === 0) return [];
  // An inactive inbox receives nothing (inbox.schema.ts): its events count as of an unknown account.
  let q = db.selectFrom('inboxes').select(['id', 'workspace_id', 'source_id']).where('source_id', 'in', accountIds).where('channel', '=', channel).where('status', '=', 'active');
  if (workspaceId !== undefined) q = q.where('workspace_id', '=', workspaceId);
  const rows = await q.orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id, channel, sourceId: r.source_id! }));
}

/**
 * Stores the events, each unless its inbox already has one of that kind with that network id (or
 * the same delivery holds it twice): the new rows' ids in the events' order, null for a
 * redelivery. A statement per 200 events (a delivery may carry hundreds), so it joins the
 * caller's transaction and costs one round trip for a whole delivery.
 */
export async function insertChannelEvents(db: Executor, events: readonly { inbox: EventInbox; event: ChannelEvent }[], source: 'webhook' | 'dev'): Promise<(number | null)[]> {
  const ids: (number | null)[] = [];
  const receivedAt = nowIso();
  for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
    const some = events.slice(i, i + EVENTS_PER_INSERT);
    const rows = some.map(({ inbox, event }) => ({
      workspace_id: inbox.workspaceId,
      inbox_id: inbox.id,
      channel: inbox.channel,
      kind: event.kind,
      external_id: eventExternalId(event),
      payload: JSON.stringify(event),
      source,
      received_at: receivedAt,
      processed_at: null,
      outcome: null,
    }));
    const inserted = await db
      .insertInto('channel_events')
      .values(rows)
      .onConflict((oc) => oc.columns(['workspace_id', 'inbox_id', 'kind', 'external_id']).doNothing())
      .returning(['id', 'inbox_id', 'kind', 'external_id'])
      .execute();
    // Returned rows are matched by their key, not their position: a database owes no order.
    const byKey = new Map(inserted.map((r) => [eventKey(r), r.id]));
    for (const row of rows) {
      const key = eventKey(row);
      ids.push(byKey.get(key) ?? null);
      byKey.delete(key); // a second copy in the same delivery is a redelivery
    }
  }
  return ids;
}

const EVENTS_PER_INSERT = 200;
const eventKey = (r: { inbox_id: number; kind: string; external_id: string }) => `${r.inbox_id}\u0000${r.kind}\u0000${r.external_id}`;

export interface StoredEvent {
  id: number;
  workspaceId: number;
  inbox: EventInbox;
  event: ChannelEvent;
  source: 'webhook' | 'dev';
  receivedAt: string;
  processedAt: string | null;
}

/** The event with its inbox, or null when it (or its inbox) has been deleted since. */
export async function findChannelEvent(db: Executor, workspaceId: number, id: number): Promise<StoredEvent | null> {
  return (await findChannelEvents(db, workspaceId, [id])).get(id) ?? null;
}

/** Events with their inboxes by id, in one statement (an event job reads its events a transaction's worth at a time); deleted ones are missing. */
export async function findChannelEvents(db: Executor, workspaceId: number, ids: readonly number[]): Promise<Map<number, StoredEvent>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('channel_events as e')
    .innerJoin('inboxes as i', 'i.id', 'e.inbox_id')
    .select(['e.id', 'e.workspace_id', 'e.inbox_id', 'e.channel', 'e.payload', 'e.source', 'e.received_at', 'e.processed_at', 'i.source_id'])
    // Checked on the rows found by id: SQLite would walk the workspace's events index (scope.ts).
    .where(sameWorkspace('e.workspace_id', workspaceId))
    .where('e.id', 'in', [...ids])
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        workspaceId: row.workspace_id,
        inbox: { id: row.inbox_id, workspaceId: row.workspace_id, channel: row.channel, sourceId: row.source_id ?? '' },
        event: parseJson<ChannelEvent>(row.payload),
        source: row.source,
        receivedAt: row.received_at,
        processedAt: row.processed_at,
      },
    ]),
  );
}

/** An outcome as stored: its first 1,000 characters. */
const storedOutcome = (outcome: string) => outcome.slice(0, 1000);

export async function markChannelEventProcessed(db: Executor, workspaceId: number, id: number, outcome: string): Promise<void> {
  await markProcessed.run(db, { workspaceId, id, outcome: storedOutcome(outcome), at: nowIso() });
}

const markProcessed = prepared((db, p: { workspaceId: number; id: number; outcome: string; at: string }) =>
  db.updateTable('channel_events').set({ processed_at: p.at, outcome: p.outcome }).where('workspace_id', '=', p.workspaceId).where('id', '=', p.id),
);

/** Several events of the workspace processed, each with its outcome, in one statement. */
export async function markChannelEventsProcessed(db: Executor, workspaceId: number, outcomes: readonly { id: number; outcome: string }[]): Promise<void> {
  if (outcomes.length === 0) return;
  await db
    .updateTable('channel_events')
    .set({
      processed_at: nowIso(),
      outcome: sql<string>`case ${sql.ref('id')} ${sql.join(
        outcomes.map((o) => sql`when ${o.id} then ${storedOutcome(o.outcome)}`),
        sql` `,
      )} end`,
    })
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('id', 'in', outcomes.map((o) => o.id))
    .execute();
}

/** What processing the event did (markChannelEventProcessed's outcome), or null: not processed, or no such event. */
export async function channelEventOutcome(db: Executor, workspaceId: number, id: number): Promise<string | null> {
  const row = await db.selectFrom('channel_events').select('outcome').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return row?.outcome ?? null;
}

/** A stored event's payload and the inbox it came through, by id; null when it (or its inbox) has been deleted. */
export async function findEventPayloadAndInbox(db: Executor, workspaceId: number, id: number): Promise<{ event: ChannelEvent; inbox: { id: number; channel: Channel; sourceId: string } } | null> {
  const row = await db
    .selectFrom('channel_events as e')
    .innerJoin('inboxes as i', 'i.id', 'e.inbox_id')
    .select(['e.payload', 'e.inbox_id', 'e.channel', 'i.source_id'])
    .where('e.workspace_id', '=', workspaceId)
    .where('e.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return { event: parseJson<ChannelEvent>(row.payload), inbox: { id: row.inbox_id, channel: row.channel, sourceId: row.source_id ?? '' } };
}
