import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import { migrations } from '../../db/migrations/index.js';

/** Applies every pending migration of db/migrations; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema unless told which one:
  // name the current schema so databases that live in separate schemas stay independent.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Migration failed${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}
