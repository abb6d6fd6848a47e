import { sql } from 'kysely';
import { isPostgres, type Executor } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { CountedTable } from '../../db/types.js';

/**
 * A workspace's rows of a large table (contacts, error logs), as the triggers of migration
 * 2026_11_28_0018 keep them: the `pageCount` of an unfiltered list without counting the rows.
 * SQLite holds one row per workspace and table; PostgreSQL one delta per statement that added or
 * removed rows, summed here (`n` is a bigint: text from the driver).
 */
const counted = prepared((db, p: { workspaceId: number; table: CountedTable }) =>
  db
    .selectFrom('workspace_row_counts')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number | string>('n'), eb.lit(0)).as('n'), eb.fn.countAll<number | string>().as('rows')])
    .where('workspace_id', '=', p.workspaceId)
    .where('table_name', '=', p.table),
);

/** Delta rows past which a reader folds them into one (PostgreSQL): a sum stays a few rows long. */
const FOLD_AFTER = 64;

export async function workspaceRowCount(db: Executor, workspaceId: number, table: CountedTable): Promise<number> {
  const row = await counted.first(db, { workspaceId, table });
  if (isPostgres(db) && Number(row?.rows ?? 0) > FOLD_AFTER && !db.isTransaction) await fold(db, workspaceId, table);
  return Number(row?.n ?? 0);
}

/**
 * Replaces the workspace's deltas by their sum, in one statement: a delta appended meanwhile is
 * not among those deleted and stays. Two readers folding at once take the rows' locks in the same
 * (index) order; the second then finds them gone and adds nothing. A deadlock or serialization
 * failure leaves the deltas as they were (the sum already read is right), and a later reader folds.
 */
async function fold(db: Executor, workspaceId: number, table: CountedTable): Promise<void> {
  try {
    await sql`with folded as (delete from workspace_row_counts where workspace_id = ${workspaceId} and table_name = ${table} returning n)
      insert into workspace_row_counts (workspace_id, table_name, n) select ${workspaceId}, ${table}, sum(n) from folded having count(*) > 0`.execute(db);
  } catch (err) {
    if (!['40P01', '40001'].includes((err as { code?: string }).code ?? '')) throw err;
  }
}
