/**
 * In-process wake-up of SQLite runners after an enqueue, so an immediate job does not wait for the
 * next poll. The wake may come before the enqueueing transaction commits: that is fine on the one
 * better-sqlite3 connection Kysely serialises everything through, because the woken runner's claim
 * waits for the connection until the transaction has ended, and then sees the job (or, after a
 * rollback, nothing). A runner on another connection or process misses the wake and finds the job
 * at its next poll: the wake is a shortcut, the poll is the guarantee.
 */
const sleepers = new Set<() => void>();

export function onEnqueue(wake: () => void): () => void {
  sleepers.add(wake);
  return () => sleepers.delete(wake);
}

export function wakeRunners(): void {
  for (const wake of sleepers) wake();
}
