import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import { heldWritesOf, type HeldKind } from '../../db/held-writes.js';
import { groupBy } from '../shared/group.js';
import { insertEvents, type NewEventRow } from './workspace-event.repository.js';
import { eventNames, type NewEvent } from './workspace-event.schema.js';

/**
 * Records what a change did, in the change's own transaction (`db`): the events exist exactly
 * when the change committed, and a crash loses none. What happens next reads them from the table:
 * the fan-out to webhooks (src/engine/webhooks/) and the GraphQL subscriptions, across processes.
 * An event without a contact (none today) has `contact_id` null.
 */
export async function recordEvents(db: Executor, workspaceId: number, events: readonly NewEvent[], at = nowIso()): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({
    type: e.type,
    contact_id: e.contactId,
    source_id: e.sourceId ?? null,
    body: JSON.stringify({ event: eventNames[e.type], contact_id: e.contactId === null ? null : String(e.contactId), timestamp: at, ...e.data }),
    occurred_at: at,
  }));
  // A transaction that holds writes (db/held-writes.ts) inserts its events together, in the order recorded.
  const held = heldWritesOf(db);
  if (held) return held.hold(heldEvents, { workspaceId, rows });
  await insertEvents(db, workspaceId, rows);
  eventsRecorded.notify(workspaceId);
}

/** Held events: one insert a workspace. */
const heldEvents: HeldKind<{ workspaceId: number; rows: NewEventRow[] }> = {
  async write(db, held) {
    for (const [workspaceId, some] of groupBy(held, (h) => h.workspaceId)) {
      await insertEvents(db, workspaceId, some.flatMap((h) => h.rows));
      eventsRecorded.notify(workspaceId);
    }
  },
};

/**
 * Wakes this process's readers of the events table early (subscriptions, the fan-out). A hint:
 * it may come before the transaction commits, so readers also look on a timer, and readers in
 * other processes rely on that timer (or on Redis, when the server has it).
 */
export const eventsRecorded = {
  listeners: new Set<(workspaceId: number) => void>(),
  notify(workspaceId: number) {
    for (const listener of this.listeners) listener(workspaceId);
  },
  listen(listener: (workspaceId: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  },
};
