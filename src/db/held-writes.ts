import { sql, type InsertQueryBuilder, type InsertResult, type RawBuilder } from 'kysely';
import { isPostgres, type Executor } from './database.js';
import type { DB } from './types.js';

/**
 * A kind of write a transaction may hold: what one write carries, and how a list of them is
 * written in as few statements as the kind allows (one multi-row insert, one update of many rows).
 */
export interface HeldKind<T> {
  write(db: Executor, items: readonly T[]): Promise<void>;
}

/**
 * Writes a transaction holds and sends at a point it chooses, each kind as one set. The engine's
 * chunk (engine/process-event.ts) holds the writes nothing in it reads back: on PostgreSQL every
 * statement costs a round trip and an executor start on both sides, about 230 us of CPU under the
 * engine bench (bench/README.md), more than its row, and a chunk of 20 answered comments made
 * each such write 20 times. A writer holds only when its transaction holds writes
 * (`heldWritesOf`); a reader that would see them in the same transaction flushes them first
 * (`flushHeldWrites`).
 */
export class HeldWrites {
  private readonly held = new Map<HeldKind<unknown>, unknown[]>();
  /** Everything held of each kind since holding began, written or not. */
  private readonly ever = new Map<HeldKind<unknown>, unknown[]>();
  /** Ids taken ahead and not used yet, per table, in the order they are to be used. */
  private readonly ids = new Map<IdTable, number[]>();

  hold<T>(kind: HeldKind<T>, item: T): void {
    for (const lists of [this.held, this.ever]) {
      const items = lists.get(kind as HeldKind<unknown>);
      if (items) items.push(item);
      else lists.set(kind as HeldKind<unknown>, [item]);
    }
  }

  /**
   * What is held of a kind and not written yet, to be changed in place: a later write to a row
   * still held becomes part of it (a comment event's outcome, set before its insert is written).
   */
  unwritten<T>(kind: HeldKind<T>): readonly T[] {
    return (this.held.get(kind as HeldKind<unknown>) ?? []) as T[];
  }

  /**
   * Everything held of a kind since holding began, whether written since or not: for a writer's
   * own rule over the rows it held (a claim taken twice in one transaction is refused).
   */
  heldSoFar<T>(kind: HeldKind<T>): readonly T[] {
    return (this.ever.get(kind as HeldKind<unknown>) ?? []) as T[];
  }

  /**
   * The id the next held row of `table` gets: a held insert whose id the caller uses at once (a
   * comment event's actions are keyed by it, a sent reply is named by its outbox row). Ids are
   * taken from each table's own sequence a block at a time, for every such table whose block is
   * used up, in one statement: an answered comment makes a row of each.
   */
  private async nextId(db: Executor, table: IdTable): Promise<number> {
    if (!this.ids.get(table)?.length) {
      const empty = ID_TABLES.filter((t) => !this.ids.get(t)?.length);
      for (const [t, ids] of await takeIds(db, empty, ID_BLOCK)) this.ids.set(t, ids);
    }
    return this.ids.get(table)!.shift()!;
  }

  /** Holds a new row of a held insert with the next id of its table (nextId), and answers it with its id. */
  async holdNew<R extends { id: number }>(db: Executor, kind: HeldInsert<R, IdTable>, values: Omit<R, 'id'>): Promise<R> {
    const row = { ...values, id: await this.nextId(db, kind.table) } as R;
    this.hold(kind, row);
    return row;
  }

  /** Gives back the ids taken and not used, where the engine can (see giveBackIds). */
  async returnIds(db: Executor): Promise<void> {
    for (const [table, ids] of [...this.ids]) {
      this.ids.delete(table);
      if (ids.length > 0) await giveBackIds(db, table, ids);
    }
  }

  /** Writes what is held, kind by kind in the order each was first held, and forgets it. */
  async flush(db: Executor): Promise<void> {
    for (const [kind, items] of [...this.held]) {
      this.held.delete(kind);
      await kind.write(db, items);
    }
  }
}

const byTransaction = new WeakMap<Executor, HeldWrites>();

/**
 * From now on `trx` holds the writes of the kinds that ask, until `releaseWrites` (a transaction
 * that holds already goes on holding). Only for a transaction that commits or fails as a whole:
 * held writes are not undone with a savepoint.
 */
export function holdWrites(trx: Executor): HeldWrites {
  let held = byTransaction.get(trx);
  if (!held) byTransaction.set(trx, (held = new HeldWrites()));
  return held;
}

/** Writes what `trx` holds and stops holding. */
export async function releaseWrites(trx: Executor): Promise<void> {
  const held = byTransaction.get(trx);
  byTransaction.delete(trx);
  await held?.flush(trx);
  await held?.returnIds(trx);
}

/** The writes `db` holds, when it is a transaction that holds them. */
export const heldWritesOf = (db: Executor): HeldWrites | undefined => byTransaction.get(db);

/** Before a read of what a held write changes: writes what `db` holds, if anything. */
export async function flushHeldWrites(db: Executor): Promise<void> {
  await byTransaction.get(db)?.flush(db);
}

/** One text value a row (a time, a JSON document, an outcome), as one expression over the row's `id`: an update of many rows at once. */
export function caseById<V, T extends string | null = string>(values: Map<number, V>, value: (v: V) => T | RawBuilder<T>): RawBuilder<T> {
  return sql<T>`case ${sql.ref('id')} ${sql.join([...values].map(([id, v]) => sql`when ${id} then ${value(v)}`), sql` `)} end`;
}

/** Tables whose rows a transaction may insert held, with ids taken ahead. */
const ID_TABLES = ['comment_events', 'messages', 'outbox'] as const satisfies readonly (keyof DB)[];
export type IdTable = (typeof ID_TABLES)[number];

/** Ids taken at once: a chunk of 20 events answered by one automation each uses about 20 of each table. */
const ID_BLOCK = 20;

/**
 * `n` new ids of each table, from the same source as its own inserts, so no other insert can take
 * them. PostgreSQL: each serial's sequence (`nextval` per id; concurrent transactions may
 * interleave, so the ids need not follow each other). SQLite: the tables are AUTOINCREMENT, so a
 * table's next id is past its `sqlite_sequence` value, and moving that value forward by `n` takes
 * `n` ids; the transaction holds SQLite's one writer until it ends.
 */
async function takeIds(db: Executor, tables: readonly IdTable[], n: number): Promise<Map<IdTable, number[]>> {
  const taken = new Map<IdTable, number[]>(tables.map((t) => [t, []]));
  if (isPostgres(db)) {
    const columns = sql.join(tables.map((t) => sql`nextval(pg_get_serial_sequence(${t}, 'id'))::int as ${sql.ref(t)}`));
    const { rows } = await sql<Record<IdTable, number>>`select ${columns} from generate_series(1, ${n})`.execute(db);
    for (const row of rows) for (const t of tables) taken.get(t)!.push(row[t]);
    return taken;
  }
  const range = (top: number) => Array.from({ length: n }, (_, i) => top - n + 1 + i);
  const moved = await sql<{ name: IdTable; seq: number }>`update sqlite_sequence set seq = seq + ${n} where name in (${sql.join(tables)}) returning name, seq`.execute(db);
  for (const { name, seq } of moved.rows) taken.set(name, range(seq));
  // No row yet: the table has never had one inserted.
  for (const t of tables.filter((t) => !moved.rows.some((r) => r.name === t))) {
    const { rows } = await sql<{ seq: number }>`insert into sqlite_sequence (name, seq) select ${t}, coalesce(max(id), 0) + ${n} from ${sql.table(t)} returning seq`.execute(db);
    taken.set(t, range(rows[0]!.seq));
  }
  return taken;
}

/**
 * Ids taken and not used. On SQLite they are the block's last ones, and go back when nothing was
 * inserted since (the sequence still ends at them), so a chunk leaves no gap; PostgreSQL's
 * sequences never go back (another transaction may have taken ids past them), and these ids stay
 * unused, as those of a rolled-back insert do.
 */
async function giveBackIds(db: Executor, table: IdTable, ids: number[]): Promise<void> {
  if (isPostgres(db)) return;
  const last = ids[ids.length - 1]!;
  await sql`update sqlite_sequence set seq = ${ids[0]! - 1} where name = ${table} and seq = ${last}`.execute(db);
}

/** A kind of held insert (heldInsert), with the table its rows go to. */
export interface HeldInsert<T, Table extends keyof DB> extends HeldKind<T> {
  readonly table: Table;
}

/** Rows a held insert writes in one statement: about 13 values a row, well within either engine's limit on parameters. */
const HELD_ROWS_PER_STATEMENT = 500;

/**
 * A kind of held insert: new rows written by `insert` (the insert of the rows given), up to 500 a
 * statement, each statement `on conflict do nothing` so that its count of rows tells. A held row
 * is new when it is held (its id taken ahead, its keys new in the chunk); one that meets a row
 * another transaction wrote meanwhile fails the holding transaction, whose caller then runs its
 * work again without holding, row by row, where the usual answer to that row applies
 * (engine/process-event.ts).
 */
export function heldInsert<T, Table extends IdTable | 'comment_reply_claims'>(table: Table, insert: (db: Executor, rows: T[]) => InsertQueryBuilder<DB, Table, InsertResult>): HeldInsert<T, Table> {
  return {
    table,
    async write(db, rows) {
      for (let i = 0; i < rows.length; i += HELD_ROWS_PER_STATEMENT) {
        const some = rows.slice(i, i + HELD_ROWS_PER_STATEMENT);
        const done = await insert(db, some).onConflict((oc) => oc.doNothing()).executeTakeFirst();
        const inserted = Number(done.numInsertedOrUpdatedRows ?? 0);
        if (inserted !== some.length) throw new Error(`${some.length - inserted} of ${some.length} held ${table} rows met rows written meanwhile; the transaction is run again without holding`);
      }
    },
  };
}
