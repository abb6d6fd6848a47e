import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { contactsWithValue, countContactsWithValue } from '../src/domain/custom-fields/custom-field.repository.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * find-by-custom-field (GET /v1/contacts/find-by-custom-field) reads only the matching values: the
 * count and the page are served by contact_custom_fields_field_value_idx (workspace_id,
 * custom_field_id, value) on both engines. Checked on the SQL the repository really sends, handed
 * back to the engine's planner. SQLite has no statistics; PostgreSQL has them and is told not to
 * scan tables, so a plan that still scans means no index can serve the lookup.
 */
describe(`find-by-custom-field index on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let recording: RecordingHandle;
  let db: Kysely<DB>;

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    recording = await openRecordingHandle(target.url, { migrate: true, forbidSeqScans: true });
    db = recording.db;
    const at = '2026-01-01T00:00:00.000Z';
    const stamps = { created_at: at, updated_at: at };
    const insert = async (table: 'workspaces' | 'contacts' | 'custom_fields' | 'contact_custom_fields', values: object[]) => {
      for (let i = 0; i < values.length; i += 500) await db.insertInto(table).values(values.slice(i, i + 500) as never).execute();
    };
    // Workspace 2 (the one searched) holds a tenth of the contacts among a large workspace's (1).
    await insert('workspaces', [1, 2].map((n) => ({ name: `W${n}`, development_mode: 0, ...stamps })));
    const workspaceOf = (n: number) => (n % 10 === 0 ? 2 : 1);
    await insert('contacts', Array.from({ length: 3000 }, (_, n) => ({ workspace_id: workspaceOf(n), email: `p${n}@example.com`, gender: 'unknown', email_verified: 0, email_opt_in: 0, ...stamps })));
    // Fields 1-3 belong to workspace 1, 4-6 to workspace 2.
    await insert('custom_fields', Array.from({ length: 6 }, (_, i) => ({ workspace_id: i < 3 ? 1 : 2, name: `F${i}`, description: '', type: 'number', ...stamps })));
    // Every contact has a value for each of its workspace's three fields; values repeat every 50.
    await insert(
      'contact_custom_fields',
      Array.from({ length: 3000 }, (_, n) =>
        [0, 1, 2].map((k) => ({
          workspace_id: workspaceOf(n),
          contact_id: n + 1,
          custom_field_id: (workspaceOf(n) === 1 ? 1 : 4) + k,
          value: String((n * 7 + k) % 50),
          ...stamps,
        })),
      ).flat(),
    );
    if (testEngine === 'postgres') await sql`vacuum analyze`.execute(db);
  });
  afterAll(async () => {
    await recording?.close();
    await target.drop();
  });

  const usesValueIndex = (plan: string) =>
    testEngine === 'postgres'
      ? /(Index (Only )?Scan using|Bitmap Index Scan on) contact_custom_fields_field_value_idx\b/.test(plan) && !/Seq Scan on contact_custom_fields/.test(plan)
      : /SEARCH v USING (COVERING )?INDEX contact_custom_fields_field_value_idx \(workspace_id=\? AND custom_field_id=\? AND value=\?\)/.test(plan) && !/SCAN v\b/.test(plan);

  it('counts and pages the matching values from (workspace_id, custom_field_id, value)', async () => {
    let found = 0;
    const statements = await recording.statementsOf(async () => {
      found = await countContactsWithValue(db, 2, 5, '21');
      await contactsWithValue(db, 2, 5, '21', { limit: 20, offset: 0 });
    });
    expect(found).toBeGreaterThan(0);
    expect(statements).toHaveLength(2);
    for (const s of statements) expect(usesValueIndex(s.plan), `${s.sql}\n${s.plan}`).toBe(true);
  });
});
