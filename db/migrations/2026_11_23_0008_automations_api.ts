import { type Kysely, PostgresAdapter, sql, type ColumnDataType, type CreateTableBuilder } from 'kysely';

/**
 * What the automations API (issue automations-api) needs from the schema. Frozen in time: imports
 * nothing from src/.
 * - `channel_posts`: the media and posts of the workspace's connected accounts, per inbox. The demo
 *   data fills it; the automation engine keeps it up to date from events. The network's own id is
 *   unique per workspace and channel.
 * - `lead_pages` and `lead_forms`: the connected pages and their lead forms (questions as JSON).
 * - Lead-ad automations gain their question-to-custom-field mapping, tags and sequences as rows
 *   that reference the records (a deleted field, tag or sequence leaves the automation).
 * - `lead_ad_form_claims`: which automation answers which form of a page (`*`: every form). The
 *   automation keeps its ordered `form_ids`; the claims repeat them as rows because a unique index
 *   cannot look inside a JSON array, and "one automation per page and form" must hold under races.
 *   Existing automations claim their forms oldest first; a later duplicate keeps its forms unclaimed
 *   and must be changed before it can be saved again.
 * - Comment automations are listed on REST newest first by creation time, ties by id, one channel
 *   at a time: (workspace_id, channel, created_at, id) serves that order.
 * - Conversations are listed by last activity, ties by id: a (workspace_id, last_activity_at, id)
 *   index replaces (workspace_id, last_activity_at), and rows without activity take their creation
 *   time, so the order key is never null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts: ColumnDataType = pg ? 'timestamptz' : 'text';
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
    workspaceRef(table('channel_posts'))
      .addColumn('inbox_id', 'integer', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
      .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('photo', 'net')`))
      .addColumn('external_id', 'text', (c) => c.notNull())
      .addColumn('caption', 'text')
      .addColumn('media_type', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('published', 'ads', 'reels')`))
      .addColumn('permalink', 'text')
      .addColumn('thumbnail_url', 'text')
      .addColumn('posted_at', ts, (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('channel_posts_workspace_external_uq').on('channel_posts').unique().columns(['workspace_id', 'channel', 'external_id']).execute();
  await db.schema.createIndex('channel_posts_workspace_posted_idx').on('channel_posts').columns(['workspace_id', 'channel', 'posted_at', 'id']).execute();
  await db.schema.createIndex('channel_posts_inbox_idx').on('channel_posts').column('inbox_id').execute();

  await stamps(
    workspaceRef(table('lead_pages'))
      .addColumn('inbox_id', 'integer', (c) => c.references('inboxes.id').onDelete('set null'))
      .addColumn('external_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('lead_pages_workspace_external_uq').on('lead_pages').unique().columns(['workspace_id', 'external_id']).execute();
  await db.schema.createIndex('lead_pages_inbox_idx').on('lead_pages').column('inbox_id').execute();

  await stamps(
    workspaceRef(table('lead_forms'))
      .addColumn('lead_page_id', 'integer', (c) => c.notNull().references('lead_pages.id').onDelete('cascade'))
      .addColumn('external_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'archived')`))
      .addColumn('questions', 'text', (c) => c.notNull().defaultTo('[]')),
  ).execute();
  await db.schema.createIndex('lead_forms_workspace_external_uq').on('lead_forms').unique().columns(['workspace_id', 'external_id']).execute();
  await db.schema.createIndex('lead_forms_page_idx').on('lead_forms').columns(['lead_page_id', 'id']).execute();

  const automationRef = <T extends CreateTableBuilder<string, any>>(b: T) =>
    workspaceRef(b).addColumn('automation_id', 'integer', (c) => c.notNull().references('lead_ad_automations.id').onDelete('cascade'));

  await automationRef(table('lead_ad_form_claims'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lead_ad_form_claims_page_form_uq').on('lead_ad_form_claims').unique().columns(['workspace_id', 'page_id', 'form_id']).execute();
  await db.schema.createIndex('lead_ad_form_claims_automation_idx').on('lead_ad_form_claims').column('automation_id').execute();
  await db.schema.createIndex('lead_ad_form_claims_workspace_idx').on('lead_ad_form_claims').column('workspace_id').execute();

  await automationRef(table('lead_ad_field_mappings'))
    .addColumn('question_key', 'text', (c) => c.notNull())
    .addColumn('custom_field_id', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('lead_ad_field_mappings_question_uq').on('lead_ad_field_mappings').unique().columns(['automation_id', 'question_key']).execute();
  await db.schema.createIndex('lead_ad_field_mappings_field_idx').on('lead_ad_field_mappings').column('custom_field_id').execute();
  await db.schema.createIndex('lead_ad_field_mappings_workspace_idx').on('lead_ad_field_mappings').column('workspace_id').execute();

  await automationRef(table('lead_ad_tags'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('lead_ad_tags_automation_tag_uq').on('lead_ad_tags').unique().columns(['automation_id', 'tag_id']).execute();
  await db.schema.createIndex('lead_ad_tags_tag_idx').on('lead_ad_tags').column('tag_id').execute();
  await db.schema.createIndex('lead_ad_tags_workspace_idx').on('lead_ad_tags').column('workspace_id').execute();

  await automationRef(table('lead_ad_sequences'))
    .addColumn('sequence_id', 'integer', (c) => c.notNull().references('sequences.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('lead_ad_sequences_automation_sequence_uq').on('lead_ad_sequences').unique().columns(['automation_id', 'sequence_id']).execute();
  await db.schema.createIndex('lead_ad_sequences_sequence_idx').on('lead_ad_sequences').column('sequence_id').execute();
  await db.schema.createIndex('lead_ad_sequences_workspace_idx').on('lead_ad_sequences').column('workspace_id').execute();

  // Existing automations claim their forms, oldest first.
  const existing = await db.selectFrom('lead_ad_automations').select(['id', 'workspace_id', 'page_id', 'form_ids']).where('page_id', 'is not', null).orderBy('id').execute();
  const claimed = new Set<string>();
  for (const a of existing) {
    let forms: unknown;
    try {
      forms = JSON.parse(a.form_ids);
    } catch {
      continue;
    }
    if (!Array.isArray(forms)) continue;
    for (const form of new Set(forms.map(String))) {
      const key = JSON.stringify([a.workspace_id, a.page_id, form]);
      if (claimed.has(key)) continue;
      claimed.add(key);
      await db.insertInto('lead_ad_form_claims').values({ workspace_id: a.workspace_id, automation_id: a.id, page_id: a.page_id, form_id: form }).execute();
    }
  }

  await db.schema
    .createIndex('comment_automations_workspace_channel_created_idx')
    .on('comment_automations')
    .columns(['workspace_id', 'channel', 'created_at', 'id'])
    .execute();

  await db.updateTable('conversations').set({ last_activity_at: sql`created_at` }).where('last_activity_at', 'is', null).execute();
  await db.schema.dropIndex('conversations_workspace_activity_idx').execute();
  await db.schema.createIndex('conversations_workspace_activity_id_idx').on('conversations').columns(['workspace_id', 'last_activity_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('comment_automations_workspace_channel_created_idx').execute();
  await db.schema.dropIndex('conversations_workspace_activity_id_idx').execute();
  await db.schema.createIndex('conversations_workspace_activity_idx').on('conversations').columns(['workspace_id', 'last_activity_at']).execute();
  for (const name of ['lead_ad_sequences', 'lead_ad_tags', 'lead_ad_field_mappings', 'lead_ad_form_claims', 'lead_forms', 'lead_pages', 'channel_posts']) {
    await db.schema.dropTable(name).execute();
  }
}
