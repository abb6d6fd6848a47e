import { type Kysely, PostgresAdapter, sql, type ColumnDataType, type CreateTableBuilder } from 'kysely';

/**
 * The sandbox channel adapter's tables (issue engine). Frozen in time: imports nothing from src/.
 * - `outbox`: every action the sandbox adapter took instead of calling a network (private and
 *   public replies, messages, likes, hides, unhides), so a user sees exactly what would have been
 *   sent. An append-only record: only the workspace owns it (FK, cascade). The inbox, contact and
 *   automation it names are plain integers without foreign keys: deleting a contact or an automation
 *   must neither take its history along nor be held back by it, and an automation id names a row of
 *   one of two tables (`automation_kind`: comment or leadAd), which no single foreign key can.
 *   Listed newest first by id, filtered by action, automation or contact: one index per filter,
 *   each ending in id so the page reads in order. The channel filter (two values) reads the
 *   workspace's index and filters.
 * - `sandbox_records`: what the sandbox adapter answers fetches with (a lead by its lead id, a
 *   profile by the network's user id), one row per workspace, kind and id, filled by dev events.
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

  await table('outbox')
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('inbox_id', 'integer', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('photo', 'net')`))
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('privateReply', 'publicReply', 'message', 'like', 'hide', 'unhide')`))
    .addColumn('comment_id', 'text')
    .addColumn('post_id', 'text')
    .addColumn('recipient_id', 'text')
    .addColumn('contact_id', 'integer')
    .addColumn('automation_kind', 'text', (c) => c.check(sql`automation_kind in ('comment', 'leadAd')`))
    .addColumn('automation_id', 'integer')
    .addColumn('payload', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addCheckConstraint('outbox_automation_pair', sql`(automation_kind is null) = (automation_id is null)`)
    .execute();
  await db.schema.createIndex('outbox_workspace_id_idx').on('outbox').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('outbox_workspace_action_idx').on('outbox').columns(['workspace_id', 'action', 'id']).execute();
  await db.schema.createIndex('outbox_workspace_automation_idx').on('outbox').columns(['workspace_id', 'automation_id', 'id']).execute();
  await db.schema.createIndex('outbox_workspace_contact_idx').on('outbox').columns(['workspace_id', 'contact_id', 'id']).execute();

  await table('sandbox_records')
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('lead', 'profile')`))
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_records_workspace_kind_external_uq').on('sandbox_records').unique().columns(['workspace_id', 'kind', 'external_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sandbox_records').execute();
  await db.schema.dropTable('outbox').execute();
}
