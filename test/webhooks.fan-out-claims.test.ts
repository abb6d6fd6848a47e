import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimUnfannedEvents, insertEvents } from '../src/domain/workspace-events/workspace-event.repository.js';
import { testEngine } from './support/engine.js';
import { createTestApp, type TestApp } from './support/harness.js';

/**
 * Each event the fan-out takes leaves a dead entry in the partial index of unfanned events until
 * VACUUM runs. A claim that walks the index in order marks the entries it passes dead, so the
 * next claims skip them; a bitmap scan never does, and each claim then read every event taken
 * since the last VACUUM (src/domain/workspace-events/workspace-event.repository.ts). Counted with
 * PostgreSQL's statistics of the claim's own transaction.
 */
describe.runIf(testEngine === 'postgres')('fan-out claims on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Claims up to 500 events in a transaction: how many it took, and the index entries it read. */
  const claim = () =>
    t.db.transaction().execute(async (trx) => {
      // The connection's count not yet sent to the statistics (it adds up over transactions): before and after.
      const entriesRead = async () => Number((await sql<{ read: string }>`select pg_stat_get_xact_tuples_returned('workspace_events_unfanned_idx'::regclass) as read`.execute(trx)).rows[0]!.read);
      const before = await entriesRead();
      const taken = await claimUnfannedEvents(trx, 500, new Date().toISOString());
      return { taken: taken.length, read: (await entriesRead()) - before };
    });

  it('read only the events still to take, not the entries of those taken before', async () => {
    const ws = (await t.workspace()).id;
    const at = new Date().toISOString();
    await insertEvents(t.db, ws, Array.from({ length: 3000 }, (_, i) => ({ type: 'tag_added', contact_id: null, source_id: null, body: `{"n":${i}}`, occurred_at: at })));
    const taken: number[] = [];
    for (let i = 0; i < 7; i++) taken.push((await claim()).taken);
    expect(taken).toEqual([500, 500, 500, 500, 500, 500, 0]);
    // The seventh claim marked the last batch's entries dead as it passed them.
    const after = await claim();
    expect(after).toEqual({ taken: 0, read: 0 });
  });

  it('answers and leaves the planner as it was for the rest of the transaction', async () => {
    const settings = await t.db.transaction().execute(async (trx) => {
      await claimUnfannedEvents(trx, 500, new Date().toISOString());
      const { rows } = await sql<{ bitmap: string; seq: string }>`select current_setting('enable_bitmapscan') as bitmap, current_setting('enable_seqscan') as seq`.execute(trx);
      return rows[0];
    });
    expect(settings).toEqual({ bitmap: 'on', seq: 'on' });
  });
});
