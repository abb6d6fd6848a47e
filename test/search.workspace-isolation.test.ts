import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { listContacts } from '../src/domain/contacts/contact.repository.js';
import { countDynamicImages, listDynamicImages } from '../src/domain/dynamic-images/dynamic-image.repository.js';
import { countErrorLogs, listErrorLogs } from '../src/domain/error-logs/error-log.repository.js';
import { testEngine } from './support/engine.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * The cost of a keyword search depends only on the caller's own rows: another workspace filling up
 * with rows that match the keyword changes neither the statements a search from this workspace
 * runs, nor their plans, nor the work they do. Before the workspace trigram indexes, the trigram
 * lists held every workspace's rows: a search read (or counted) the others' matches too, and its
 * time told whether other workspaces' contacts, logs or image names contained a string. (On SQLite
 * the image-name filter walks the workspace's own rows by (workspace_id, created_at, id): its plan
 * is that search, by the workspace.)
 *
 * Work: PostgreSQL's `explain analyze` rows at every plan node (an index scan's rows are the index
 * entries it read); SQLite has no per-statement counters in this build, so the rows each FTS5 MATCH
 * of the statement yields (the index entries it reads) beside the plan.
 */
describe('keyword search cost does not depend on other workspaces', () => {
  let t: TestApp;
  let recording: RecordingHandle;
  let db: Kysely<DB>;
  let mine: number;
  let other: number;
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

  async function addContacts(workspaceId: number, count: number, name: (n: number) => string, offset: number) {
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => {
        const n = offset + start + i;
        return {
          workspace_id: workspaceId,
          first_name: name(n),
          last_name: 'Person',
          email: `p${n}@example.com`,
          phone_number: `+1415${String(n).padStart(7, '0')}`,
          gender: 'unknown' as const,
          email_verified: 0,
          email_opt_in: 0,
          created_at: at(n),
          updated_at: at(n),
        };
      });
      await t.db.insertInto('contacts').values(rows).execute();
    }
  }
  async function addLogs(workspaceId: number, count: number, detail: (n: number) => string) {
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({
        workspace_id: workspaceId,
        contact_id: null,
        action: 'sendMessage',
        detail: detail(start + i),
        http_code: '400',
        created_at: at(start + i),
        updated_at: at(start + i),
      }));
      await t.db.insertInto('error_logs').values(rows).execute();
    }
  }
  async function addImages(workspaceId: number, count: number, name: (n: number) => string) {
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({
        workspace_id: workspaceId,
        name: name(start + i),
        custom_field_id: null,
        background_url: '',
        image_url: '',
        enabled: 1,
        data: '{"width":100,"height":100,"elements":[]}',
        created_at: at(start + i),
        updated_at: at(start + i),
      }));
      await t.db.insertInto('dynamic_images').values(rows).execute();
    }
  }
  async function analyze() {
    if (testEngine === 'postgres') await sql`vacuum analyze contacts, error_logs, dynamic_images`.execute(t.db);
  }

  /** Each statement the searches of `mine` run: SQL, parameters, plan and the work it did. */
  async function searchesOfMine(keyword: string) {
    const statements = await recording.statementsOf(async () => {
      await listContacts(db, mine, { limit: 21, keyword });
      await countErrorLogs(db, mine, keyword);
      await listErrorLogs(db, mine, { keyword, limit: 50, offset: 0 });
      await countDynamicImages(db, mine, keyword);
      await listDynamicImages(db, mine, { name: keyword, limit: 20, offset: 0 });
    });
    // PostgreSQL's cost estimates scale with the whole table's statistics; the plan's shape and the
    // work done are what must not move.
    return Promise.all(statements.map(async (s) => ({ ...s, plan: s.plan.replace(/ +\(cost=[^)]*\)/g, ''), work: await workOf(s.sql, s.parameters) })));
  }
  async function workOf(text: string, parameters: readonly unknown[]): Promise<string[]> {
    if (testEngine === 'postgres') {
      const { rows } = await t.db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, costs off, timing off, summary off) ${text}`, [...parameters]));
      return rows.map((r) => r['QUERY PLAN']);
    }
    const matched: string[] = [];
    for (const table of ['contacts_search', 'error_logs_search']) {
      if (!text.includes(`"${table}" match ?`)) continue;
      for (const p of parameters.filter((v): v is string => typeof v === 'string' && /\bOR w\d+xlong$/.test(v))) {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${sql.table(table)} match ${p}`.execute(t.db);
        matched.push(`${table} ${p}: ${rows[0].n}`);
      }
    }
    return matched;
  }

  beforeAll(async () => {
    t = await createTestApp();
    mine = (await t.workspace({ name: 'Mine' })).id;
    other = (await t.workspace({ name: 'Other' })).id;
    recording = await openRecordingHandle(t.app.deps.config.DATABASE_URL);
    db = recording.db;
    await addContacts(mine, 300, (n) => ['Ava', 'Liam', 'Sofia'][n % 3], 0);
    await addContacts(other, 300, (n) => ['Noah', 'Mia', 'Emma'][n % 3], 300);
    await addLogs(mine, 300, (n) => `Message blocked by recipient (ref ${n})`);
    await addLogs(other, 300, (n) => `Token expired for page (ref ${n})`);
    await addImages(mine, 300, (n) => `Birthday card ${n}`);
    await addImages(other, 300, (n) => `Order summary ${n}`);
    await analyze();
  });
  afterAll(async () => {
    await recording.close();
    await t.close();
  });

  it('finds nothing in this workspace, however many matches another workspace holds', async () => {
    const before = await searchesOfMine('zebra');
    expect(before.length).toBeGreaterThan(0);
    await addContacts(other, 5000, (n) => `Zebra${n}`, 10_000);
    await addLogs(other, 5000, (n) => `zebra crossing failed (ref ${n})`);
    await addImages(other, 5000, (n) => `Zebra banner ${n}`);
    await analyze();
    const after = await searchesOfMine('zebra');
    expect(after).toEqual(before);
    if (testEngine === 'sqlite') expect(after.flatMap((s) => s.work)).toEqual(expect.arrayContaining([expect.stringMatching(/^contacts_search .*: 0$/)]));
    // Other's searches do find them.
    expect(await countErrorLogs(db, other, 'zebra')).toBe(5000);
    expect(await listContacts(db, other, { limit: 3, keyword: 'ZEBRA' })).toHaveLength(3);
    expect(await listContacts(db, mine, { limit: 3, keyword: 'zebra' })).toEqual([]);
    expect(await countDynamicImages(db, other, 'ZEBRA')).toBe(5000);
    expect(await listDynamicImages(db, mine, { name: 'zebra', limit: 20, offset: 0 })).toEqual([]);
  });
});
