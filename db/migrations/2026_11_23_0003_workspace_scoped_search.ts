import { type Kysely, PostgresAdapter, sql, type RawBuilder } from 'kysely';

/**
 * Keyword search whose cost depends only on the caller's own rows. Frozen in time: imports nothing
 * from src/.
 *
 * The trigram indexes before this (FTS5 `trigram` tables on SQLite, pg_trgm GIN indexes on
 * PostgreSQL) hold one list of rows per trigram for every workspace together: a search read (or
 * counted) the matches of all workspaces before keeping its own, so its time told a workspace
 * whether others' rows contained a string. Here every trigram token carries its workspace:
 * `w<workspace id>x<hex of the trigram's UTF-8 bytes>` for each 3-character window of the lowered
 * text (`w42x616461` is "ada" in workspace 42), so a search reads only its own workspace's lists.
 *
 * - SQLite: contentless FTS5 tables (`unicode61` tokenizer, detail=none: only the AND of tokens is
 *   ever asked) filled by triggers that build the tokens from a numbers table, `search_positions`
 *   (triggers cannot use WITH), in plain SQL: the file stays usable by any SQLite client.
 * - PostgreSQL: GIN indexes on `workspace_trigrams(workspace_id, text)`, an IMMUTABLE SQL function
 *   returning the same tokens as a tsvector, replacing the pg_trgm indexes on contacts and logs;
 *   `workspace_trigram_query(workspace_id, keyword)` gives the tsquery a search asks.
 *
 * Texts up to MAX_INDEXED characters are indexed whole (a contact's search text is at most 854 by
 * its field limits). A longer text (an error log's detail has no limit) gets the extra token
 * `w<workspace id>xlong` instead of its trigrams, and every search also reads that token's list:
 * such rows are always candidates, and the LIKE (ILIKE) check that follows every search keeps the
 * results exactly LIKE's.
 */
const MAX_INDEXED = 1024;

const contactText = (row: string) =>
  `coalesce(${row}first_name, '') || ' ' || coalesce(${row}last_name, '') || ' ' || coalesce(${row}email, '') || ' ' || coalesce(${row}phone_number, '')`;

/** SQLite: the workspace-prefixed trigram tokens of `text` (an SQL expression), space-separated. */
const sqliteTokens = (workspace: string, text: string) =>
  `(select coalesce(group_concat('w' || ${workspace} || 'x' || hex(substr(t.s, p.i, 3)), ' '), '') ` +
  `from (select lower(${text}) as s) as t join search_positions as p on p.i <= length(t.s) - 2 where length(t.s) <= ${MAX_INDEXED})` +
  ` || case when length(${text}) > ${MAX_INDEXED} then ' w' || ${workspace} || 'xlong' else '' end`;

const contactTokens = (row: string) => sqliteTokens(`${row}workspace_id`, contactText(row));
const errorLogTokens = (row: string) => `${sqliteTokens(`${row}workspace_id`, `${row}detail`)} || ' ' || ${sqliteTokens(`${row}workspace_id`, `${row}action`)}`;

const pgContactIndexed = `workspace_trigrams(workspace_id, ${contactText('')})`;

async function exec(db: Kysely<any>, text: string): Promise<void> {
  await sql.raw(text).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (pg) {
    // lower() as ILIKE folds; positions of the lowered text, so a lowered keyword's windows are
    // among them exactly when ILIKE would find it. IMMUTABLE as pg_trgm's own functions are.
    await exec(
      db,
      `create function workspace_trigrams(workspace bigint, text text) returns tsvector language sql immutable parallel safe as $$
        select case when length(text) > ${MAX_INDEXED} then array_to_tsvector(array['w' || workspace || 'xlong'])
        else array_to_tsvector(array(select distinct 'w' || workspace || 'x' || encode(convert_to(substr(lower(text), i, 3), 'UTF8'), 'hex')
          from generate_series(1, length(lower(text)) - 2) as i)) end $$`,
    );
    // The tsquery of a keyword (3+ characters): all of its tokens, or the row was too long to index.
    await exec(
      db,
      `create function workspace_trigram_query(workspace bigint, keyword text) returns tsquery language sql immutable parallel safe as $$
        select (array_to_string(tsvector_to_array(workspace_trigrams(workspace, keyword)), ' & ') || ' | w' || workspace || 'xlong')::tsquery $$`,
    );
    await exec(db, `create index contacts_search_workspace_idx on contacts using gin (${pgContactIndexed})`);
    await exec(db, `create index error_logs_detail_workspace_idx on error_logs using gin (workspace_trigrams(workspace_id, detail))`);
    await exec(db, `create index error_logs_action_workspace_idx on error_logs using gin (workspace_trigrams(workspace_id, action))`);
    await exec(db, `drop index contacts_search_trgm_idx`);
    await exec(db, `drop index error_logs_detail_trgm_idx`);
    await exec(db, `drop index error_logs_action_trgm_idx`);
    return;
  }

  await exec(db, `create table search_positions (i integer primary key)`);
  await exec(db, `insert into search_positions(i) with recursive n(i) as (select 1 union all select i + 1 from n where i < ${MAX_INDEXED}) select i from n`);

  for (const name of ['contacts_fts_insert', 'contacts_fts_delete', 'contacts_fts_update']) await exec(db, `drop trigger ${name}`);
  await exec(db, `drop table contacts_fts`);
  await exec(db, `create virtual table contacts_search using fts5(tokens, content='', contentless_delete=1, detail=none)`);
  await exec(db, `insert into contacts_search(rowid, tokens) select id, ${contactTokens('')} from contacts`);
  await exec(db, `create trigger contacts_search_insert after insert on contacts begin
    insert into contacts_search(rowid, tokens) values (new.id, ${contactTokens('new.')}); end`);
  await exec(db, `create trigger contacts_search_delete after delete on contacts begin
    delete from contacts_search where rowid = old.id; end`);
  await exec(db, `create trigger contacts_search_update after update of id, workspace_id, first_name, last_name, email, phone_number on contacts begin
    delete from contacts_search where rowid = old.id;
    insert into contacts_search(rowid, tokens) values (new.id, ${contactTokens('new.')}); end`);

  for (const name of ['error_logs_fts_insert', 'error_logs_fts_delete', 'error_logs_fts_update']) await exec(db, `drop trigger ${name}`);
  await exec(db, `drop table error_logs_fts`);
  await exec(db, `create virtual table error_logs_search using fts5(tokens, content='', contentless_delete=1, detail=none)`);
  await exec(db, `insert into error_logs_search(rowid, tokens) select id, ${errorLogTokens('')} from error_logs`);
  await exec(db, `create trigger error_logs_search_insert after insert on error_logs begin
    insert into error_logs_search(rowid, tokens) values (new.id, ${errorLogTokens('new.')}); end`);
  await exec(db, `create trigger error_logs_search_delete after delete on error_logs begin
    delete from error_logs_search where rowid = old.id; end`);
  await exec(db, `create trigger error_logs_search_update after update of id, workspace_id, detail, action on error_logs begin
    delete from error_logs_search where rowid = old.id;
    insert into error_logs_search(rowid, tokens) values (new.id, ${errorLogTokens('new.')}); end`);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (pg) {
    await exec(db, `create index contacts_search_trgm_idx on contacts using gin ((${contactText('')}) gin_trgm_ops)`);
    await exec(db, `create index error_logs_detail_trgm_idx on error_logs using gin (detail gin_trgm_ops)`);
    await exec(db, `create index error_logs_action_trgm_idx on error_logs using gin (action gin_trgm_ops)`);
    await exec(db, `drop index contacts_search_workspace_idx`);
    await exec(db, `drop index error_logs_detail_workspace_idx`);
    await exec(db, `drop index error_logs_action_workspace_idx`);
    await exec(db, `drop function workspace_trigram_query(bigint, text)`);
    await exec(db, `drop function workspace_trigrams(bigint, text)`);
    return;
  }

  for (const name of ['error_logs_search_insert', 'error_logs_search_delete', 'error_logs_search_update']) await exec(db, `drop trigger ${name}`);
  await exec(db, `drop table error_logs_search`);
  await exec(db, `create virtual table error_logs_fts using fts5(detail, action, content='error_logs', content_rowid='id', tokenize='trigram')`);
  await exec(db, `insert into error_logs_fts(error_logs_fts) values ('rebuild')`);
  await exec(db, `create trigger error_logs_fts_insert after insert on error_logs begin
    insert into error_logs_fts(rowid, detail, action) values (new.id, new.detail, new.action); end`);
  await exec(db, `create trigger error_logs_fts_delete after delete on error_logs begin
    insert into error_logs_fts(error_logs_fts, rowid, detail, action) values ('delete', old.id, old.detail, old.action); end`);
  await exec(db, `create trigger error_logs_fts_update after update of detail, action on error_logs begin
    insert into error_logs_fts(error_logs_fts, rowid, detail, action) values ('delete', old.id, old.detail, old.action);
    insert into error_logs_fts(rowid, detail, action) values (new.id, new.detail, new.action); end`);

  for (const name of ['contacts_search_insert', 'contacts_search_delete', 'contacts_search_update']) await exec(db, `drop trigger ${name}`);
  await exec(db, `drop table contacts_search`);
  await exec(db, `create virtual table contacts_fts using fts5(search, content='', tokenize='trigram')`);
  await exec(db, `insert into contacts_fts(rowid, search) select id, ${contactText('')} from contacts`);
  await exec(db, `create trigger contacts_fts_insert after insert on contacts begin
    insert into contacts_fts(rowid, search) values (new.id, ${contactText('new.')}); end`);
  await exec(db, `create trigger contacts_fts_delete after delete on contacts begin
    insert into contacts_fts(contacts_fts, rowid, search) values ('delete', old.id, ${contactText('old.')}); end`);
  await exec(db, `create trigger contacts_fts_update after update of id, first_name, last_name, email, phone_number on contacts begin
    insert into contacts_fts(contacts_fts, rowid, search) values ('delete', old.id, ${contactText('old.')});
    insert into contacts_fts(rowid, search) values (new.id, ${contactText('new.')}); end`);
  await exec(db, `drop table search_positions`);
}
