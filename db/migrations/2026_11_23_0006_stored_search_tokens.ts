import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: the workspace trigram tokens of 0003/0005 are stored in a generated column per table
 * (`search_tokens`), and the GIN indexes are built on those columns instead of on the function.
 * With the function in the index expression, any plan that did not use the index (a keyword that
 * matches most of a workspace, when one workspace holds most of the table) computed
 * workspace_trigrams() for every row it read: about 30 µs each, 5.7 s for a keyword found in all
 * 50,000 contacts of a workspace. Stored tokens cost a read. SQLite keeps its FTS5 tables.
 * Frozen in time: imports nothing from src/.
 */
const contactText = `coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, '')`;

const tables = [
  { table: 'contacts', tokens: `workspace_trigrams(workspace_id, ${contactText})`, oldIndexes: { contacts_search_workspace_idx: `workspace_trigrams(workspace_id, ${contactText})` } },
  {
    table: 'error_logs',
    tokens: `workspace_trigrams(workspace_id, detail) || workspace_trigrams(workspace_id, action)`,
    oldIndexes: { error_logs_detail_workspace_idx: 'workspace_trigrams(workspace_id, detail)', error_logs_action_workspace_idx: 'workspace_trigrams(workspace_id, action)' },
  },
  { table: 'dynamic_images', tokens: `workspace_trigrams(workspace_id, name)`, oldIndexes: { dynamic_images_name_workspace_idx: 'workspace_trigrams(workspace_id, name)' } },
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const { table, tokens, oldIndexes } of tables) {
    await sql.raw(`alter table ${table} add column search_tokens tsvector generated always as (${tokens}) stored`).execute(db);
    await sql.raw(`create index ${table}_search_tokens_idx on ${table} using gin (search_tokens)`).execute(db);
    for (const name of Object.keys(oldIndexes)) await sql.raw(`drop index ${name}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const { table, oldIndexes } of tables) {
    for (const [name, expression] of Object.entries(oldIndexes)) await sql.raw(`create index ${name} on ${table} using gin (${expression})`).execute(db);
    await sql.raw(`drop index ${table}_search_tokens_idx`).execute(db);
    await sql.raw(`alter table ${table} drop column search_tokens`).execute(db);
  }
}
