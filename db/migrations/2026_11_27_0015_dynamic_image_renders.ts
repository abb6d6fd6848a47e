import { PostgresAdapter, type ColumnDataType, type Kysely } from 'kysely';

/**
 * Rendered dynamic images. Frozen in time: imports nothing from src/.
 * - `dynamic_image_renders`: one PNG per content hash (the image, its revision and the values drawn:
 *   two contacts with equal values share a row). `kind` is `layer` for a template's static lower
 *   layer (baked when the template is saved) or `render` for a finished picture. PostgreSQL keeps
 *   the bytes in `content`; SQLite deployments keep them in files beside the database and `content`
 *   stays null. `last_used_at` orders the least recently used for eviction past the size cap.
 * - `service_secrets`: secrets the service makes for itself on first use (the key that signs
 *   public image links), shared by every process on the database and kept across restarts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts: ColumnDataType = pg ? 'timestamptz' : 'text';

  await db.schema
    .createTable('dynamic_image_renders')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('image_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', pg ? 'bytea' : 'blob')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dynamic_image_renders_used_idx').on('dynamic_image_renders').columns(['last_used_at']).execute();
  await db.schema.createIndex('dynamic_image_renders_image_idx').on('dynamic_image_renders').columns(['image_id']).execute();
  // Deleting a workspace deletes its renders through the foreign key.
  await db.schema.createIndex('dynamic_image_renders_workspace_idx').on('dynamic_image_renders').columns(['workspace_id']).execute();

  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('service_secrets').execute();
  await db.schema.dropTable('dynamic_image_renders').execute();
}
