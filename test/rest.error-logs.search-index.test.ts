import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { countErrorLogs, listErrorLogs } from '../src/domain/error-logs/error-log.repository.js';
import { testEngine } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * The error-log keyword search must be served by its workspace trigram index, not a scan of the
 * logs: the FTS5 table error_logs_search on SQLite, the GIN indexes on workspace_trigrams() on
 * PostgreSQL. This runs the repository's
 * real statements (count and page) and asks each engine for their query plans.
 */
describe('error-log keyword search uses the trigram index', () => {
  let t: TestApp;
  let recording: RecordingHandle;
  let db: Kysely<DB>;
  let workspaceId: number;

  beforeAll(async () => {
    t = await createTestApp();
    workspaceId = (await t.workspace()).id;
    const other = (await t.workspace({ name: 'Other' })).id;
    // A second handle on the same database that records the SQL it runs.
    recording = await openRecordingHandle(t.app.deps.config.DATABASE_URL);
    db = recording.db;

    const now = '2026-11-01T10:00:00.000Z';
    const phrases = ['Message blocked by recipient', 'Token expired for page', 'Rate limit hit', 'Timeout after 30s', 'Invalid attachment'];
    for (let batch = 0; batch < 10; batch++) {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const n = batch * 1000 + i;
        return {
          workspace_id: n % 100 === 1 ? other : workspaceId,
          contact_id: null,
          action: `action${n % 13}`,
          detail: `${phrases[n % phrases.length]} (ref ${n})`,
          http_code: '400',
          created_at: now,
          updated_at: now,
        };
      });
      await t.db.insertInto('error_logs').values(rows).execute();
    }
    await fixtures(t.db, workspaceId).errorLog('Xylophone webhook answered 500', { action: 'callWebhook', at: now });
    await fixtures(t.db, other).errorLog('Xylophone in another workspace', { action: 'callWebhook', at: now });
    // As after any bulk load on PostgreSQL: VACUUM also brings the GIN indexes' own statistics up to
    // date (ANALYZE alone does not); without them PostgreSQL misjudges the trigram indexes' cost.
    // SQLite is left without statistics, as a database made by `npm start` or the CLI seed is.
    if (testEngine === 'postgres') await sql`vacuum analyze error_logs`.execute(t.db);
  });
  afterAll(async () => {
    await recording.close();
    await t.close();
  });

  it('finds the matching logs of the workspace only', async () => {
    expect(await countErrorLogs(db, workspaceId, '(REF 4242)')).toBe(1);
    expect((await listErrorLogs(db, workspaceId, { keyword: 'ref 4242', limit: 50, offset: 0 })).map((l) => l.detail)).toEqual([
      'Rate limit hit (ref 4242)',
    ]);
    expect(await countErrorLogs(db, workspaceId, 'ref 4201')).toBe(0);
    expect((await listErrorLogs(db, workspaceId, { keyword: 'XYLOPHONE', limit: 50, offset: 0 })).map((l) => l.detail)).toEqual([
      'Xylophone webhook answered 500',
    ]);
  });

  it('plans the count and the page through the trigram index', async () => {
    const plans = await recording.plansOf(async () => {
      await countErrorLogs(db, workspaceId, 'xylophone');
      await listErrorLogs(db, workspaceId, { keyword: 'xylophone', limit: 50, offset: 0 });
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      if (testEngine === 'postgres') {
        expect(plan).toContain('error_logs_search_tokens_idx');
        expect(plan).not.toContain('Seq Scan on error_logs');
      } else {
        expect(plan).toMatch(/SCAN error_logs_search VIRTUAL TABLE/);
        expect(plan).toMatch(/SEARCH error_logs USING INTEGER PRIMARY KEY/);
        // Walking the workspace's created_at index and probing the matches costs a read per log.
        expect(plan).not.toContain('error_logs_workspace_created_idx');
        expect(plan).not.toMatch(/SCAN error_logs\b(?!_search)/);
      }
    }
  });
});
