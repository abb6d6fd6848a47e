import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The dynamic-image name filter reads only the caller's workspace, as contact and error-log
 * keywords do since 2026_11_23_0003_workspace_scoped_search. Frozen in time: imports nothing from
 * src/.
 *
 * PostgreSQL: the pg_trgm index `dynamic_images_name_trgm_idx` held one list per trigram for every
 * workspace's images together, so a name search read (or counted) the other workspaces' matches
 * before keeping its own, and its time told a workspace whether others' image names contained a
 * string. It is replaced by a GIN index on `workspace_trigrams(workspace_id, name)`, the IMMUTABLE
 * function 0003 created (tokens `w<workspace id>x<hex of the trigram's UTF-8 bytes>`), asked with
 * `workspace_trigram_query(workspace_id, name)`; the ILIKE filter still decides the results.
 *
 * SQLite: nothing. The name filter walks the workspace's own rows through
 * `dynamic_images_workspace_created_idx (workspace_id, created_at, id)`; it never had a shared
 * index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create index dynamic_images_name_workspace_idx on dynamic_images using gin (workspace_trigrams(workspace_id, name))`.execute(db);
  await sql`drop index dynamic_images_name_trgm_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create index dynamic_images_name_trgm_idx on dynamic_images using gin (name gin_trgm_ops)`.execute(db);
  await sql`drop index dynamic_images_name_workspace_idx`.execute(db);
}
