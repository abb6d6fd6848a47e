import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEARCHED_MATCHES } from '../src/domain/error-logs/error-log.service.js';
import { testEngine } from './support/engine.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A keyword search reaches the newest SEARCHED_MATCHES matches (docs/rest.md, "Keyword search"):
 * pageCount is exact up to them and stops there, a page past them is empty, and the pages it has
 * are exactly LIKE's matches, newest first, on either path (the trigram index for a keyword with
 * few matches, the walk in date order for a common one).
 */
describe('GET /v1/error-logs?keyword= with more matches than a search reaches', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  /** Ids of the "timed out" logs, newest first. */
  let timedOut: string[];
  const list = (query: string) => t.request('GET', `/v1/error-logs?${query}`, { token: ws.developerToken });
  const minute = (i: number) => new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace();
    const other = await t.workspace({ name: 'Other' });
    // 1,300 logs; every third says "timed out" (434 of them), every fifth names a rare reference
    // (260); and 1,100 more "timed out" logs in another workspace, which no search here may count.
    const rows = Array.from({ length: 1300 }, (_, i) => ({
      workspace_id: ws.id,
      contact_id: null,
      action: i % 7 === 0 ? 'callWebhook' : 'sendMessage',
      detail: `${i % 3 === 0 ? 'Request Timed Out' : 'Recipient blocked'} after ${i} tries${i % 5 === 0 ? ' (batch #77)' : ''}`,
      http_code: '504',
      created_at: minute(i),
      updated_at: minute(i),
    }));
    // Then enough "timed out" logs to pass the bound: 434 + 700 = 1,134 matches in all.
    const more = Array.from({ length: 700 }, (_, i) => ({ ...rows[0], detail: `Upstream timed out (${i})`, created_at: minute(2000 + i), updated_at: minute(2000 + i) }));
    const elsewhere = Array.from({ length: 1100 }, (_, i) => ({ ...rows[0], workspace_id: other.id, detail: `timed out elsewhere ${i}` }));
    for (const batch of [rows, more, elsewhere]) {
      for (let i = 0; i < batch.length; i += 500) await t.db.insertInto('error_logs').values(batch.slice(i, i + 500)).execute();
    }
    if (testEngine === 'postgres') await sql`vacuum analyze error_logs`.execute(t.db);
    const ids = await t.db
      .selectFrom('error_logs')
      .select('id')
      .where('workspace_id', '=', ws.id)
      .where((eb) => eb(eb.fn('lower', ['detail']), 'like', '%timed out%'))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    timedOut = ids.map((r) => String(r.id));
  });
  afterAll(() => t.close());

  it('counts the pages of the newest 1,000 matches and serves each of them, newest first', async () => {
    expect(SEARCHED_MATCHES).toBe(1000);
    expect(timedOut).toHaveLength(1134);
    const first = await list('keyword=timed%20out&perPage=50');
    expect(first.status).toBe(200);
    expect(first.body.pageCount).toBe(20);
    expect(first.body.data.map((l: { id: string }) => l.id)).toEqual(timedOut.slice(0, 50));
    // Every page the count names, asked again now that the keyword is known to be common.
    for (const page of [2, 11, 20]) {
      const res = await list(`keyword=timed%20out&perPage=50&page=${page}`);
      expect(res.body.pageCount).toBe(20);
      expect(res.body.data.map((l: { id: string }) => l.id)).toEqual(timedOut.slice((page - 1) * 50, page * 50));
    }
    const past = await list('keyword=timed%20out&perPage=50&page=21');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], pageCount: 20 });
    // The same bound whatever the page size: 1,000 matches in pages of 7.
    expect((await list('keyword=TIMED%20OUT&perPage=7')).body.pageCount).toBe(143);
  });

  it('counts exactly below the bound, and a keyword too short for the trigram index the same way', async () => {
    const rare = await list('keyword=%2377&perPage=50');
    expect(rare.body.pageCount).toBe(6);
    expect(rare.body.data).toHaveLength(50);
    expect(rare.body.data.every((l: { detail: string }) => l.detail.includes('#77'))).toBe(true);
    expect((await list('keyword=%2377&perPage=50&page=6')).body.data).toHaveLength(10);
    // "ut" has no trigram: LIKE walks the logs; every "timed out" and nothing else holds it.
    expect((await list('keyword=ut&perPage=50')).body.pageCount).toBe(20);
    expect((await list('keyword=xyz&perPage=50')).body).toEqual({ data: [], pageCount: 0 });
  });

  it('answers GraphQL the same', async () => {
    const res = await t.graphql('query($k: String) { errorLogs(keyword: $k, perPage: 50, page: 20) { pageCount data { rawId } } }', { k: 'timed out' }, { token: ws.developerToken });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.errorLogs.pageCount).toBe(20);
    expect(res.body.data.errorLogs.data.map((l: { rawId: string }) => l.rawId)).toEqual(timedOut.slice(950, 1000));
  });

  it('counts a keyword judged common again once 15 s have passed', async () => {
    // Fewer than 1,000 "timed out" logs are left. For 15 s the keyword still counts as common
    // (pages past the matches are then empty); a keyword not judged common is counted exactly.
    await t.db.deleteFrom('error_logs').where('workspace_id', '=', ws.id).where('detail', 'like', 'Upstream timed out%').execute();
    expect((await list('keyword=timed%20out&perPage=50')).body.pageCount).toBe(20);
    expect((await list('keyword=Timed%20Out&perPage=50')).body.pageCount).toBe(9);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 15_001);
    try {
      expect((await list('keyword=timed%20out&perPage=50')).body.pageCount).toBe(9);
    } finally {
      clock.mockRestore();
    }
  });
});
