import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { listContacts } from '../src/domain/contacts/contact.repository.js';
import { testEngine } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * The contacts keyword search (GraphQL `contacts(keyword:)`) must be served by its workspace
 * trigram index, not a walk over every contact of the workspace: the FTS5 table contacts_search on
 * SQLite, the GIN index on the stored tokens (search_tokens) on PostgreSQL. A keyword matching more
 * contacts than a page needs many times over walks the workspace's creation-time order instead and
 * stops after a page (on both engines the workspace's candidates are counted first, up to 1,001).
 * This runs the repository's real statements and asks each engine for their query plans.
 */
describe('contact keyword search uses the trigram index', () => {
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

    const firsts = ['Ava', 'Liam', 'Sofia', 'Noah', 'Mia', 'Lucas', 'Emma', 'Mateo'];
    const lasts = ['Garcia', 'Smith', 'Rossi', 'Tanaka', 'Okafor', 'Dubois', 'Silva'];
    for (let batch = 0; batch < 10; batch++) {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const n = batch * 1000 + i;
        const at = new Date(Date.UTC(2026, 0, 1) + ((n * 7919) % 10_000) * 60_000).toISOString();
        return {
          workspace_id: n % 100 === 1 ? other : workspaceId,
          first_name: firsts[n % firsts.length],
          last_name: lasts[n % lasts.length],
          email: `person${n}@example.com`,
          phone_number: `+1415${String(n).padStart(7, '0')}`,
          gender: 'unknown' as const,
          email_verified: 0,
          email_opt_in: 0,
          created_at: at,
          updated_at: at,
        };
      });
      await t.db.insertInto('contacts').values(rows).execute();
    }
    await fixtures(t.db, workspaceId).contact({ firstName: 'Ada', lastName: 'Xylophone', createdAt: '2026-03-01T00:00:00.000Z' });
    await fixtures(t.db, workspaceId).contact({ firstName: 'Bea', lastName: 'Xylophone', createdAt: '2026-02-01T00:00:00.000Z' });
    await fixtures(t.db, other).contact({ firstName: 'Cy', lastName: 'Xylophone' });
    // As after any bulk load on PostgreSQL (see rest.error-logs.search-index.test.ts). SQLite is left
    // without statistics, as a database made by `npm start` or the CLI seed is.
    if (testEngine === 'postgres') await sql`vacuum analyze contacts`.execute(t.db);
  });
  afterAll(async () => {
    await recording.close();
    await t.close();
  });

  /** The statements `run` executes with their plans: the pages (from contacts) and the rest. */
  async function plansOf(run: () => Promise<unknown>): Promise<{ pages: string[]; others: string[] }> {
    const planned = await recording.statementsOf(run);
    const isPage = (s: { sql: string }) => !s.sql.startsWith('select count(*)');
    return { pages: planned.filter(isPage).map((s) => s.plan), others: planned.filter((s) => !isPage(s)).map((s) => s.plan) };
  }
  /** SQLite: the count of trigram matches (up to a bound) that decides how a page is read. */
  const isMatchCount = (plan: string) =>
    expect(plan.split('\n').filter((l) => l.includes('contacts'))).toEqual(['SCAN contacts_search VIRTUAL TABLE INDEX 0:M1']);

  const names = (rows: { firstName: string | null; lastName: string | null }[]) => rows.map((c) => `${c.firstName} ${c.lastName}`);

  it('finds the matching contacts of the workspace only, newest first, page after page', async () => {
    expect(names(await listContacts(db, workspaceId, { limit: 10, keyword: 'a XYLO' }))).toEqual(['Ada Xylophone', 'Bea Xylophone']);
    const [first] = await listContacts(db, workspaceId, { limit: 1, keyword: 'xylophone' });
    const after = { createdAt: first.createdAt, id: Number(first.id) };
    expect(names(await listContacts(db, workspaceId, { limit: 10, keyword: 'xylophone', after }))).toEqual(['Bea Xylophone']);
    expect(await listContacts(db, workspaceId, { limit: 10, keyword: 'person101@' })).toEqual([]);
    expect((await listContacts(db, workspaceId, { limit: 10, keyword: 'example.com' })).length).toBe(10);
  });

  it('plans a rare keyword (first page and after a cursor) through the trigram index', async () => {
    const { pages, others } = await plansOf(async () => {
      const [first] = await listContacts(db, workspaceId, { limit: 21, keyword: 'xylophone' });
      await listContacts(db, workspaceId, { limit: 21, keyword: 'xylophone', after: { createdAt: first.createdAt, id: Number(first.id) } });
    });
    expect(pages).toHaveLength(2);
    for (const plan of pages) {
      if (testEngine === 'postgres') {
        expect(plan).toContain('contacts_search_tokens_idx');
        expect(plan).not.toContain('Seq Scan on contacts');
      } else {
        expect(plan).toMatch(/SCAN contacts_search VIRTUAL TABLE/);
        expect(plan).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY/);
        // Walking the workspace's created_at index and probing the matches costs a read per contact.
        expect(plan).not.toContain('contacts_workspace_created_idx');
        expect(plan).not.toMatch(/SCAN contacts\b(?!_search)/);
      }
    }
    expect(others).toHaveLength(2);
    if (testEngine === 'postgres') for (const plan of others) expect(plan).toContain('contacts_search_tokens_idx');
    else others.forEach(isMatchCount);
  });

  it('plans a keyword most contacts match as a walk in page order that stops after a page', async () => {
    const { pages, others } = await plansOf(() => listContacts(db, workspaceId, { limit: 21, keyword: 'example.com' }));
    expect(pages).toHaveLength(1);
    expect(others).toHaveLength(1);
    if (testEngine === 'postgres') {
      // A chunk of the workspace in page order, read backwards along its created_at index.
      expect(pages[0]).toContain('Index Scan Backward using contacts_workspace_created_idx');
      expect(pages[0]).not.toContain('Seq Scan on contacts');
      // The count of candidates stops at 1,001, whatever plan reads them.
      expect(others[0]).toMatch(/Limit/);
    } else {
      expect(pages[0]).toMatch(/^SEARCH contacts USING INDEX contacts_workspace_created_idx \(workspace_id=\?\)/);
      expect(pages[0]).not.toContain('TEMP B-TREE');
      others.forEach(isMatchCount);
    }
  });
});
