import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Executor } from '../../db/database.js';
import { caseById } from '../../db/held-writes.js';
import { groupBy } from './group.js';

/**
 * For held writes (db/held-writes.ts) that move a row's time forward (a conversation's activity, a
 * contact's last message): calls `write` once a workspace with its rows and, as one expression over
 * `id`, each row's latest time, which is what applying the writes one by one leaves.
 */
export async function writeLatest<T extends { workspaceId: number; at: string }>(
  db: Executor,
  items: readonly T[],
  rowOf: (item: T) => number,
  write: (workspaceId: number, ids: number[], at: RawBuilder<string>) => Promise<unknown>,
): Promise<void> {
  // PostgreSQL types a parameter by its use: in a CASE of parameters alone it would be text.
  const time = (at: string) => (isPostgres(db) ? sql<string>`cast(${at} as timestamptz)` : sql<string>`${at}`);
  for (const [workspaceId, some] of groupBy(items, (item) => item.workspaceId)) {
    const latest = new Map<number, string>();
    for (const item of some) {
      const seen = latest.get(rowOf(item));
      if (seen === undefined || seen < item.at) latest.set(rowOf(item), item.at);
    }
    await write(workspaceId, [...latest.keys()], caseById(latest, time));
  }
}
