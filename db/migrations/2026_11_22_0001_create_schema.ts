import { type Kysely, PostgresAdapter, sql, type ColumnDataType, type CreateTableBuilder } from 'kysely';

/**
 * The whole data model of the contract. One file runs on SQLite and PostgreSQL; the few
 * differences (identity columns, timestamp and boolean types) are chosen here and nowhere else.
 * Frozen in time: it imports nothing from src/.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts: ColumnDataType = pg ? 'timestamptz' : 'text';
  const bool: ColumnDataType = pg ? 'boolean' : 'integer';
  const f = pg ? sql`false` : sql`0`;
  const t = pg ? sql`true` : sql`1`;

  const table = (name: string) => {
    const builder = db.schema.createTable(name);
    return (pg
      ? builder.addColumn('id', 'serial', (c) => c.primaryKey())
      : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())) as CreateTableBuilder<string, any>;
  };
  const stamps = <T extends CreateTableBuilder<string, any>>(b: T) =>
    b.addColumn('created_at', ts, (c) => c.notNull()).addColumn('updated_at', ts, (c) => c.notNull());
  const workspaceRef = <T extends CreateTableBuilder<string, any>>(b: T) =>
    b.addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'));

  await stamps(
    table('workspaces')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('default_reply', 'text')
      .addColumn('target_country', 'text')
      .addColumn('language', 'text')
      .addColumn('timezone', 'text')
      .addColumn('brand_color', 'text')
      .addColumn('logo', 'text')
      .addColumn('owner_id', 'integer')
      .addColumn('development_mode', bool, (c) => c.notNull().defaultTo(f))
      .addColumn('trial_ends_at', ts)
      .addColumn('mac_limit', 'integer'),
  ).execute();

  await stamps(
    workspaceRef(table('users'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_verified', bool, (c) => c.notNull().defaultTo(f))
      .addColumn('image', 'text')
      .addColumn('is_anonymous', bool, (c) => c.notNull().defaultTo(f)),
  ).execute();
  await db.schema.createIndex('users_workspace_idx').on('users').column('workspace_id').execute();

  await workspaceRef(table('api_tokens'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('developer', 'user')`))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull().check(sql`permission in ('full', 'read_only')`))
    .addColumn('scopes', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema.createIndex('api_tokens_workspace_idx').on('api_tokens').column('workspace_id').execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();

  await stamps(
    workspaceRef(table('contacts'))
      .addColumn('avatar', 'text')
      .addColumn('phone_number', 'text')
      .addColumn('email', 'text')
      .addColumn('first_name', 'text')
      .addColumn('last_name', 'text')
      .addColumn('ref', 'text')
      .addColumn('country', 'text')
      .addColumn('state', 'text')
      .addColumn('city', 'text')
      .addColumn('location', 'text')
      .addColumn('locale', 'text')
      .addColumn('timezone', 'text')
      .addColumn('gender', 'text', (c) => c.notNull().defaultTo('unknown').check(sql`gender in ('male', 'female', 'unknown')`))
      .addColumn('email_verified', bool, (c) => c.notNull().defaultTo(f))
      .addColumn('email_opt_in', bool, (c) => c.notNull().defaultTo(f))
      .addColumn('last_read_at', ts)
      .addColumn('subscribed_at', ts)
      .addColumn('broadcast_subscribed_at', ts)
      .addColumn('blocked_at', ts)
      // Newest inbound or outbound message: with created_at it decides who is a monthly active contact.
      .addColumn('last_message_at', ts),
  ).execute();
  // Emails are unique per workspace regardless of case, phone numbers exactly.
  await db.schema
    .createIndex('contacts_workspace_email_uq')
    .on('contacts')
    .unique()
    .columns(['workspace_id'])
    .expression(sql`lower(email)`)
    .where(sql.ref('email'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('contacts_workspace_phone_uq')
    .on('contacts')
    .unique()
    .columns(['workspace_id', 'phone_number'])
    .where(sql.ref('phone_number'), 'is not', null)
    .execute();
  await db.schema.createIndex('contacts_workspace_created_idx').on('contacts').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('contacts_workspace_message_idx').on('contacts').columns(['workspace_id', 'last_message_at']).execute();

  await stamps(
    workspaceRef(table('custom_fields'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('type', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('custom_fields_workspace_idx').on('custom_fields').columns(['workspace_id', 'name']).execute();

  await stamps(
    workspaceRef(table('contact_custom_fields'))
      .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
      .addColumn('custom_field_id', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
      .addColumn('value', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('contact_custom_fields_contact_field_uq')
    .on('contact_custom_fields')
    .unique()
    .columns(['contact_id', 'custom_field_id'])
    .execute();
  await db.schema.createIndex('contact_custom_fields_field_idx').on('contact_custom_fields').column('custom_field_id').execute();
  await db.schema.createIndex('contact_custom_fields_workspace_idx').on('contact_custom_fields').column('workspace_id').execute();

  await stamps(
    workspaceRef(table('tags'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('folder_id', 'integer')
      .addColumn('deleted_at', ts),
  ).execute();
  await db.schema.createIndex('tags_workspace_name_idx').on('tags').columns(['workspace_id', 'name']).execute();

  await workspaceRef(db.schema.createTable('contact_tags'))
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_tags_pk', ['contact_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('contact_tags_tag_idx').on('contact_tags').column('tag_id').execute();
  await db.schema.createIndex('contact_tags_workspace_idx').on('contact_tags').column('workspace_id').execute();

  await stamps(
    workspaceRef(table('contact_notes'))
      .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
      .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('text', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('contact_notes_contact_idx').on('contact_notes').columns(['contact_id', 'created_at']).execute();
  await db.schema.createIndex('contact_notes_created_by_idx').on('contact_notes').column('created_by_id').execute();
  await db.schema.createIndex('contact_notes_workspace_idx').on('contact_notes').column('workspace_id').execute();

  await stamps(
    workspaceRef(table('inboxes'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('source_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active')),
  ).execute();
  await db.schema.createIndex('inboxes_workspace_idx').on('inboxes').column('workspace_id').execute();

  await workspaceRef(table('contact_inboxes'))
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('inbox_id', 'integer', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_inboxes_contact_inbox_uq').on('contact_inboxes').unique().columns(['contact_id', 'inbox_id']).execute();
  await db.schema.createIndex('contact_inboxes_inbox_idx').on('contact_inboxes').column('inbox_id').execute();
  await db.schema.createIndex('contact_inboxes_workspace_idx').on('contact_inboxes').column('workspace_id').execute();

  await stamps(workspaceRef(table('inbox_teams')).addColumn('name', 'text', (c) => c.notNull())).execute();
  await db.schema.createIndex('inbox_teams_workspace_idx').on('inbox_teams').column('workspace_id').execute();

  await stamps(
    workspaceRef(table('conversations'))
      .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
      .addColumn('inbox_id', 'integer', (c) => c.references('inboxes.id').onDelete('set null'))
      .addColumn('assigned_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('assigned_inbox_team_id', 'integer', (c) => c.references('inbox_teams.id').onDelete('set null'))
      .addColumn('bot_enabled', bool, (c) => c.notNull().defaultTo(t))
      .addColumn('followed', bool, (c) => c.notNull().defaultTo(t))
      .addColumn('additional_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('ai_context_last_message_id', 'text')
      .addColumn('bot_resume_at', ts)
      .addColumn('archived_at', ts)
      .addColumn('contact_last_read_at', ts)
      .addColumn('agent_last_read_at', ts)
      .addColumn('last_activity_at', ts)
      .addColumn('admin_replied_at', ts)
      .addColumn('contact_replied_at', ts),
  ).execute();
  await db.schema.createIndex('conversations_workspace_activity_idx').on('conversations').columns(['workspace_id', 'last_activity_at']).execute();
  await db.schema.createIndex('conversations_contact_idx').on('conversations').column('contact_id').execute();
  await db.schema.createIndex('conversations_inbox_idx').on('conversations').column('inbox_id').execute();
  await db.schema.createIndex('conversations_user_idx').on('conversations').column('assigned_user_id').execute();
  await db.schema.createIndex('conversations_team_idx').on('conversations').column('assigned_inbox_team_id').execute();

  await stamps(workspaceRef(table('sequences')).addColumn('name', 'text', (c) => c.notNull())).execute();
  await db.schema.createIndex('sequences_workspace_idx').on('sequences').column('workspace_id').execute();

  await workspaceRef(table('sequence_subscriptions'))
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('sequence_id', 'integer', (c) => c.notNull().references('sequences.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sequence_subscriptions_contact_sequence_uq')
    .on('sequence_subscriptions')
    .unique()
    .columns(['contact_id', 'sequence_id'])
    .execute();
  await db.schema.createIndex('sequence_subscriptions_sequence_idx').on('sequence_subscriptions').column('sequence_id').execute();
  await db.schema.createIndex('sequence_subscriptions_workspace_idx').on('sequence_subscriptions').column('workspace_id').execute();

  // Nested objects of the contract (post selector, replies, keywords, options, ...) are stored as
  // JSON text: they are always read and written whole and never filtered on.
  await stamps(
    workspaceRef(table('comment_automations'))
      .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('photo', 'net')`))
      .addColumn('folder_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('is_active', bool, (c) => c.notNull().defaultTo(t))
      .addColumn('start_time', 'text')
      .addColumn('end_time', 'text')
      .addColumn('replies_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sent_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('delivered_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('seen_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('clicked_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('missed_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('post', 'text', (c) => c.notNull())
      .addColumn('private_reply', 'text', (c) => c.notNull())
      .addColumn('public_reply', 'text', (c) => c.notNull())
      .addColumn('include_keywords', 'text', (c) => c.notNull())
      .addColumn('exclude_keywords', 'text', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('hide_comments', 'text', (c) => c.notNull())
      .addColumn('reply_after', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('comment_automations_workspace_channel_idx')
    .on('comment_automations')
    .columns(['workspace_id', 'channel', 'created_at'])
    .execute();

  await stamps(
    workspaceRef(table('lead_ad_automations'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('page_id', 'text')
      .addColumn('form_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('is_active', bool, (c) => c.notNull().defaultTo(t))
      .addColumn('reply', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('lead_ad_automations_workspace_idx').on('lead_ad_automations').columns(['workspace_id', 'created_at']).execute();

  await stamps(
    workspaceRef(table('dynamic_images'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('custom_field_id', 'integer', (c) => c.references('custom_fields.id').onDelete('set null'))
      .addColumn('background_url', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('image_url', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('enabled', bool, (c) => c.notNull().defaultTo(t))
      .addColumn('data', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('dynamic_images_workspace_created_idx').on('dynamic_images').columns(['workspace_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('dynamic_images_custom_field_idx').on('dynamic_images').column('custom_field_id').execute();

  await stamps(
    workspaceRef(table('error_logs'))
      .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('http_code', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('error_logs_workspace_created_idx').on('error_logs').columns(['workspace_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('error_logs_contact_idx').on('error_logs').column('contact_id').execute();

  // Substring search ("keyword") on error logs and image names must not scan: trigram indexes.
  if (pg) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index error_logs_detail_trgm_idx on error_logs using gin (detail gin_trgm_ops)`.execute(db);
    await sql`create index error_logs_action_trgm_idx on error_logs using gin (action gin_trgm_ops)`.execute(db);
    await sql`create index dynamic_images_name_trgm_idx on dynamic_images using gin (name gin_trgm_ops)`.execute(db);
    await sql`create index contacts_search_trgm_idx on contacts using gin ((coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, '')) gin_trgm_ops)`.execute(db);
  } else {
    // External-content FTS5 table kept in step by triggers; the trigram tokenizer lets LIKE
    // '%word%' (3+ characters) use the index, case-insensitively.
    await sql`create virtual table error_logs_fts using fts5(detail, action, content='error_logs', content_rowid='id', tokenize='trigram')`.execute(db);
    await sql`create trigger error_logs_fts_insert after insert on error_logs begin
      insert into error_logs_fts(rowid, detail, action) values (new.id, new.detail, new.action); end`.execute(db);
    await sql`create trigger error_logs_fts_delete after delete on error_logs begin
      insert into error_logs_fts(error_logs_fts, rowid, detail, action) values ('delete', old.id, old.detail, old.action); end`.execute(db);
    await sql`create trigger error_logs_fts_update after update of detail, action on error_logs begin
      insert into error_logs_fts(error_logs_fts, rowid, detail, action) values ('delete', old.id, old.detail, old.action);
      insert into error_logs_fts(rowid, detail, action) values (new.id, new.detail, new.action); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!pg) await sql`drop table if exists error_logs_fts`.execute(db);
  for (const name of [
    'error_logs', 'dynamic_images', 'lead_ad_automations', 'comment_automations', 'sequence_subscriptions', 'sequences',
    'conversations', 'inbox_teams', 'contact_inboxes', 'inboxes', 'contact_notes', 'contact_tags', 'tags',
    'contact_custom_fields', 'custom_fields', 'contacts', 'api_tokens', 'users', 'workspaces',
  ]) {
    await db.schema.dropTable(name).ifExists().execute();
  }
}
