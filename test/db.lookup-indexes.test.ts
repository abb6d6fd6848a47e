import { Kysely, sql } from 'kysely';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { findLiveTokenByHash } from '../src/domain/auth/api-token.repository.js';
import { findContactByEmail, findContactByPhone } from '../src/domain/contacts/contact.repository.js';
import { countMonthlyActiveContacts } from '../src/domain/workspaces/plan.repository.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * The lookups the platform depends on are index searches, checked on the SQL our repositories
 * really send: each statement is captured as it runs and handed back to the engine's planner.
 * PostgreSQL is told not to scan tables, so a plan without an index means no index can serve it.
 */
describe(`lookup indexes on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let recording: RecordingHandle;
  let db: Kysely<DB>;

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    recording = await openRecordingHandle(target.url, { migrate: true, forbidSeqScans: true });
    db = recording.db;

    // Realistic statistics: three workspaces of contacts spread over a year.
    const at = '2026-01-01T00:00:00.000Z';
    for (let w = 1; w <= 3; w++) {
      await db.insertInto('workspaces').values({ name: `W${w}`, development_mode: 0, created_at: at, updated_at: at }).execute();
      for (let chunk = 0; chunk < 4; chunk++) {
        await db
          .insertInto('contacts')
          .values(
            Array.from({ length: 500 }, (_, i) => {
              const n = chunk * 500 + i;
              const day = new Date(Date.UTC(2026, 0, 1) + (n % 330) * 86_400_000).toISOString();
              return {
                workspace_id: w, email: `person${n}@example.com`, phone_number: `+1415${String(n).padStart(7, '0')}`, gender: 'unknown',
                email_verified: 0, email_opt_in: 0, last_message_at: n % 3 ? day : null, created_at: day, updated_at: day,
              };
            }),
          )
          .execute();
      }
    }
    await db
      .insertInto('api_tokens')
      .values(
        Array.from({ length: 600 }, (_, i) => ({
          workspace_id: 1 + (i % 3), kind: 'developer' as const, user_id: null, name: 'token', token_hash: createHash('sha256').update(String(i)).digest('hex'),
          token_prefix: 'mdev_abcd', permission: 'full' as const, scopes: null, created_at: at, revoked_at: i % 10 ? null : at,
        })),
      )
      .execute();
    await sql`analyze`.execute(db);
  });
  afterAll(async () => {
    await recording?.close();
    await target.drop();
  });

  const usesIndex = (plan: string, index: string) =>
    testEngine === 'postgres'
      ? new RegExp(`Index (Only )?Scan using ${index}\\b|Bitmap Index Scan on ${index}\\b`).test(plan)
      : new RegExp(`(SEARCH|SCAN) \\w+ USING (COVERING )?INDEX ${index}\\b`).test(plan);

  it('finds a contact by email through the case-insensitive email index', async () => {
    const [plan] = await recording.plansOf(() => findContactByEmail(db, 1, 'Ada@Example.com'));
    expect(usesIndex(plan, 'contacts_workspace_email_uq'), plan).toBe(true);
  });

  it('finds a contact by phone number through the phone index', async () => {
    const [plan] = await recording.plansOf(() => findContactByPhone(db, 1, '+14155550100'));
    expect(usesIndex(plan, 'contacts_workspace_phone_uq'), plan).toBe(true);
  });

  it('finds a token by its hash through the unique hash index', async () => {
    const [plan] = await recording.plansOf(() => findLiveTokenByHash(db, 'f'.repeat(64)));
    const index = testEngine === 'postgres' ? 'api_tokens_token_hash_key' : 'sqlite_autoindex_api_tokens_1';
    expect(usesIndex(plan, index), plan).toBe(true);
  });

  it('counts monthly active contacts with two index range searches', async () => {
    const plans = await recording.plansOf(() => countMonthlyActiveContacts(db, 1, new Date('2026-11-15T00:00:00Z')));
    expect(plans).toHaveLength(2);
    expect(usesIndex(plans[0], 'contacts_workspace_created_idx'), plans[0]).toBe(true);
    expect(usesIndex(plans[1], 'contacts_workspace_message_idx'), plans[1]).toBe(true);
  });
});
