import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './database.js';

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

  hold<T>(kind: HeldKind<T>, item: T): void {
    const items = this.held.get(kind as HeldKind<unknown>);
    if (items) items.push(item);
    else this.held.set(kind as HeldKind<unknown>, [item]);
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
