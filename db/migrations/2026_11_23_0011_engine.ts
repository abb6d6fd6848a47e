import { type Kysely, PostgresAdapter, sql, type ColumnDataType, type CreateTableBuilder } from 'kysely';

/**
 * What the automation engine (issue engine) keeps. Frozen in time: imports nothing from src/.
 * - `contact_inboxes.source_id`: the network's id of the person in that inbox (page- or
 *   account-scoped user id). An event's author is matched to a contact through it; unique per inbox
 *   so two concurrent events of one person make one contact inbox.
 * - `channel_events`: every event a webhook (or a dev event) delivered, stored before the webhook is
 *   acknowledged, in the transaction that enqueues its job. Unique per workspace, inbox, kind and
 *   the network's id of the comment, lead or message: a redelivered event inserts nothing and
 *   enqueues nothing. `outcome` says what processing it did, once done.
 * - `comment_events`: what each automation did with each comment it saw (one row per automation and
 *   comment: a retried job finds its row), newest first per automation for GET .../events; the
 *   (automation, author, post) index answers "whom did it answer on which post".
 * - `comment_reply_claims`: one private (and one public) reply per comment, whichever automations
 *   match it: the unique index is the claim.
 * - `messages`: the messages of a conversation, both ways; unique per inbox by the network's id
 *   (a redelivered message is stored once), listed per contact newest first. Outgoing messages of
 *   an automation name it, so read and postback receipts count seen and clicked on it once.
 * - `outbox.dedupe_key`: the sandbox adapter records a retried send once.
 * - `conversations (contact_id, inbox_id, id)`: the engine finds a contact's latest conversation in
 *   an inbox on every event; with only the single-column indexes SQLite walked the inbox's whole
 *   conversation list (136 us per lookup at 3,000 conversations, growing with the inbox).
 * - `workspaces.comment_automations_version`: moves with every change of a comment automation's
 *   definition, so each process can keep the compiled active automations of a workspace and check
 *   they are current with one primary-key read per event.
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
  const workspaceRef = <T extends CreateTableBuilder<string, any>>(b: T) =>
    b.addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'));
  const channel = <T extends CreateTableBuilder<string, any>>(b: T) => b.addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('photo', 'net')`));

  // Webhooks name the account; its inboxes are found by it (any workspace that connected it).
  await db.schema.createIndex('inboxes_source_idx').on('inboxes').columns(['source_id', 'channel']).execute();
  await db.schema.alterTable('contact_inboxes').addColumn('source_id', 'text').execute();
  await db.schema.createIndex('contact_inboxes_inbox_source_uq').on('contact_inboxes').unique().columns(['inbox_id', 'source_id']).execute();

  await channel(workspaceRef(table('channel_events')))
    .addColumn('inbox_id', 'integer', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('comment', 'lead', 'message', 'read', 'postback')`))
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('webhook', 'dev')`))
    .addColumn('received_at', ts, (c) => c.notNull())
    .addColumn('processed_at', ts)
    .addColumn('outcome', 'text')
    .execute();
  await db.schema.createIndex('channel_events_inbox_idx').on('channel_events').columns(['inbox_id']).execute();
  await db.schema.createIndex('channel_events_dedupe_uq').on('channel_events').unique().columns(['workspace_id', 'inbox_id', 'kind', 'external_id']).execute();

  await channel(workspaceRef(table('comment_events')))
    .addColumn('automation_id', 'integer', (c) => c.notNull().references('comment_automations.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('channel_events.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text')
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'integer')
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('pending', 'acted', 'declined', 'failed')`))
    .addColumn('reason', 'text')
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comment_events_automation_comment_uq').on('comment_events').unique().columns(['automation_id', 'comment_id']).execute();
  await db.schema.createIndex('comment_events_event_idx').on('comment_events').columns(['event_id']).execute();
  await db.schema.createIndex('comment_events_workspace_automation_idx').on('comment_events').columns(['workspace_id', 'automation_id', 'id']).execute();
  await db.schema.createIndex('comment_events_automation_author_idx').on('comment_events').columns(['automation_id', 'author_id', 'post_id']).execute();

  await workspaceRef(table('comment_reply_claims'))
    .addColumn('inbox_id', 'integer', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('private', 'public')`))
    .addColumn('automation_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comment_reply_claims_workspace_idx').on('comment_reply_claims').columns(['workspace_id']).execute();
  await db.schema.createIndex('comment_reply_claims_uq').on('comment_reply_claims').unique().columns(['inbox_id', 'comment_id', 'kind']).execute();

  await workspaceRef(table('messages'))
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('inbox_id', 'integer', (c) => c.notNull().references('inboxes.id').onDelete('cascade'))
    .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('incoming', 'outgoing')`))
    .addColumn('external_id', 'text')
    .addColumn('text', 'text')
    .addColumn('attachments', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('received', 'sent', 'failed')`))
    .addColumn('error', 'text')
    .addColumn('automation_kind', 'text', (c) => c.check(sql`automation_kind in ('comment', 'leadAd')`))
    .addColumn('automation_id', 'integer')
    .addColumn('seen_at', ts)
    .addColumn('clicked_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('messages_inbox_external_uq').on('messages').unique().columns(['inbox_id', 'external_id']).execute();
  await db.schema.createIndex('messages_workspace_contact_idx').on('messages').columns(['workspace_id', 'contact_id', 'id']).execute();
  await db.schema.createIndex('messages_contact_idx').on('messages').columns(['contact_id']).execute();
  await db.schema.createIndex('messages_conversation_idx').on('messages').columns(['conversation_id', 'id']).execute();

  await db.schema.alterTable('outbox').addColumn('dedupe_key', 'text').execute();
  await db.schema.createIndex('conversations_contact_inbox_idx').on('conversations').columns(['contact_id', 'inbox_id', 'id']).execute();
  await db.schema.alterTable('workspaces').addColumn('comment_automations_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('outbox_workspace_dedupe_uq').on('outbox').unique().columns(['workspace_id', 'dedupe_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('comment_automations_version').execute();
  await db.schema.dropIndex('conversations_contact_inbox_idx').execute();
  await db.schema.dropIndex('outbox_workspace_dedupe_uq').execute();
  await db.schema.alterTable('outbox').dropColumn('dedupe_key').execute();
  await db.schema.dropTable('messages').execute();
  await db.schema.dropTable('comment_reply_claims').execute();
  await db.schema.dropTable('comment_events').execute();
  await db.schema.dropTable('channel_events').execute();
  await db.schema.dropIndex('contact_inboxes_inbox_source_uq').execute();
  await db.schema.dropIndex('inboxes_source_idx').execute();
  await db.schema.alterTable('contact_inboxes').dropColumn('source_id').execute();
}
