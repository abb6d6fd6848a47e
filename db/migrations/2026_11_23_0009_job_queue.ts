import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The SQLite job queue (src/queue/sqlite-runner.ts): jobs live in the same database file as the
 * rows that cause them, so a job is enqueued in the same transaction as its cause. Frozen in time:
 * imports nothing from src/.
 *
 * A row is waiting (no lease), running (`locked_by` holds it until `locked_until`), or failed for
 * good (`failed_at`, kept for inspection); a finished job's row is deleted.
 * - `jobs_due_idx` (run_at, id) over unfailed rows: the claim reads due jobs oldest first.
 * - `jobs_key_uq` (key) over unfailed rows: one waiting or running job per key; a failed job keeps
 *   its key for inspection without holding it.
 *
 * PostgreSQL keeps its jobs in graphile-worker's own schema (WORKER_SCHEMA), so this table is
 * SQLite-only: an always-empty `jobs` table there would be a second, dead place to look for jobs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('task', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().check(sql`max_attempts >= 1`))
    .addColumn('key', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('failed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['run_at', 'id']).where(sql.ref('failed_at'), 'is', null).execute();
  await db.schema.createIndex('jobs_key_uq').on('jobs').unique().column('key').where(sql.ref('failed_at'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.dropTable('jobs').ifExists().execute();
}
