import { type Kysely, PostgresAdapter, sql, type ColumnDataType, type CreateTableBuilder } from 'kysely';

/**
 * Events out. Frozen in time: imports nothing from src/.
 * - `workspace_events`: what changed in a workspace (a tag applied, a new contact, a conversation
 *   assigned, ...), written in the transaction of the change, with the body a receiver gets. A
 *   job fans new events out to the workspace's webhooks (`fanned_out_at` marks the ones it took:
 *   the partial index finds the rest), and GraphQL subscriptions read them after an id. The
 *   contact and the tag or sequence an event names are plain integers: deleting them keeps the
 *   history.
 * - `webhooks`: a workspace's endpoints, their conditions (JSON: type and optional source id),
 *   their signing secret (and the previous one, which still signs until `previous_secret_until`
 *   after a rotation), and their health: `failing_since` (every delivery failing since then) and
 *   `disabled_reason` when the service switched one off.
 * - `webhook_deliveries`: an event for one endpoint, with its state and the time of its next
 *   attempt; `webhook_attempts`: each try, its status code or error and the start of the answer.
 *   `sending_until` is the lease of the try being sent: two jobs for one try never both send.
 * - `external_webhooks`: the flow-data trigger's registrations (url, event, provider).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts: ColumnDataType = pg ? 'timestamptz' : 'text';
  const bool: ColumnDataType = pg ? 'boolean' : 'integer';
  const table = (name: string) => {
    const builder = db.schema.createTable(name);
    return (pg
      ? builder.addColumn('id', 'serial', (c) => c.primaryKey())
      : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())) as CreateTableBuilder<string, any>;
  };
  const workspace = (c: any) => c.notNull().references('workspaces.id').onDelete('cascade');

  await table('workspace_events')
    .addColumn('workspace_id', 'integer', workspace)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'integer')
    .addColumn('source_id', 'integer')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('occurred_at', ts, (c) => c.notNull())
    .addColumn('fanned_out_at', ts)
    .execute();
  await db.schema.createIndex('workspace_events_workspace_idx').on('workspace_events').columns(['workspace_id', 'id']).execute();
  await db.schema
    .createIndex('workspace_events_unfanned_idx')
    .on('workspace_events')
    .columns(['id'])
    .where(sql.ref('fanned_out_at'), 'is', null)
    .execute();

  await table('webhooks')
    .addColumn('workspace_id', 'integer', workspace)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('enabled', bool, (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', ts)
    .addColumn('failing_since', ts)
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_workspace_idx').on('webhooks').columns(['workspace_id', 'id']).execute();

  await table('webhook_deliveries')
    .addColumn('workspace_id', 'integer', workspace)
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('workspace_events.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'succeeded', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', ts)
    .addColumn('sending_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_webhook_idx').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').columns(['event_id']).execute();
  await db.schema.createIndex('webhook_deliveries_workspace_idx').on('webhook_deliveries').columns(['workspace_id']).execute();

  await table('webhook_attempts')
    .addColumn('workspace_id', 'integer', workspace)
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', ts, (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'id']).execute();
  await db.schema.createIndex('webhook_attempts_workspace_idx').on('webhook_attempts').columns(['workspace_id']).execute();

  await table('external_webhooks')
    .addColumn('workspace_id', 'integer', workspace)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('external_webhooks_workspace_idx').on('external_webhooks').columns(['workspace_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('external_webhooks').execute();
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
  await db.schema.dropTable('workspace_events').execute();
}
