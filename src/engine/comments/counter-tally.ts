import { withSavepoint, type Executor } from '../../db/database.js';
import { addCounts, addToCounters, lockCommentAutomations, type CommentCounter } from '../../domain/comment-automations/comment-automation.repository.js';

/**
 * The automations' counters a chunk of events adds to, summed in memory and written at the chunk's
 * end (process-event.ts). Written as each event goes, concurrent chunks held an automation's row
 * from its first reply to their commit, and waited on each other for most of it; written last, in
 * id order, a row is held only from the chunk's last statements to its commit, and every
 * transaction that counts takes those locks last and in one order, so none waits in a circle.
 */
export class CounterTally {
  private entries: { id: number; counter: CommentCounter; by: number }[] = [];

  constructor(private readonly workspaceId: number) {}

  add(ids: number | readonly number[], counters: readonly CommentCounter[], by = 1): void {
    for (const id of typeof ids === 'number' ? [ids] : ids) for (const counter of counters) this.entries.push({ id, counter, by });
  }

  /** Where the tally stands: undoTo(mark) forgets what was added since (a savepoint rolled back). */
  mark(): number {
    return this.entries.length;
  }

  undoTo(mark: number): void {
    this.entries.length = mark;
  }

  /** Writes the sums, one statement per set of amounts (most automations of a chunk add the same), and empties the tally. */
  async write(db: Executor): Promise<void> {
    if (this.entries.length === 0) return;
    const sums = new Map<number, Partial<Record<CommentCounter, number>>>();
    for (const { id, counter, by } of this.entries) {
      const amounts = sums.get(id) ?? {};
      amounts[counter] = (amounts[counter] ?? 0) + by;
      sums.set(id, amounts);
    }
    this.entries = [];
    const ids = [...sums.keys()].sort((a, b) => a - b);
    await lockCommentAutomations(db, this.workspaceId, ids);
    const groups = new Map<string, { amounts: Partial<Record<CommentCounter, number>>; ids: number[] }>();
    for (const id of ids) {
      const amounts = sums.get(id)!;
      const key = Object.entries(amounts).sort(([a], [b]) => (a < b ? -1 : 1)).join();
      const group = groups.get(key);
      if (group) group.ids.push(id);
      else groups.set(key, { amounts, ids: [id] });
    }
    for (const { amounts, ids: some } of groups.values()) await addCounts(db, this.workspaceId, some, amounts);
  }
}

/**
 * Adds to automations' counters: to the chunk's tally when the caller runs in one, else at once.
 * A transaction outside a chunk counts as its last write for the same reason the tally writes last.
 */
export function count(
  deps: { counters?: CounterTally },
  db: Executor,
  workspaceId: number,
  ids: number | readonly number[],
  counters: readonly CommentCounter[],
  by = 1,
): Promise<void> {
  if (deps.counters) {
    deps.counters.add(ids, counters, by);
    return Promise.resolve();
  }
  return addToCounters(db, workspaceId, ids, counters, by);
}

/** withSavepoint, the tally's additions undone with the savepoint's writes (and kept where they are kept). */
export async function withCountedSavepoint<T>(deps: { db: Executor; counters?: CounterTally }, fn: () => Promise<T>, keepOnError: (err: unknown) => boolean = () => false): Promise<T> {
  const mark = deps.counters?.mark();
  try {
    return await withSavepoint(deps.db, fn, keepOnError);
  } catch (err) {
    if (mark !== undefined && !keepOnError(err)) deps.counters!.undoTo(mark);
    throw err;
  }
}
