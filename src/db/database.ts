import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, PostgresAdapter, sql, type LogEvent, type QueryResult } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { createRequire } from 'node:module';
import type * as PgModule from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DB } from './types.js';
import { isPostgresUrl } from '../config/config.js';
import { dbStatements } from '../observability/metrics.js';
import { sqlProfiler } from '../observability/sql-profile.js';
import { tallyOf } from './statement-count.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { postgresTypeParsers } from './pg-types.js';
import { isStalePlan, namingPool } from './pg-named-statements.js';

/** The database or a transaction: repository functions accept either. */
export type Executor = Kysely<DB>;
export type Engine = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  destroy(): Promise<void>;
}

// The PostgreSQL driver loads only where it is used: a process on SQLite (the default) does not
// carry it (part of the server's resident memory, docs/operations.md "Memory and node flags").
const requireModule = createRequire(import.meta.url);
let pgModule: typeof PgModule | undefined;
const loadPg = () => (pgModule ??= requireModule('pg') as typeof PgModule);

/**
 * `onStatement` hears the SQL text of every statement run (the test harness's `statements`, so a
 * test can pin which columns a request read, not only how many statements).
 */
export function createDatabase(url: string, options: { onStatement?: (sql: string) => void } = {}): Database {
  const engine: Engine = isPostgresUrl(url) ? 'postgres' : 'sqlite';
  const counter = dbStatements.labels(engine);
  const profile = sqlProfiler();
  // Kysely calls `log` once for every statement it executes: the process-wide count. A request
  // counts its own on its handle (statement-count.ts). A failing statement's SQL stays with its
  // error: whoever handles the error as unexpected logs it, with what it knows (a request id).
  const log = (event: LogEvent) => {
    counter.inc();
    profile?.(event);
    if (event.level === 'query') options.onStatement?.(event.query.sql);
    if (event.level === 'error' && event.error !== null && typeof event.error === 'object') failedStatements.set(event.error, event.query.sql);
  };
  // Statements run outside Kysely (the direct runners below) are timed only for the SQL profile.
  const clock = () => (profile ? performance.now() : 0);

  if (engine === 'postgres') {
    // A server that does not answer must fail the request (and /readyz) in seconds, not hang it.
    const pool = new (loadPg().Pool)({ connectionString: url, max: 10, types: postgresTypeParsers(loadPg()), connectionTimeoutMillis: 3000 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namingPool(pool) }), log });
    poolRunners.set(db.getExecutor().adapter, {
      async run(query, name) {
        const started = clock();
        try {
          const { command, rowCount, rows } = await runByName(pool, name, query);
          const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
          return { rows: rows ?? [], numAffectedRows: changed ? BigInt(rowCount ?? 0) : undefined };
        } catch (error) {
          log({ level: 'error', error, query, queryDurationMillis: clock() - started });
          throw error;
        } finally {
          log({ level: 'query', query, queryDurationMillis: clock() - started });
        }
      },
    });
    return { db, engine, destroy: () => db.destroy() };
  }

  if (url !== ':memory:') mkdirSync(dirname(url), { recursive: true });
  const sqlite = new SqliteDatabase(url);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  // Statement journals (every savepoint, and every write that may need undoing alone) in memory:
  // on disk they cost a file write per touched page, most of an engine event's SQLite time.
  sqlite.pragma('temp_store = MEMORY');
  const statements = withStatementCache(sqlite);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: statements }), log });
  directRunners.set(db.getExecutor().adapter, {
    connectionIdle: () => !sqlite.inTransaction,
    run(query) {
      const started = clock();
      try {
        const statement = statements.prepare(query.sql);
        const parameters = query.parameters as unknown[];
        if (statement.reader) return { rows: statement.all(parameters) };
        const { changes } = statement.run(parameters);
        return { rows: [], numAffectedRows: BigInt(changes) };
      } catch (error) {
        log({ level: 'error', error, query, queryDurationMillis: clock() - started });
        throw error;
      } finally {
        log({ level: 'query', query, queryDurationMillis: clock() - started });
      }
    },
  });
  return { db, engine, destroy: () => db.destroy() };
}

/**
 * SQLite: runs a compiled statement at once, synchronously, or answers undefined (PostgreSQL, or
 * when it must go through Kysely). SQLite has one connection, and better-sqlite3 runs a statement
 * synchronously however it is called, so Kysely's layers of promises around each statement (its
 * connection lock, plugins and result transformers) cost more than most of our statements take to
 * run (see prepared.ts). It is safe:
 * - inside a transaction, for the transaction's own statements: the transaction holds the
 *   connection (Kysely's driver lock) from begin to commit, and nothing else can interleave;
 * - outside any transaction, while no transaction is open on the connection: the statement runs in
 *   autocommit, as it would once Kysely's lock let it through. While another request's
 *   transaction is open (between its awaits), a statement run now would run inside it (seeing its
 *   uncommitted rows, or undone with it): it goes through Kysely and waits for the lock.
 * Counted and logged like the rest.
 */
export function runOnSqliteNow<O>(db: Executor, query: CompiledQuery): QueryResult<O> | undefined {
  const runner = directRunners.get(db.getExecutor().adapter);
  if (!runner || (!db.isTransaction && !runner.connectionIdle())) return undefined;
  countOn(db);
  return runner.run(query) as QueryResult<O>;
}

/**
 * PostgreSQL, outside a transaction: runs a compiled statement on the pool, or answers undefined
 * (SQLite, or inside a transaction, whose statements must run on its own connection). It does
 * what Kysely's executor would, a pool checkout, the statement and the release, without Kysely's
 * layers of promises around them (its connection provider, the driver's connection object and a
 * result transformer per plugin), a visible share of a cheap read's CPU (bench/README.md). By
 * its `name` (one per SQL text, prepared.ts), the statement is prepared once per pooled
 * connection and then only bound and run (runByName). A handle bound to one connection (`db.connection()`, not used
 * here) would not run on it: keep such code in a transaction. Counted and logged like the rest.
 */
export function runOnPostgresPool<O>(db: Executor, query: CompiledQuery, name: string): Promise<QueryResult<O>> | undefined {
  if (db.isTransaction) return undefined;
  const runner = poolRunners.get(db.getExecutor().adapter);
  if (!runner) return undefined;
  countOn(db);
  return runner.run(query, name) as Promise<QueryResult<O>>;
}

const poolRunners = new WeakMap<object, { run: (query: CompiledQuery, name: string) => Promise<QueryResult<unknown>> }>();

/**
 * A statement run on the pool by name: PostgreSQL parses it once per connection
 * (and may keep a generic plan after five runs), where an unnamed statement is parsed, analysed
 * and planned on every run, which for a page of many statements is a large share of PostgreSQL's
 * own CPU and of the page's wall time (bench/README.md). A kept plan fails ("cached plan must not
 * change result type") once a migration, run by another process while this one serves, changes
 * the columns a statement answers (a `select *` of a table that gained a column). It fails before
 * it runs, and pool.query closes a connection whose statement failed, so the statement is run
 * again unnamed; each stale connection is closed on its first such failure and the pool opens
 * fresh ones.
 */
async function runByName(pool: PgModule.Pool, name: string, query: CompiledQuery): Promise<PgModule.QueryResult> {
  const values = query.parameters as unknown[];
  try {
    return await pool.query({ name, text: query.sql, values });
  } catch (error) {
    if (!isStalePlan(error)) throw error;
    return pool.query(query.sql, values);
  }
}

/** A statement run outside Kysely's executor counts on the request's tally as Kysely's plugin would count it. */
function countOn(db: Executor): void {
  const tally = tallyOf(db);
  if (tally) tally.statements++;
}

const failedStatements = new WeakMap<object, string>();

/** The SQL of the statement that raised `err`, when a statement did (see createDatabase's log). */
export const failedStatementOf = (err: unknown): string | undefined => (err !== null && typeof err === 'object' ? failedStatements.get(err) : undefined);

const directRunners = new WeakMap<object, { connectionIdle: () => boolean; run: (query: CompiledQuery) => QueryResult<unknown> }>();

export const isPostgres = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

/** One statement that touches no table: throws when the database cannot answer (/readyz). */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Runs `fn` in `db` when it already is a transaction, else in a new one: steps that each need a
 * transaction of their own also compose into a larger one (the engine's job-wide transaction on
 * SQLite, src/engine/process-event.ts).
 */
export const inTransaction = <T>(db: Executor, fn: (trx: Executor) => Promise<T>): Promise<T> => (db.isTransaction ? fn(db) : db.transaction().execute(fn));

/**
 * Runs `fn` inside a savepoint of the transaction `trx`: when it throws, its writes are undone
 * alone (the transaction goes on), unless `keepOnError(err)` says they record the failure itself.
 * Savepoints nest (SQLite and PostgreSQL both address the innermost of a name).
 */
export async function withSavepoint<T>(trx: Executor, fn: () => Promise<T>, keepOnError: (err: unknown) => boolean = () => false): Promise<T> {
  const run = (statement: CompiledQuery) => runOnSqliteNow(trx, statement) ?? trx.executeQuery(statement);
  await run(savepointStatements.begin);
  try {
    const result = await fn();
    await run(savepointStatements.release);
    return result;
  } catch (err) {
    if (!keepOnError(err)) await run(savepointStatements.rollback);
    await run(savepointStatements.release);
    throw err;
  }
}

// Compiled once: the engine takes two savepoints per event.
const savepointStatements = {
  begin: CompiledQuery.raw('savepoint step'),
  release: CompiledQuery.raw('release savepoint step'),
  rollback: CompiledQuery.raw('rollback to savepoint step'),
};
