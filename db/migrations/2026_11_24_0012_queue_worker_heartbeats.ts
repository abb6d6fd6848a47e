import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * PostgreSQL only: the heartbeats of graphile-worker's workers (src/queue/postgres-heartbeats.ts).
 * graphile keeps a job locked by a process that died (kill -9, out of memory, a lost host) for 4
 * hours; with a heartbeat per worker id, any live process can tell a silent worker from a busy one
 * and unlock its jobs within a minute. Keyed by worker id and WORKER_SCHEMA (the schema whose
 * force_unlock_workers applies). Frozen in time: imports nothing from src/.
 * SQLite needs nothing: its claims are leases that run out by themselves.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema
    .createTable('queue_worker_heartbeats')
    .addColumn('worker_id', 'text', (c) => c.primaryKey())
    .addColumn('worker_schema', 'text', (c) => c.notNull())
    .addColumn('beat_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema.dropTable('queue_worker_heartbeats').execute();
}
