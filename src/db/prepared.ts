import { sql, type CompiledQuery, type Expression, type QueryResult, type SqlBool } from 'kysely';
import { isPostgres, runOnPostgresPool, runOnSqliteNow, type Executor } from './database.js';
import { nameStatement } from './pg-named-statements.js';

/**
 * Statements built and compiled once, then run with new values: Kysely builds an immutable tree
 * and compiles it to SQL on every call (longer than SQLite takes to run most of ours;
 * bench/README.md), while the SQL text of a hot statement never changes. A prepared
 * statement keeps its compiled SQL per engine and fills in only the parameters. On SQLite it runs
 * at once, synchronously, unless another request's transaction holds the connection
 * (runOnSqliteNow in database.ts); on PostgreSQL outside a transaction, straight on the pool as
 * a named statement, parsed once per connection (runOnPostgresPool); elsewhere through Kysely,
 * by the same name on PostgreSQL (pg-named-statements.ts).
 * Either way it is counted and logged like any statement, and SQLite's statement cache reuses the
 * prepared statement behind it.
 *
 * The builder receives stand-ins for the values and must only pass them on to Kysely as values
 * (`where(col, '=', p.x)`, `values({ col: p.x })`, `sql\`... ${p.x}\``): it is called once, so it
 * cannot branch on them, and a stand-in that does not reach the parameter list is an error at the
 * first call. A list of varying length goes through `inIds` (one parameter), never `in (...)`.
 */
export interface Prepared<P, O> {
  /** Every row the statement answers (an insert, update or delete answers those of `returning`). */
  all(db: Executor, values: P): Promise<O[]>;
  /** The first row, or undefined. */
  first(db: Executor, values: P): Promise<O | undefined>;
  /** Rows changed by an insert, update or delete without `returning`. */
  run(db: Executor, values: P): Promise<number>;
}

/** A stand-in for a value, found again in the compiled parameter list by identity. */
class Slot {
  /** Set by inIds: the value is a list of ids, passed as one parameter. */
  list = false;
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string;
  /** For each parameter: the name of the value to put there, or a constant the builder wrote. */
  parameters: ({ slot: string; list: boolean } | { constant: unknown })[];
  template: CompiledQuery;
  postgres: boolean;
  /** PostgreSQL: the name the statement is prepared under on each pooled connection. */
  name: string;
}

/** Each compiled statement's own name: one SQL text per name, as PostgreSQL requires on a connection. */
let compiledCount = 0;

/**
 * `column in (ids)` with the whole list as one parameter, so that a statement over a batch of ids
 * (a DataLoader's) has one SQL text whatever the batch size and can be prepared: SQLite reads a
 * JSON array with json_each, PostgreSQL compares with an integer array. Only for ids (integers).
 */
export function inIds(db: Executor, column: string, ids: readonly number[]): Expression<SqlBool> {
  return inList(db, column, ids, 'int8');
}

/** inIds for text keys (people's ids on a network, say): a text array on PostgreSQL. */
export function inTexts(db: Executor, column: string, values: readonly string[]): Expression<SqlBool> {
  return inList(db, column, values, 'text');
}

function inList(db: Executor, column: string, values: readonly unknown[], type: 'int8' | 'text'): Expression<SqlBool> {
  if (!(values instanceof Slot)) throw new Error('inIds/inTexts: pass the prepared statement\'s value, not a list');
  values.list = true;
  return isPostgres(db) ? sql<SqlBool>`${sql.ref(column)} = any(${values}::${sql.raw(type)}[])` : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${values}))`;
}

export function prepared<P extends Record<string, unknown>, O>(build: (db: Executor, values: P) => { compile(): CompiledQuery<O> }): Prepared<P, O> {
  // One compilation per engine: PostgreSQL numbers its parameters ($1), SQLite does not (?).
  const compiled: { sqlite?: Compiled; postgres?: Compiled } = {};

  const compile = (db: Executor): Compiled => {
    const engine = isPostgres(db) ? 'postgres' : 'sqlite';
    const known = compiled[engine];
    if (known) return known;
    const slots = new Map<string, Slot>();
    const values = new Proxy({} as P, {
      get: (_, name) => {
        if (typeof name !== 'string') return undefined;
        let slot = slots.get(name);
        if (!slot) slots.set(name, (slot = new Slot(name)));
        return slot;
      },
      // `{ ...values }` would copy nothing and build a statement without them: name each value.
      ownKeys: () => {
        throw new Error('prepared statement: spread or list the values one by one, by name');
      },
    });
    const template = build(db, values).compile();
    const parameters = template.parameters.map((v) => (v instanceof Slot ? { slot: v.name, list: v.list } : { constant: v }));
    const used = new Set(parameters.flatMap((p) => ('slot' in p ? [p.slot] : [])));
    const lost = [...slots.keys()].filter((name) => !used.has(name));
    if (lost.length > 0) throw new Error(`prepared statement: ${lost.join(', ')} did not reach the parameters of: ${template.sql}`);
    const name = `prepared_${++compiledCount}`;
    if (engine === 'postgres') nameStatement(template.sql, name);
    return (compiled[engine] = { sql: template.sql, parameters, template, postgres: engine === 'postgres', name });
  };

  const execute = (db: Executor, values: P): Promise<QueryResult<O>> => {
    const c = compile(db);
    const parameters = c.parameters.map((p) => {
      if (!('slot' in p)) return p.constant;
      const value = values[p.slot];
      if (value === undefined) throw new Error(`prepared statement: no value for ${p.slot} in: ${c.sql}`);
      return p.list && !c.postgres ? JSON.stringify(value) : value;
    });
    const query: CompiledQuery = { ...c.template, parameters };
    const direct = runOnSqliteNow<O>(db, query);
    if (direct) return Promise.resolve(direct);
    return runOnPostgresPool<O>(db, query, c.name) ?? db.executeQuery<O>(query);
  };

  return {
    all: async (db, values) => (await execute(db, values)).rows,
    first: async (db, values) => (await execute(db, values)).rows[0],
    run: async (db, values) => Number((await execute(db, values)).numAffectedRows ?? 0),
  };
}
