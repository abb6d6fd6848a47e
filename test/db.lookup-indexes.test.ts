import { Kysely, PostgresDialect, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { findLiveTokenByHash } from '../src/domain/auth/api-token.repository.js';
import { findContactByEmail, findContactByPhone } from '../src/domain/contacts/contact.repository.js';
import { countMonthlyActiveContacts } from '../src/domain/workspaces/plan.repository.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';

/**
 * The lookups the platform depends on are index searches, checked on the SQL our repositories
 * really send: each statement is captured as it runs and handed back to the engine's planner.
 * PostgreSQL is told not to scan tables, so a plan without an index means no index can serve it.
 */
describe(`lookup indexes on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let db: Kysely<DB>;
  let captured: CompiledQuery[] = [];
  let explain: (q: CompiledQuery) => Promise<string>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    const log = (e: { query: CompiledQuery }) => void captured.push(e.query);
    if (testEngine === 'postgres') {
      const pool = new pg.Pool({ connectionString: target.url, max: 1 });
      db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
      await migrateToLatest(db);
      explain = async (q) => {
        const client = await pool.connect();
        try {
          await client.query('set enable_seqscan = off');
          const { rows } = await client.query(`explain ${q.sql}`, q.parameters as unknown[]);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        } finally {
          await client.query('reset enable_seqscan');
          client.release();
        }
      };
    } else {
      const sqlite = new SqliteDatabase(target.url);
      db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }), log });
      await migrateToLatest(db);
      explain = async (q) =>
        (sqlite.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail).join('\n');
    }
    close = () => db.destroy();

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
    await close?.();
    await target.drop();
  });

  const plansOf = async (run: () => Promise<unknown>): Promise<string[]> => {
    captured = [];
    await run();
    return Promise.all(captured.map(explain));
  };
  const usesIndex = (plan: string, index: string) =>
    testEngine === 'postgres'
      ? new RegExp(`Index (Only )?Scan using ${index}\\b|Bitmap Index Scan on ${index}\\b`).test(plan)
      : new RegExp(`(SEARCH|SCAN) \\w+ USING (COVERING )?INDEX ${index}\\b`).test(plan);

  it('finds a contact by email through the case-insensitive email index', async () => {
    const [plan] = await plansOf(() => findContactByEmail(db, 1, 'Ada@Example.com'));
    expect(usesIndex(plan, 'contacts_workspace_email_uq'), plan).toBe(true);
  });

  it('finds a contact by phone number through the phone index', async () => {
    const [plan] = await plansOf(() => findContactByPhone(db, 1, '+14155550100'));
    expect(usesIndex(plan, 'contacts_workspace_phone_uq'), plan).toBe(true);
  });

  it('finds a token by its hash through the unique hash index', async () => {
    const [plan] = await plansOf(() => findLiveTokenByHash(db, 'f'.repeat(64)));
    const index = testEngine === 'postgres' ? 'api_tokens_token_hash_key' : 'sqlite_autoindex_api_tokens_1';
    expect(usesIndex(plan, index), plan).toBe(true);
  });

  it('counts monthly active contacts with two index range searches', async () => {
    const plans = await plansOf(() => countMonthlyActiveContacts(db, 1, new Date('2026-11-15T00:00:00Z')));
    expect(plans).toHaveLength(2);
    expect(usesIndex(plans[0], 'contacts_workspace_created_idx'), plans[0]).toBe(true);
    expect(usesIndex(plans[1], 'contacts_workspace_message_idx'), plans[1]).toBe(true);
  });
});
