import { expect } from 'vitest';
import type { Executor } from '../../src/db/database.js';

/** A row of `workspace_events` as a test reads it: its body parsed. */
export interface RecordedEvent {
  type: string;
  contactId: number | null;
  sourceId: number | null;
  body: Record<string, unknown>;
}

/**
 * The events a workspace records, read from `workspace_events` (through the test's own handle):
 * `next()` answers those recorded since the previous call, oldest first, so each step of a test
 * sees only what it did. Each body's `timestamp` is checked to be the row's `occurred_at` instant.
 */
export function recordedEvents(db: Executor, workspaceId: number) {
  let last = 0;
  return {
    async next(): Promise<RecordedEvent[]> {
      const rows = await db.selectFrom('workspace_events').selectAll().where('workspace_id', '=', workspaceId).where('id', '>', last).orderBy('id').execute();
      if (rows.length > 0) last = rows[rows.length - 1]!.id;
      return rows.map((r) => {
        const body = JSON.parse(r.body) as Record<string, unknown>;
        expect(Date.parse(String(body.timestamp))).toBe(Date.parse(String(r.occurred_at)));
        return { type: r.type, contactId: r.contact_id, sourceId: r.source_id, body };
      });
    },
  };
}

const isoTimestamp = () => expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** The event a test expects: its type, contact, source and whole body (`event`, `contact_id`, a timestamp, then `data`). */
export const event = (type: string, event: string, contactId: number, data: Record<string, unknown>, sourceId: number | null = null): RecordedEvent => ({
  type,
  contactId,
  sourceId,
  body: { event, contact_id: String(contactId), timestamp: isoTimestamp(), ...data },
});
