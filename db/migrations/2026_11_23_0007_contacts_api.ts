import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * What the contacts API (issue contacts-api) needs from the schema. Frozen in time: imports nothing
 * from src/.
 * - `sequences.is_active`: sequences can be switched off.
 * - `custom_fields.options`: the choices of a `select` field, as a JSON array (null for other types).
 * - Names unique per workspace regardless of case: custom fields always, tags among live ones only
 *   (a deleted tag frees its name). The lookups by name use the same expressions, so they are
 *   served by these indexes.
 * - `contact_custom_fields (workspace_id, custom_field_id, value)`: exact-value lookups
 *   (find-by-custom-field, the search tree's `equals`) read only the matching rows.
 * - `contacts (workspace_id, updated_at)`: the search tree's updated ranges.
 * Names that were allowed before and now collide (`VIP` and `vip`) would stop the migration, and the
 * server with it: every such name but the oldest gets its id appended (`vip (12)`), so nothing is
 * lost and the names can be merged or renamed through the API.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const bool = pg ? 'boolean' : 'integer';
  await db.schema.alterTable('sequences').addColumn('is_active', bool, (c) => c.notNull().defaultTo(pg ? sql`true` : 1)).execute();
  await db.schema.alterTable('custom_fields').addColumn('options', 'text').execute();
  await sql`update custom_fields set name = name || ' (' || id || ')'
    where exists (select 1 from custom_fields older where older.workspace_id = custom_fields.workspace_id
      and lower(older.name) = lower(custom_fields.name) and older.id < custom_fields.id)`.execute(db);
  await sql`update tags set name = name || ' (' || id || ')' where deleted_at is null
    and exists (select 1 from tags older where older.workspace_id = tags.workspace_id and older.deleted_at is null
      and lower(older.name) = lower(tags.name) and older.id < tags.id)`.execute(db);
  await db.schema.createIndex('custom_fields_workspace_lower_name_uq').on('custom_fields').unique().columns(['workspace_id']).expression(sql`lower(name)`).execute();
  await db.schema
    .createIndex('tags_workspace_live_lower_name_uq')
    .on('tags')
    .unique()
    .columns(['workspace_id'])
    .expression(sql`lower(name)`)
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('contact_custom_fields_field_value_idx')
    .on('contact_custom_fields')
    .columns(['workspace_id', 'custom_field_id', 'value'])
    .execute();
  await db.schema.createIndex('contacts_workspace_updated_idx').on('contacts').columns(['workspace_id', 'updated_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('contacts_workspace_updated_idx').execute();
  await db.schema.dropIndex('contact_custom_fields_field_value_idx').execute();
  await db.schema.dropIndex('tags_workspace_live_lower_name_uq').execute();
  await db.schema.dropIndex('custom_fields_workspace_lower_name_uq').execute();
  await db.schema.alterTable('custom_fields').dropColumn('options').execute();
  await db.schema.alterTable('sequences').dropColumn('is_active').execute();
}
