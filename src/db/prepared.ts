import type { CompiledQuery, QueryResult } from 'kysely';
import { isPostgres, runInSqliteTransaction, type Executor } from './database.js';

/**
 * Statements built and compiled once, then run with new values: Kysely builds an immutable tree
 * and compiles it to SQL on every call (about 6 to 20 us a statement on this machine, more than
 * SQLite takes to run most of ours), while the SQL text of a hot statement never changes. A prepared
 * statement keeps its compiled SQL per engine and fills in only the parameters. Inside a SQLite
 * transaction it runs at once on the transaction's connection (runInSqliteTransaction in
 * database.ts), elsewhere through Kysely; either way it is counted and logged like any statement,
 * and SQLite's statement cache reuses the prepared statement behind it.
 *
 * The builder receives stand-ins for the values and must only pass them on to Kysely as values
 * (`where(col, '=', p.x)`, `values({ col: p.x })`, `sql\`... ${p.x}\``): it is called once, so it
 * cannot branch on them, and a stand-in that does not reach the parameter list is an error at the
 * first call. Lists of varying length (`in (...)`) cannot be prepared this way.
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
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string;
  /** For each parameter: the name of the value to put there, or a constant the builder wrote. */
  parameters: ({ slot: string } | { constant: unknown })[];
  template: CompiledQuery;
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
    const parameters = template.parameters.map((v) => (v instanceof Slot ? { slot: v.name } : { constant: v }));
    const used = new Set(parameters.flatMap((p) => ('slot' in p ? [p.slot] : [])));
    const lost = [...slots.keys()].filter((name) => !used.has(name));
    if (lost.length > 0) throw new Error(`prepared statement: ${lost.join(', ')} did not reach the parameters of: ${template.sql}`);
    return (compiled[engine] = { sql: template.sql, parameters, template });
  };

  const execute = (db: Executor, values: P): Promise<QueryResult<O>> => {
    const c = compile(db);
    const parameters = c.parameters.map((p) => {
      if (!('slot' in p)) return p.constant;
      const value = values[p.slot];
      if (value === undefined) throw new Error(`prepared statement: no value for ${p.slot} in: ${c.sql}`);
      return value;
    });
    const query: CompiledQuery = { ...c.template, parameters };
    const direct = runInSqliteTransaction<O>(db, query);
    return direct ? Promise.resolve(direct) : db.executeQuery<O>(query);
  };

  return {
    all: async (db, values) => (await execute(db, values)).rows,
    first: async (db, values) => (await execute(db, values)).rows[0],
    run: async (db, values) => Number((await execute(db, values)).numAffectedRows ?? 0),
  };
}
