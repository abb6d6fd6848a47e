import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type Database } from '../../src/db/database.js';

/**
 * The engine a test run uses: SQLite by default (a temp file per database), PostgreSQL when
 * TEST_ENGINE=postgres with TEST_POSTGRES_URL. On PostgreSQL each test database is a fresh schema,
 * so test files run in parallel without seeing each other's rows; the schemas are dropped after the
 * run (see postgres-schemas.global.ts).
 */
export const testEngine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
export const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const redisUrl = process.env.TEST_REDIS_URL || undefined;

export interface TestDatabaseUrl {
  url: string;
  drop: () => Promise<void>;
}

/**
 * The migration runs `create extension if not exists pg_trgm`, which installs the extension into
 * the first schema of the search path. In a test schema, the first test file to migrate would own
 * the extension, and dropping its schema would drop it under every other file running at the same
 * time. Installing it once in `public` (kept on every test search path) avoids that; concurrent
 * first installs race on the catalogue, so a duplicate error just means another file won.
 */
async function ensureSharedExtensions(admin: pg.Client): Promise<string> {
  try {
    await admin.query('create extension if not exists pg_trgm with schema public');
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42710') throw err;
  }
  // Someone may have installed it elsewhere first: that schema goes on the search path.
  const { rows } = await admin.query<{ schema: string }>(
    `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
  );
  return rows[0]?.schema ?? 'public';
}

export async function freshDatabaseUrl(): Promise<TestDatabaseUrl> {
  if (testEngine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'msgapi-test-'));
    return { url: join(dir, 'test.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `t_${inject('testRunStart')}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  const extensionSchema = await ensureSharedExtensions(admin);
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(postgresUrl);
  // The extension's schema stays on the path for pg_trgm's operator classes, last, so that no
  // table of another schema can stand in for one of ours.
  url.searchParams.set('options', `-c search_path=${[...new Set([schema, 'public', extensionSchema])].join(',')}`);
  return {
    url: url.toString(),
    // Dropped with the run's other schemas when the run ends, not now (see the global setup).
    drop: async () => {},
  };
}

export interface FreshDatabase {
  url: string;
  /** A connection of the test's own to it (`createDatabase`), unmigrated. */
  database: Database;
  /** Disconnects, then drops the database. */
  close: () => Promise<void>;
}

/** A fresh test database (freshDatabaseUrl) with a connection to it. */
export async function freshDatabase(): Promise<FreshDatabase> {
  const target = await freshDatabaseUrl();
  const database = createDatabase(target.url);
  return {
    url: target.url,
    database,
    close: async () => {
      await database.destroy();
      await target.drop();
    },
  };
}
