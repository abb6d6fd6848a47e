import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * Test schemas on PostgreSQL are dropped once, after the whole run, never while other test files
 * run: Kysely's migrator looks every schema of the database up by name (has_schema_privilege), and
 * a schema another file drops at that moment fails the migration ("schema t_... does not exist").
 * Schema names carry the run's start (t_<unix seconds>_<random>), so the teardown drops exactly this
 * run's schemas, and the setup drops those an interrupted run left behind (older than an hour).
 */
const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const runStart = Math.floor(Date.now() / 1000);

async function dropSchemas(where: (started: number) => boolean): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname ~ '^t_[0-9]+_[0-9a-f]+$'`);
    for (const { name } of rows) {
      if (where(Number(name.split('_')[1]))) await client.query(`drop schema if exists ${name} cascade`);
    }
  } finally {
    await client.end();
  }
}

export async function setup(project: TestProject) {
  project.provide('testRunStart', runStart);
  if (process.env.TEST_ENGINE !== 'postgres') return;
  await dropSchemas((started) => started < runStart - 3600);
  return async () => dropSchemas((started) => started === runStart);
}

declare module 'vitest' {
  export interface ProvidedContext {
    testRunStart: number;
  }
}
