import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { DB } from '../../src/db/types.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { testEngine } from './engine.js';

export interface RecordingHandleOptions {
  /** Migrate the database first (one from freshDatabaseUrl(); createTestApp() has migrated its own). */
  migrate?: boolean;
  /**
   * PostgreSQL: plan with `enable_seqscan = off`, so a plan that still scans the table (or sorts)
   * means no index can serve the statement. SQLite has no such switch.
   */
  forbidSeqScans?: boolean;
  /**
   * PostgreSQL: the plan it keeps for a named statement after five runs (a generic plan, made from
   * the SQL text alone, without the values), which is how the app's prepared statements run.
   */
  genericPlans?: boolean;
}

/** A statement run through the recording handle, with the engine's plan for it. */
export interface PlannedStatement {
  sql: string;
  parameters: readonly unknown[];
  /** EXPLAIN's `QUERY PLAN` rows on PostgreSQL, EXPLAIN QUERY PLAN's `detail` rows on SQLite, one a line. */
  plan: string;
}

export interface RecordingHandle {
  /** A second handle on the database that records the SQL it runs: pass it to the repositories. */
  db: Kysely<DB>;
  /** The statements `run` executes through `db`, in order, each with its plan. */
  statementsOf: (run: () => Promise<unknown>) => Promise<PlannedStatement[]>;
  /** The plans of the statements `run` executes through `db`, one text per statement. */
  plansOf: (run: () => Promise<unknown>) => Promise<string[]>;
  close: () => Promise<void>;
}

/**
 * Opens a Kysely handle on `url` (a database of the engine under test) that captures each statement
 * as it runs, so a test can hand the SQL our repositories really send back to the engine's planner
 * (EXPLAIN on PostgreSQL, EXPLAIN QUERY PLAN on SQLite). Plans are asked on the same connection,
 * outside Kysely, so asking records nothing.
 */
export async function openRecordingHandle(url: string, options: RecordingHandleOptions = {}): Promise<RecordingHandle> {
  let captured: CompiledQuery[] = [];
  const log = (e: { level: string; query: CompiledQuery }) => void (e.level === 'query' && captured.push(e.query));
  let db: Kysely<DB>;
  let explain: (q: CompiledQuery) => Promise<string>;
  if (testEngine === 'postgres') {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
    explain = async (q) => {
      const client = await pool.connect();
      try {
        if (options.forbidSeqScans) await client.query('set enable_seqscan = off');
        if (!options.genericPlans) {
          const { rows } = await client.query(`explain ${q.sql}`, q.parameters as unknown[]);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        }
        // EXPLAIN of bound values plans for them: the generic plan needs PREPARE and EXECUTE.
        await client.query('set plan_cache_mode = force_generic_plan');
        await client.query(`prepare planned as ${q.sql}`);
        const { rows } = await client.query(`explain execute planned(${q.parameters.map((v) => literal(client, v)).join(', ')})`);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        if (options.genericPlans) await client.query('deallocate all; reset plan_cache_mode');
        if (options.forbidSeqScans) await client.query('reset enable_seqscan');
        client.release();
      }
    };
  } else {
    const sqlite = new SqliteDatabase(url);
    db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }), log });
    explain = async (q) =>
      (sqlite.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail).join('\n');
  }
  if (options.migrate) await migrateToLatest(db);

  const statementsOf = async (run: () => Promise<unknown>): Promise<PlannedStatement[]> => {
    captured = [];
    await run();
    const statements = captured;
    captured = [];
    return Promise.all(statements.map(async (q) => ({ sql: q.sql, parameters: q.parameters, plan: await explain(q) })));
  };
  return {
    db,
    statementsOf,
    plansOf: async (run) => (await statementsOf(run)).map((s) => s.plan),
    close: () => db.destroy(),
  };
}

/** A bound value written into SQL: numbers as they are, texts and arrays quoted. */
function literal(client: pg.PoolClient, value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return client.escapeLiteral(`{${value.map((v) => JSON.stringify(v)).join(',')}}`);
  if (value === null) return 'null';
  return client.escapeLiteral(String(value));
}
