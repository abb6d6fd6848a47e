import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimUnfannedEvents, insertEvents } from '../src/domain/workspace-events/workspace-event.repository.js';
import { testEngine } from './support/engine.js';
import { createTestApp, type TestApp } from './support/harness.js';

/**
 * Each event the fan-out takes leaves a dead entry in the partial index of unfanned events until
 * VACUUM runs. A claim that walks the index in order marks the entries it passes dead, so the
 * next claims skip them; a bitmap scan never does, and each claim then read every event taken
 * since the last VACUUM (src/domain/workspace-events/workspace-event.repository.ts).
 *
 * Whether an entry gets marked depends on every open transaction of the cluster (the other test
 * files' too), so the test asks for what the claim controls: its rows come through an ordered
 * scan of that index. PostgreSQL counts the rows an index scan fetches for the index; a bitmap
 * scan's rows are not counted there. Counted for the claim's own transaction.
 */
describe.runIf(testEngine === 'postgres')('fan-out claims on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Claims up to 500 events in a transaction: how many it took, and how many rows an ordered scan of the index fetched. */
  const claim = () =>
    t.db.transaction().execute(async (trx) => {
      // The connection's count not yet sent to the statistics (it adds up over transactions): before and after.
      const fetched = async () => Number((await sql<{ n: string }>`select pg_stat_get_xact_tuples_fetched('workspace_events_unfanned_idx'::regclass) as n`.execute(trx)).rows[0]!.n);
      const before = await fetched();
      const taken = await claimUnfannedEvents(trx, 500, new Date().toISOString());
      return { taken: taken.length, fetched: (await fetched()) - before };
    });

  it('take their events through an ordered scan of the partial index, which marks the entries it passes', async () => {
    const ws = (await t.workspace()).id;
    const at = new Date().toISOString();
    await insertEvents(t.db, ws, Array.from({ length: 3000 }, (_, i) => ({ type: 'tag_added', contact_id: null, source_id: null, body: `{"n":${i}}`, occurred_at: at })));
    const claims = [];
    for (let i = 0; i < 7; i++) claims.push(await claim());
    expect(claims).toEqual([...Array.from({ length: 6 }, () => ({ taken: 500, fetched: 500 })), { taken: 0, fetched: 0 }]);
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
