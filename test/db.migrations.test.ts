import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NO_MIGRATIONS, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../db/migrations/index.js';
import { createDatabase, type Database } from '../src/db/database.js';
import { createMigrator, migrateToLatest } from '../src/db/migrator.js';
import { countContacts, listContacts } from '../src/domain/contacts/contact.repository.js';
import { listDynamicImages } from '../src/domain/dynamic-images/dynamic-image.repository.js';
import { countErrorLogs, listErrorLogs } from '../src/domain/error-logs/error-log.repository.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { repoRoot, runProgram } from './support/processes.js';

// The data model of the contract, and the index behind every lookup, foreign key and list order.
const tables = [
  'api_tokens', 'channel_events', 'channel_posts', 'comment_automations', 'comment_events', 'comment_reply_claims', 'contact_custom_fields', 'contact_inboxes', 'contact_notes', 'contact_tags', 'contacts',
  'contact_file_chunks', 'contact_files', 'contact_import_errors', 'contact_import_rows', 'contact_imports', 'conversations', 'custom_fields', 'dynamic_image_renders', 'dynamic_images', 'error_logs', 'idempotency_keys', 'inbox_teams', 'inboxes', 'lead_ad_automations',
  'lead_ad_field_mappings', 'lead_ad_form_claims', 'lead_ad_sequences', 'lead_ad_tags', 'lead_forms', 'lead_pages', 'messages', 'outbox', 'sandbox_records',
  'sequence_subscriptions', 'sequences', 'service_secrets', 'tags', 'users', 'workspaces',
  'workspace_events', 'webhooks', 'webhook_deliveries', 'webhook_attempts', 'external_webhooks', 'workspace_row_counts',
  'folders', 'flows', 'sequence_steps', 'sequence_step_events', 'flow_runs', 'thread_states',
];

/** Index name -> its columns in order (expressions as the engine prints them, lower-cased). */
const commonIndexes: Record<string, string[]> = {
  api_tokens_user_idx: ['user_id'],
  api_tokens_workspace_idx: ['workspace_id'],
  channel_events_inbox_idx: ['inbox_id'],
  channel_events_dedupe_uq: ['workspace_id', 'inbox_id', 'kind', 'external_id'],
  channel_posts_inbox_idx: ['inbox_id'],
  channel_posts_workspace_external_uq: ['workspace_id', 'channel', 'external_id'],
  channel_posts_workspace_posted_idx: ['workspace_id', 'channel', 'posted_at', 'id'],
  comment_automations_workspace_channel_created_idx: ['workspace_id', 'channel', 'created_at', 'id'],
  comment_automations_workspace_channel_id_idx: ['workspace_id', 'channel', 'id'],
  comment_events_automation_author_idx: ['automation_id', 'author_id', 'post_id'],
  comment_events_automation_comment_uq: ['automation_id', 'comment_id'],
  comment_events_event_idx: ['event_id'],
  comment_events_workspace_automation_idx: ['workspace_id', 'automation_id', 'id'],
  comment_reply_claims_workspace_idx: ['workspace_id'],
  comment_reply_claims_uq: ['inbox_id', 'comment_id', 'kind'],
  contact_inboxes_inbox_source_uq: ['inbox_id', 'source_id'],
  comment_automations_workspace_id_idx: ['workspace_id', 'id'],
  contact_custom_fields_contact_field_uq: ['contact_id', 'custom_field_id'],
  contact_custom_fields_field_idx: ['custom_field_id'],
  contact_custom_fields_workspace_idx: ['workspace_id'],
  contact_inboxes_contact_inbox_uq: ['contact_id', 'inbox_id'],
  contact_inboxes_inbox_idx: ['inbox_id'],
  contact_inboxes_workspace_idx: ['workspace_id'],
  contact_notes_contact_idx: ['contact_id', 'created_at'],
  contact_notes_created_by_idx: ['created_by_id'],
  contact_notes_workspace_idx: ['workspace_id'],
  contact_tags_tag_idx: ['tag_id'],
  contact_tags_workspace_idx: ['workspace_id'],
  contacts_workspace_created_idx: ['workspace_id', 'created_at'],
  idempotency_keys_created_idx: ['workspace_id', 'created_at'],
  contacts_workspace_email_uq: ['workspace_id', 'lower(email)'],
  contacts_workspace_message_idx: ['workspace_id', 'last_message_at'],
  contacts_workspace_phone_uq: ['workspace_id', 'phone_number'],
  contacts_workspace_updated_idx: ['workspace_id', 'updated_at'],
  contact_custom_fields_field_value_idx: ['workspace_id', 'custom_field_id', 'value'],
  conversations_contact_idx: ['contact_id'],
  conversations_contact_inbox_idx: ['contact_id', 'inbox_id', 'id'],
  conversations_inbox_idx: ['inbox_id'],
  conversations_team_idx: ['assigned_inbox_team_id'],
  conversations_user_idx: ['assigned_user_id'],
  conversations_workspace_activity_id_idx: ['workspace_id', 'last_activity_at', 'id'],
  conversations_workspace_id_idx: ['workspace_id', 'id'],
  custom_fields_workspace_idx: ['workspace_id', 'name'],
  custom_fields_workspace_lower_name_uq: ['workspace_id', 'lower(name)'],
  contact_files_expiry_idx: ['expires_at'],
  folders_workspace_idx: ['workspace_id', 'type', 'parent_id'],
  folders_parent_idx: ['parent_id'],
  sequences_folder_idx: ['folder_id'],
  flows_workspace_idx: ['workspace_id', 'id'],
  sequence_steps_sequence_idx: ['sequence_id', 'step_order', 'id'],
  sequence_steps_flow_idx: ['flow_id'],
  sequence_step_events_step_idx: ['step_id', 'event_type', 'id'],
  sequence_step_events_contact_idx: ['contact_id'],
  flow_runs_contact_idx: ['contact_id', 'created_at'],
  flow_runs_flow_idx: ['flow_id'],
  contact_files_workspace_idx: ['workspace_id', 'id'],
  contact_import_errors_import_idx: ['import_id', 'file_row'],
  contact_imports_one_active_idx: ['workspace_id'],
  contact_imports_workspace_idx: ['workspace_id', 'id'],
  dynamic_image_renders_image_idx: ['image_id'],
  dynamic_image_renders_used_idx: ['last_used_at'],
  dynamic_image_renders_workspace_idx: ['workspace_id'],
  dynamic_images_custom_field_idx: ['custom_field_id'],
  dynamic_images_workspace_created_idx: ['workspace_id', 'created_at', 'id'],
  error_logs_contact_idx: ['contact_id'],
  error_logs_workspace_created_idx: ['workspace_id', 'created_at', 'id'],
  inbox_teams_workspace_idx: ['workspace_id'],
  inboxes_source_idx: ['source_id', 'channel'],
  inboxes_workspace_idx: ['workspace_id'],
  lead_ad_automations_workspace_idx: ['workspace_id', 'created_at'],
  lead_ad_field_mappings_field_idx: ['custom_field_id'],
  lead_ad_field_mappings_question_uq: ['automation_id', 'question_key'],
  lead_ad_field_mappings_workspace_idx: ['workspace_id'],
  lead_ad_form_claims_automation_idx: ['automation_id'],
  lead_ad_form_claims_page_form_uq: ['workspace_id', 'page_id', 'form_id'],
  lead_ad_form_claims_workspace_idx: ['workspace_id'],
  lead_ad_sequences_automation_sequence_uq: ['automation_id', 'sequence_id'],
  lead_ad_sequences_sequence_idx: ['sequence_id'],
  lead_ad_sequences_workspace_idx: ['workspace_id'],
  lead_ad_tags_automation_tag_uq: ['automation_id', 'tag_id'],
  lead_ad_tags_tag_idx: ['tag_id'],
  lead_ad_tags_workspace_idx: ['workspace_id'],
  lead_forms_page_idx: ['lead_page_id', 'id'],
  lead_forms_workspace_external_uq: ['workspace_id', 'external_id'],
  lead_pages_inbox_idx: ['inbox_id'],
  lead_pages_workspace_external_uq: ['workspace_id', 'external_id'],
  messages_contact_idx: ['contact_id'],
  messages_conversation_idx: ['conversation_id', 'id'],
  messages_inbox_external_uq: ['inbox_id', 'external_id'],
  messages_workspace_contact_idx: ['workspace_id', 'contact_id', 'id'],
  outbox_workspace_action_idx: ['workspace_id', 'action', 'id'],
  outbox_workspace_automation_idx: ['workspace_id', 'automation_id', 'id'],
  outbox_workspace_contact_idx: ['workspace_id', 'contact_id', 'id'],
  outbox_workspace_dedupe_uq: ['workspace_id', 'dedupe_key'],
  outbox_workspace_id_idx: ['workspace_id', 'id'],
  sandbox_records_workspace_kind_external_uq: ['workspace_id', 'kind', 'external_id'],
  sequence_subscriptions_contact_sequence_uq: ['contact_id', 'sequence_id'],
  sequence_subscriptions_sequence_idx: ['sequence_id'],
  sequence_subscriptions_workspace_idx: ['workspace_id'],
  sequences_workspace_idx: ['workspace_id'],
  tags_workspace_live_lower_name_uq: ['workspace_id', 'lower(name)'],
  tags_workspace_name_idx: ['workspace_id', 'name'],
  users_workspace_idx: ['workspace_id'],
  workspace_events_workspace_idx: ['workspace_id', 'id'],
  workspace_events_unfanned_idx: ['id'],
  webhooks_workspace_idx: ['workspace_id', 'id'],
  webhook_deliveries_webhook_idx: ['webhook_id', 'id'],
  webhook_deliveries_event_idx: ['event_id'],
  webhook_deliveries_workspace_idx: ['workspace_id'],
  webhook_attempts_workspace_idx: ['workspace_id'],
  webhook_attempts_delivery_idx: ['delivery_id', 'id'],
  external_webhooks_workspace_idx: ['workspace_id', 'id'],
};
// Substring search: trigram GIN indexes on PostgreSQL, FTS5 trigram tables on SQLite (error logs, contacts).
const postgresOnlyIndexes = ['contacts_search_tokens_idx', 'dynamic_images_search_tokens_idx', 'error_logs_search_tokens_idx', 'workspace_row_counts_workspace_idx'];
// The SQLite job queue's table (PostgreSQL keeps jobs in graphile-worker's schema): due jobs, one unfailed job per key.
const sqliteOnlyIndexes: Record<string, string[]> = { jobs_due_idx: ['run_at', 'id'], jobs_key_uq: ['key'], jobs_batch_idx: ['batch_key', 'id'] };

interface IndexInfo {
  table: string;
  name: string;
  columns: string[];
  unique: boolean;
}
interface ForeignKey {
  table: string;
  column: string;
  references: string;
}

async function listTables(db: Database['db']): Promise<string[]> {
  const rows =
    testEngine === 'postgres'
      ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows;
  return rows.map((r) => r.name).sort();
}

async function listIndexes(db: Database['db']): Promise<IndexInfo[]> {
  if (testEngine === 'postgres') {
    const { rows } = await sql<{ table: string; name: string; unique: boolean; columns: string[] }>`
      select t.relname as "table", i.relname as name, x.indisunique as "unique",
        array(select lower(pg_get_indexdef(x.indexrelid, k + 1, true)) from generate_subscripts(x.indkey, 1) as k order by k) as columns
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema() and not x.indisprimary`.execute(db);
    return rows;
  }
  const out: IndexInfo[] = [];
  for (const table of await listTables(db)) {
    const list = (await sql<{ name: string; unique: number; origin: string }>`select * from pragma_index_list(${table})`.execute(db)).rows;
    for (const idx of list.filter((i) => i.origin !== 'pk')) {
      const cols = (await sql<{ seqno: number; name: string | null }>`select * from pragma_index_xinfo(${idx.name}) where key = 1 order by seqno`.execute(db)).rows;
      // Expression columns have no name; read them back from the index's SQL.
      const created = (await sql<{ sql: string | null }>`select sql from sqlite_master where name = ${idx.name}`.execute(db)).rows[0]?.sql ?? '';
      const exprs = /\(([^)]*\([^)]*\)[^)]*)\)/.exec(created)?.[1].split(',').map((s) => s.trim().toLowerCase()) ?? [];
      out.push({ table, name: idx.name, unique: idx.unique === 1, columns: cols.map((c, i) => c.name ?? exprs[i] ?? '<expr>') });
    }
  }
  return out;
}

async function listForeignKeys(db: Database['db']): Promise<ForeignKey[]> {
  if (testEngine === 'postgres') {
    const { rows } = await sql<ForeignKey>`
      select kcu.table_name as "table", kcu.column_name as "column", ccu.table_name as "references"
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(db);
    return rows;
  }
  const out: ForeignKey[] = [];
  for (const table of tables) {
    const rows = (await sql<{ from: string; table: string }>`select * from pragma_foreign_key_list(${table})`.execute(db)).rows;
    out.push(...rows.map((r) => ({ table, column: r.from, references: r.table })));
  }
  return out;
}

describe(`migrations on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let database: Database;

  beforeAll(async () => {
    target = await freshDatabaseUrl();
  });
  afterAll(async () => {
    await database?.destroy();
    await target.drop();
  });

  it('lists every migration file, in name order', () => {
    const files = readdirSync(join(repoRoot, 'db/migrations'))
      .filter((f) => /^\d{4}_\d{2}_\d{2}_\d{4}_\w+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(Object.keys(migrations)).toEqual(files.sort());
  });

  it('`npm run migrate` applies them all to an empty database, then finds nothing to do', async () => {
    const first = await runProgram('db/migrate.ts', [], { DATABASE_URL: target.url });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(`Applied: ${Object.keys(migrations).join(', ')}\n`);

    const again = await runProgram('db/migrate.ts', [], { DATABASE_URL: target.url });
    expect(again).toMatchObject({ code: 0, stdout: 'Database is up to date.\n', stderr: '' });

    database = createDatabase(target.url);
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('creates every table of the data model', async () => {
    const expected = [...tables, 'kysely_migration', 'kysely_migration_lock'];
    const found = await listTables(database.db);
    if (testEngine === 'sqlite') {
      // The FTS5 tables of workspace trigram tokens over error logs and contacts, their shadow
      // tables, and the numbers their triggers build the tokens from.
      expected.push('error_logs_search', 'error_logs_search_config', 'error_logs_search_data', 'error_logs_search_docsize', 'error_logs_search_idx');
      expected.push('contacts_search', 'contacts_search_config', 'contacts_search_data', 'contacts_search_docsize', 'contacts_search_idx');
      expected.push('search_positions');
      expected.push('jobs');
    } else {
      // graphile-worker's workers' heartbeats (its jobs live in its own schema).
      expected.push('queue_worker_heartbeats');
    }
    expect(found).toEqual(expected.sort());
  });

  it.runIf(testEngine === 'sqlite')('keeps the SQLite search tables in step with their tables by triggers', async () => {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' order by name`.execute(database.db);
    expect(rows.map((r) => r.name)).toEqual([
      'contacts_rows_added', 'contacts_rows_removed', 'contacts_search_delete', 'contacts_search_insert', 'contacts_search_update',
      'error_logs_rows_added', 'error_logs_rows_removed', 'error_logs_search_delete', 'error_logs_search_insert', 'error_logs_search_update',
      'workspaces_counts_removed',
    ]);
  });

  it('creates every index, with its columns', async () => {
    const indexes = await listIndexes(database.db);
    const named = Object.fromEntries(indexes.filter((i) => !i.name.startsWith('sqlite_autoindex') && !i.name.endsWith('_key')).map((i) => [i.name, i.columns]));
    const expected: Record<string, string[]> = { ...commonIndexes };
    if (testEngine === 'postgres') {
      for (const name of postgresOnlyIndexes) expected[name] = named[name];
      expect(postgresOnlyIndexes.every((n) => n in named)).toBe(true);
      expected.kysely_migration_lock_pkey = named.kysely_migration_lock_pkey;
    } else {
      Object.assign(expected, sqliteOnlyIndexes);
    }
    expect(named).toEqual(expected);
    // The token hash is unique (one lookup finds one token).
    expect(indexes.find((i) => i.table === 'api_tokens' && i.unique && i.columns.join() === 'token_hash')).toBeDefined();
  });

  it('migrates down to an empty database and up again', async () => {
    const migrator = await createMigrator(database.db);
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => [r.migrationName, r.direction, r.status])).toEqual(
      Object.keys(migrations).reverse().map((name) => [name, 'Down', 'Success']),
    );
    expect(await listTables(database.db)).toEqual(['kysely_migration', 'kysely_migration_lock']);
    expect(await migrateToLatest(database.db)).toEqual(Object.keys(migrations));
  });

  it('indexes the contacts, error logs and image names that exist when the search indexes are added', async () => {
    const migrator = await createMigrator(database.db);
    const before = await migrator.migrateTo('2026_11_23_0001_contact_lookup_indexes');
    expect(before.error).toBeUndefined();
    const at = '2026-11-01T10:00:00.000Z';
    const { id: workspaceId } = await database.db
      .insertInto('workspaces')
      .values({ name: 'Before', development_mode: 0, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const contact = { workspace_id: workspaceId, gender: 'unknown' as const, email_verified: 0, email_opt_in: 0, created_at: at, updated_at: at };
    await database.db
      .insertInto('contacts')
      .values([
        { ...contact, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone_number: '+14155550100' },
        { ...contact, first_name: null, last_name: null, email: null, phone_number: '+442071234567' },
      ])
      .execute();
    await database.db
      .insertInto('error_logs')
      .values({ workspace_id: workspaceId, contact_id: null, action: 'callWebhook', detail: 'Webhook timed out', http_code: '500', created_at: at, updated_at: at })
      .execute();
    await database.db
      .insertInto('dynamic_images')
      .values({ workspace_id: workspaceId, name: 'Birthday card', custom_field_id: null, background_url: '', image_url: '', enabled: 1, data: '{"width":100,"height":100,"elements":[]}', created_at: at, updated_at: at })
      .execute();
    // Names that differ only in case were allowed before 0007, which makes them unique.
    const tag = (name: string, deletedAt: string | null = null) => ({ workspace_id: workspaceId, name, folder_id: null, deleted_at: deletedAt, created_at: at, updated_at: at });
    const tagIds = (await database.db.insertInto('tags').values([tag('VIP'), tag('vip'), tag('Vip', at), tag('Lead')]).returning('id').execute()).map((r) => r.id);
    const field = (name: string) => ({ workspace_id: workspaceId, name, description: '', type: 'shortText', created_at: at, updated_at: at });
    const fieldIds = (await database.db.insertInto('custom_fields').values([field('Plan'), field('PLAN')]).returning('id').execute()).map((r) => r.id);
    expect(await migrateToLatest(database.db)).toEqual(['2026_11_23_0002_contact_search_index', '2026_11_23_0003_workspace_scoped_search', '2026_11_23_0004_idempotency_keys', '2026_11_23_0005_workspace_scoped_image_search', '2026_11_23_0006_stored_search_tokens', '2026_11_23_0007_contacts_api', '2026_11_23_0008_automations_api', '2026_11_23_0009_job_queue', '2026_11_23_0010_outbox', '2026_11_23_0011_engine', '2026_11_24_0012_queue_worker_heartbeats', '2026_11_24_0013_job_batches', '2026_11_27_0014_events_out', '2026_11_27_0015_dynamic_image_renders', '2026_11_27_0016_contact_transfers', '2026_11_27_0017_sequences_flows', '2026_11_28_0018_workspace_row_counts']);
    // The rows already there are counted when the counts begin.
    expect(await countContacts(database.db, workspaceId)).toBe(2);
    expect(await countErrorLogs(database.db, workspaceId)).toBe(1);
    const found = async (keyword: string) => (await listContacts(database.db, workspaceId, { limit: 10, keyword })).map((c) => c.phoneNumber);
    expect(await found('a lovelace')).toEqual(['+14155550100']);
    expect(await found('20712')).toEqual(['+442071234567']);
    expect(await found('.com +1415')).toEqual(['+14155550100']);
    // The oldest keeps its name; later live ones get their id appended; deleted ones are left alone.
    const tagNames = await database.db.selectFrom('tags').select('name').where('workspace_id', '=', workspaceId).orderBy('id').execute();
    expect(tagNames.map((r) => r.name)).toEqual(['VIP', `vip (${tagIds[1]})`, 'Vip', 'Lead']);
    const fieldNames = await database.db.selectFrom('custom_fields').select('name').where('workspace_id', '=', workspaceId).orderBy('id').execute();
    expect(fieldNames.map((r) => r.name)).toEqual(['Plan', `PLAN (${fieldIds[1]})`]);
    const logs = async (keyword: string) => (await listErrorLogs(database.db, workspaceId, { keyword, limit: 10, offset: 0 })).map((l) => l.detail);
    expect(await logs('TIMED')).toEqual(['Webhook timed out']);
    expect(await logs('callweb')).toEqual(['Webhook timed out']);
    const images = async (name: string) => (await listDynamicImages(database.db, workspaceId, { name, limit: 10, offset: 0 })).map((i) => i.name);
    expect(await images('THDAY C')).toEqual(['Birthday card']);
    expect(await images('card!')).toEqual([]);
  });

  it('indexes every foreign key column (as the leading column of an index or primary key)', async () => {
    const fks = await listForeignKeys(database.db);
    expect(fks.length).toBeGreaterThan(30);
    const indexes = await listIndexes(database.db);
    // Primary keys that lead with the column: contact_tags (contact_id, tag_id), contact_file_chunks (file_id, seq), contact_import_rows (import_id, contact_id), thread_states (contact_inbox_id).
    const leading = new Set([...indexes.map((i) => `${i.table}.${i.columns[0]}`), 'contact_tags.contact_id', 'contact_file_chunks.file_id', 'contact_import_rows.import_id', 'thread_states.contact_inbox_id']);
    const unindexed = fks.filter((fk) => !leading.has(`${fk.table}.${fk.column}`)).map((fk) => `${fk.table}.${fk.column}`);
    expect(unindexed).toEqual([]);
  });
});
