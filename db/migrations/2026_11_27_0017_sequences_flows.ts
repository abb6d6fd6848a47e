import { PostgresAdapter, sql, type ColumnDataType, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Sequences that send, folders, flows and thread control. Frozen in time: imports nothing from src/.
 * - `folders`: a workspace's folders of one `type` (`sequence` or `commentAutomation`), nested by
 *   `parent_id`. Deleting a folder deletes its sub-folders (the service does it, so it can un-file
 *   what was in them first).
 * - `sequences.folder_id`: the folder a sequence is filed in, if any.
 * - `flows`: a workspace's flows, each an ordered list of messages and actions (`items`, JSON).
 * - `sequence_steps`: a sequence's steps, run in (`step_order`, `id`) order: when each is due
 *   (`delay_unit` with `delay_days` / `delay_minutes`, or `specific_date_time`), the send window
 *   (`anytime`, or `send_time_start`..`send_time_end` on `send_days`, in the workspace's zone) and
 *   the flow it sends.
 * - `sequence_subscriptions.next_step_id` / `next_run_at`: where a subscriber is in its sequence and
 *   when that step is due; `held` names why it waits (the sequence is switched off) with no job.
 * - `sequence_step_events`: what each step did for each contact: sent, failed, skipped (with the
 *   reason), moved into the send window; the step-contacts listing reads it.
 * - `flow_runs`: every time a flow is sent to a contact (by the API, a sequence step or an
 *   automation), its state and the reason it was not sent; the per-contact hourly limit counts it.
 * - `thread_states`: who holds each contact inbox's thread (thread control), per contact inbox.
 * - `outbox.action` takes `threadControl` (the sandbox's record of a handover call) and
 *   `channel_events.kind` takes `handover` and `standby` (the networks' handover webhooks): their
 *   CHECK constraints are widened (on SQLite by rebuilding the table, which is how SQLite changes a
 *   constraint).
 */

const outboxActions = ['privateReply', 'publicReply', 'message', 'like', 'hide', 'unhide'];
const eventKinds = ['comment', 'lead', 'message', 'read', 'postback'];
const list = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * Replaces the CHECK of `column in (...)` on `table` by one allowing `values`. PostgreSQL names a
 * column's check `<table>_<column>_check`. SQLite cannot alter a constraint: the table is rebuilt
 * from its own DDL with the new list (rows, indexes and the references to it kept), with foreign
 * keys off meanwhile so that dropping the old table cascades nothing (SQLite runs migrations
 * outside a transaction, where the pragma applies).
 */
async function setCheckList(db: Kysely<any>, pg: boolean, table: string, column: string, from: string[], to: string[]): Promise<void> {
  if (pg) {
    await sql.raw(`alter table ${table} drop constraint if exists ${table}_${column}_check`).execute(db);
    await sql.raw(`alter table ${table} add constraint ${table}_${column}_check check (${column} in (${list(to)}))`).execute(db);
    return;
  }
  const { rows } = await sql<{ type: string; sql: string | null }>`select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db);
  const ddl = rows.find((r) => r.type === 'table')!.sql!;
  // Already so (a down that stopped half-way after this step, run again).
  if (ddl.includes(`${column} in (${list(to)})`)) return;
  const oldCheck = `${column} in (${list(from)})`;
  if (!ddl.includes(oldCheck)) throw new Error(`${table}: no check "${oldCheck}" in ${ddl}`);
  const rebuilt = `${table}_rebuilt`;
  const newDdl = ddl.replace(oldCheck, `${column} in (${list(to)})`).replace(/^create table ("?)[^\s"(]+\1/i, `create table "${rebuilt}"`);
  await sql.raw('pragma foreign_keys = off').execute(db);
  try {
    await sql.raw(newDdl).execute(db);
    await sql.raw(`insert into "${rebuilt}" select * from "${table}"`).execute(db);
    await sql.raw(`drop table "${table}"`).execute(db);
    await sql.raw(`alter table "${rebuilt}" rename to "${table}"`).execute(db);
    for (const r of rows.filter((x) => x.type !== 'table')) await sql.raw(r.sql!).execute(db);
  } finally {
    await sql.raw('pragma foreign_keys = on').execute(db);
  }
}
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
  const created = (b: CreateTableBuilder<string, any>) => b.addColumn('created_at', ts, (c) => c.notNull()).addColumn('updated_at', ts, (c) => c.notNull());

  await created(
    table('folders')
      .addColumn('workspace_id', 'integer', workspace)
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'integer', (c) => c.references('folders.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('is_trash', bool, (c) => c.notNull().defaultTo(pg ? false : 0)),
  ).execute();
  await db.schema.createIndex('folders_workspace_idx').on('folders').columns(['workspace_id', 'type', 'parent_id']).execute();
  await db.schema.createIndex('folders_parent_idx').on('folders').columns(['parent_id']).execute();

  await db.schema.alterTable('sequences').addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('set null')).execute();
  await db.schema.createIndex('sequences_folder_idx').on('sequences').columns(['folder_id']).execute();

  await created(
    table('flows')
      .addColumn('workspace_id', 'integer', workspace)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('items', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('flows_workspace_idx').on('flows').columns(['workspace_id', 'id']).execute();

  await created(
    table('sequence_steps')
      // The workspace's rows go with their sequence (its foreign key cascades).
      .addColumn('workspace_id', 'integer', (c) => c.notNull())
      .addColumn('sequence_id', 'integer', (c) => c.notNull().references('sequences.id').onDelete('cascade'))
      .addColumn('step_order', 'integer', (c) => c.notNull())
      .addColumn('delay_unit', 'text', (c) => c.notNull())
      .addColumn('delay_days', 'integer')
      .addColumn('delay_minutes', 'integer')
      .addColumn('specific_date_time', ts)
      .addColumn('flow_id', 'integer', (c) => c.references('flows.id').onDelete('set null'))
      .addColumn('is_active', bool, (c) => c.notNull())
      .addColumn('anytime', bool, (c) => c.notNull())
      .addColumn('send_time_start', 'text')
      .addColumn('send_time_end', 'text')
      .addColumn('send_days', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('sequence_steps_sequence_idx').on('sequence_steps').columns(['sequence_id', 'step_order', 'id']).execute();
  await db.schema.createIndex('sequence_steps_flow_idx').on('sequence_steps').columns(['flow_id']).execute();

  await db.schema.alterTable('sequence_subscriptions').addColumn('next_step_id', 'integer').execute();
  await db.schema.alterTable('sequence_subscriptions').addColumn('next_run_at', ts).execute();
  await db.schema.alterTable('sequence_subscriptions').addColumn('held', 'text').execute();

  // Goes with its step (and the step with its sequence, the sequence with its workspace) or contact.
  await table('sequence_step_events')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('sequence_id', 'integer', (c) => c.notNull())
    .addColumn('step_id', 'integer', (c) => c.notNull().references('sequence_steps.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sequence_step_events_step_idx').on('sequence_step_events').columns(['step_id', 'event_type', 'id']).execute();
  await db.schema.createIndex('sequence_step_events_contact_idx').on('sequence_step_events').columns(['contact_id']).execute();

  await created(
    table('flow_runs')
      // Goes with its flow (and the flow with its workspace) or contact.
      .addColumn('workspace_id', 'integer', (c) => c.notNull())
      .addColumn('flow_id', 'integer', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
      .addColumn('conversation_id', 'integer')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text'),
  ).execute();
  await db.schema.createIndex('flow_runs_contact_idx').on('flow_runs').columns(['contact_id', 'created_at']).execute();
  await db.schema.createIndex('flow_runs_flow_idx').on('flow_runs').columns(['flow_id']).execute();

  await db.schema
    .createTable('thread_states')
    .addColumn('contact_inbox_id', 'integer', (c) => c.primaryKey().references('contact_inboxes.id').onDelete('cascade'))
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('owner_role', 'text')
    .addColumn('owner_app_id', 'text')
    .addColumn('transitioned_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts)
    .addColumn('last_event', 'text', (c) => c.notNull())
    .addColumn('last_event_source', 'text', (c) => c.notNull())
    .addColumn('last_user_message_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await setCheckList(db, pg, 'outbox', 'action', outboxActions, [...outboxActions, 'threadControl']);
  await setCheckList(db, pg, 'channel_events', 'kind', eventKinds, [...eventKinds, 'handover', 'standby']);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.deleteFrom('channel_events').where('kind', 'in', ['handover', 'standby']).execute();
  await setCheckList(db, pg, 'channel_events', 'kind', [...eventKinds, 'handover', 'standby'], eventKinds);
  await db.deleteFrom('outbox').where('action', '=', 'threadControl').execute();
  await setCheckList(db, pg, 'outbox', 'action', [...outboxActions, 'threadControl'], outboxActions);
  await db.schema.dropTable('thread_states').ifExists().execute();
  await db.schema.dropTable('flow_runs').execute();
  await db.schema.dropTable('sequence_step_events').execute();
  await db.schema.alterTable('sequence_subscriptions').dropColumn('held').execute();
  await db.schema.alterTable('sequence_subscriptions').dropColumn('next_run_at').execute();
  await db.schema.alterTable('sequence_subscriptions').dropColumn('next_step_id').execute();
  await db.schema.dropTable('sequence_steps').execute();
  await db.schema.dropTable('flows').execute();
  await db.schema.dropIndex('sequences_folder_idx').execute();
  await db.schema.alterTable('sequences').dropColumn('folder_id').execute();
  await db.schema.dropTable('folders').execute();
}
