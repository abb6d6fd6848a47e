import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Each workspace's number of contacts and of error logs, kept by the database as rows come and go,
 * so that an unfiltered list's `pageCount` is one indexed read instead of counting 100,000 contacts
 * or a million logs on every page. Triggers keep it, so every path that writes those tables (the
 * API, the engine, imports, retention, a workspace's cascade) is counted without knowing of it.
 * Frozen in time: imports nothing from src/.
 *
 * - SQLite (one writer at a time): one row per workspace and table, `n` kept by row triggers.
 * - PostgreSQL: one counter row would be a lock every transaction that adds a contact in the
 *   workspace waits on until the other commits (two engine workers would take turns). Statement
 *   triggers append one delta row per statement and workspace instead (`n` is a difference then),
 *   nobody waits, and a reader sums the workspace's rows; the reader folds them into one row when
 *   they pile up (src/domain/shared/row-count.repository.ts).
 * A workspace's rows go with it. Its cascade deletes its contacts after it is gone, and those
 * deletes add nothing for a workspace that no longer exists (PostgreSQL) or find no row to lower
 * (SQLite).
 */
const counted = ['contacts', 'error_logs'];

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const exec = (text: string) => sql.raw(text).execute(db);
  if (pg) {
    await exec(`create table workspace_row_counts (workspace_id integer not null, table_name text not null, n bigint not null)`);
    await exec(`create index workspace_row_counts_workspace_idx on workspace_row_counts (workspace_id, table_name)`);
    await exec(`create function workspace_rows_added() returns trigger language plpgsql as $$
      begin
        insert into workspace_row_counts (workspace_id, table_name, n)
          select workspace_id, tg_table_name, count(*) from added group by workspace_id;
        return null;
      end $$`);
    await exec(`create function workspace_rows_removed() returns trigger language plpgsql as $$
      begin
        insert into workspace_row_counts (workspace_id, table_name, n)
          select r.workspace_id, tg_table_name, -count(*) from removed r
          where exists (select 1 from workspaces w where w.id = r.workspace_id) group by r.workspace_id;
        return null;
      end $$`);
    for (const table of counted) {
      await exec(`create trigger ${table}_rows_added after insert on ${table} referencing new table as added for each statement execute function workspace_rows_added()`);
      await exec(`create trigger ${table}_rows_removed after delete on ${table} referencing old table as removed for each statement execute function workspace_rows_removed()`);
      await exec(`insert into workspace_row_counts (workspace_id, table_name, n) select workspace_id, '${table}', count(*) from ${table} group by workspace_id`);
    }
    await exec(`create function workspace_counts_removed() returns trigger language plpgsql as $$
      begin delete from workspace_row_counts where workspace_id = old.id; return null; end $$`);
    await exec(`create trigger workspaces_counts_removed after delete on workspaces for each row execute function workspace_counts_removed()`);
    return;
  }
  await exec(`create table workspace_row_counts (workspace_id integer not null, table_name text not null, n integer not null, primary key (workspace_id, table_name))`);
  for (const table of counted) {
    await exec(`create trigger ${table}_rows_added after insert on ${table} begin
      insert into workspace_row_counts (workspace_id, table_name, n) values (new.workspace_id, '${table}', 1)
        on conflict (workspace_id, table_name) do update set n = n + 1;
    end`);
    await exec(`create trigger ${table}_rows_removed after delete on ${table} begin
      update workspace_row_counts set n = n - 1 where workspace_id = old.workspace_id and table_name = '${table}';
    end`);
    await exec(`insert into workspace_row_counts (workspace_id, table_name, n) select workspace_id, '${table}', count(*) from ${table} group by workspace_id`);
  }
  await exec(`create trigger workspaces_counts_removed after delete on workspaces begin
    delete from workspace_row_counts where workspace_id = old.id;
  end`);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const exec = (text: string) => sql.raw(text).execute(db);
  for (const table of counted) {
    await exec(`drop trigger if exists ${table}_rows_added${pg ? ` on ${table}` : ''}`);
    await exec(`drop trigger if exists ${table}_rows_removed${pg ? ` on ${table}` : ''}`);
  }
  await exec(`drop trigger if exists workspaces_counts_removed${pg ? ' on workspaces' : ''}`);
  if (pg) await exec('drop function if exists workspace_rows_added, workspace_rows_removed, workspace_counts_removed');
  await exec('drop table if exists workspace_row_counts');
}
