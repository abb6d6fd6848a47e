import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Contact keyword search and list orders served by indexes. Frozen in time: imports nothing from src/.
 *
 * SQLite: a contentless FTS5 trigram table over the same text the keyword filter matches
 * (`first_name || ' ' || last_name || ' ' || email || ' ' || phone_number`, NULLs as ''), so a
 * phrase query of 3+ characters finds the contacts whose LIKE would match, including across first
 * and last name. Kept in step by triggers (the FTS5 'delete' command needs the indexed text, which
 * the triggers compute from the old row with the same expression) and filled from existing rows.
 * PostgreSQL already has the pg_trgm expression index `contacts_search_trgm_idx` over the same text.
 *
 * Both engines: conversations are paged newest first by id, comment automations by id within a
 * channel or across both; the indexes below give those orders, so a page reads only its rows
 * instead of reading and sorting all of the workspace's.
 */
const searchText = (row: 'new.' | 'old.' | '') =>
  sql.raw(
    `coalesce(${row}first_name, '') || ' ' || coalesce(${row}last_name, '') || ' ' || coalesce(${row}email, '') || ' ' || coalesce(${row}phone_number, '')`,
  );

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  if (!pg) {
    await sql`create virtual table contacts_fts using fts5(search, content='', tokenize='trigram')`.execute(db);
    await sql`insert into contacts_fts(rowid, search) select id, ${searchText('')} from contacts`.execute(db);
    await sql`create trigger contacts_fts_insert after insert on contacts begin
      insert into contacts_fts(rowid, search) values (new.id, ${searchText('new.')}); end`.execute(db);
    await sql`create trigger contacts_fts_delete after delete on contacts begin
      insert into contacts_fts(contacts_fts, rowid, search) values ('delete', old.id, ${searchText('old.')}); end`.execute(db);
    await sql`create trigger contacts_fts_update after update of id, first_name, last_name, email, phone_number on contacts begin
      insert into contacts_fts(contacts_fts, rowid, search) values ('delete', old.id, ${searchText('old.')});
      insert into contacts_fts(rowid, search) values (new.id, ${searchText('new.')}); end`.execute(db);
  }

  await db.schema.createIndex('conversations_workspace_id_idx').on('conversations').columns(['workspace_id', 'id']).execute();
  // Comment automations page by id, of one channel or of both: (workspace_id, channel, created_at)
  // gave neither order (no query reads them by created_at), so a page sorted all of the workspace's.
  await db.schema.dropIndex('comment_automations_workspace_channel_idx').execute();
  await db.schema.createIndex('comment_automations_workspace_channel_id_idx').on('comment_automations').columns(['workspace_id', 'channel', 'id']).execute();
  await db.schema.createIndex('comment_automations_workspace_id_idx').on('comment_automations').columns(['workspace_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex('comment_automations_workspace_id_idx').execute();
  await db.schema.dropIndex('comment_automations_workspace_channel_id_idx').execute();
  await db.schema
    .createIndex('comment_automations_workspace_channel_idx')
    .on('comment_automations')
    .columns(['workspace_id', 'channel', 'created_at'])
    .execute();
  await db.schema.dropIndex('conversations_workspace_id_idx').execute();
  if (!pg) {
    for (const name of ['contacts_fts_insert', 'contacts_fts_delete', 'contacts_fts_update']) await sql`drop trigger if exists ${sql.raw(name)}`.execute(db);
    await sql`drop table if exists contacts_fts`.execute(db);
  }
}
