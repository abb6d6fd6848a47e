import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * SQLite only: batch jobs (src/queue/sqlite-queue.ts). A job enqueued with a batch key joins the
 * waiting job of that key, its payload items appended, instead of making a job of its own, and the
 * jobs of a key run one at a time: while the engine is behind, the events of many webhooks are
 * processed by one job, in transactions of up to 20 events, instead of one job (one claim, one
 * completion, one commit) per webhook. `jobs_batch_idx` finds a key's unfailed jobs, for both the
 * enqueue (its open job) and the claim (a job of the key running, or one before it due).
 * PostgreSQL's jobs live in graphile-worker's schema. Frozen in time: imports nothing from src/.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.alterTable('jobs').addColumn('batch_key', 'text').execute();
  await db.schema.createIndex('jobs_batch_idx').on('jobs').columns(['batch_key', 'id']).where(sql.ref('batch_key'), 'is not', null).where(sql.ref('failed_at'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.dropIndex('jobs_batch_idx').execute();
  await db.schema.alterTable('jobs').dropColumn('batch_key').execute();
}
