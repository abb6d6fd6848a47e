import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The engine a test run uses: SQLite by default (a temp file per database), PostgreSQL when
 * TEST_ENGINE=postgres with TEST_POSTGRES_URL. On PostgreSQL each test database is a fresh schema,
 * so test files run in parallel without seeing each other's rows.
 */
export const testEngine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
export const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const redisUrl = process.env.TEST_REDIS_URL || undefined;

export interface TestDatabaseUrl {
  url: string;
  drop: () => Promise<void>;
}

export async function freshDatabaseUrl(): Promise<TestDatabaseUrl> {
  if (testEngine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'msgapi-test-'));
    return { url: join(dir, 'test.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(postgresUrl);
  // public stays on the path for the pg_trgm extension's operator classes.
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
