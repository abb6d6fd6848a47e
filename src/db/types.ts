import type { Generated } from 'kysely';

/**
 * Row shapes as both engines store them. Booleans are written as 0/1 (better-sqlite3 binds no
 * booleans; PostgreSQL accepts '0'/'1' for boolean columns) and read back as 0/1 or true/false,
 * so repositories turn them into booleans with `toBool`. Timestamps are ISO 8601 strings both
 * ways (the PostgreSQL pool parses timestamptz to ISO text). JSON columns are text.
 */
type Bool = number | boolean;
type Id = Generated<number>;

export interface WorkspacesTable {
  id: Id;
  name: string;
  default_reply: string | null;
  target_country: string | null;
  language: string | null;
  timezone: string | null;
  brand_color: string | null;
  logo: string | null;
  owner_id: number | null;
  development_mode: Bool;
  trial_ends_at: string | null;
  mac_limit: number | null;
  /** Moves with every change of a comment automation's definition (the engine's cache key). */
  comment_automations_version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Id;
  workspace_id: number;
  name: string;
  email: string;
  email_verified: Bool;
  image: string | null;
  is_anonymous: Bool;
  created_at: string;
  updated_at: string;
}

export interface ApiTokensTable {
  id: Id;
  workspace_id: number;
  kind: 'developer' | 'user';
  user_id: number | null;
  name: string;
  token_hash: string;
  token_prefix: string;
  permission: 'full' | 'read_only';
  scopes: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface ContactsTable {
  id: Id;
  workspace_id: number;
  avatar: string | null;
  phone_number: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  ref: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  location: string | null;
  locale: string | null;
  timezone: string | null;
  gender: 'male' | 'female' | 'unknown';
  email_verified: Bool;
  email_opt_in: Bool;
  last_read_at: string | null;
  subscribed_at: string | null;
  broadcast_subscribed_at: string | null;
  blocked_at: string | null;
  last_message_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CustomFieldsTable {
  id: Id;
  workspace_id: number;
  name: string;
  description: string;
  type: string;
  /** JSON array of the choices of a `select` field; null for every other type. */
  options: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContactCustomFieldsTable {
  id: Id;
  workspace_id: number;
  contact_id: number;
  custom_field_id: number;
  value: string;
  created_at: string;
  updated_at: string;
}

export interface TagsTable {
  id: Id;
  workspace_id: number;
  name: string;
  folder_id: number | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContactTagsTable {
  workspace_id: number;
  contact_id: number;
  tag_id: number;
  created_at: string;
}

export interface ContactNotesTable {
  id: Id;
  workspace_id: number;
  contact_id: number;
  created_by_id: number | null;
  text: string;
  created_at: string;
  updated_at: string;
}

export interface InboxesTable {
  id: Id;
  workspace_id: number;
  name: string;
  channel: string;
  source_id: string | null;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface ContactInboxesTable {
  id: Id;
  workspace_id: number;
  contact_id: number;
  inbox_id: number;
  channel: string;
  /** The network's id of the person in this inbox (set by the engine from events). */
  source_id: string | null;
  created_at: string;
}

export interface InboxTeamsTable {
  id: Id;
  workspace_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface ConversationsTable {
  id: Id;
  workspace_id: number;
  contact_id: number;
  inbox_id: number | null;
  assigned_user_id: number | null;
  assigned_inbox_team_id: number | null;
  bot_enabled: Bool;
  followed: Bool;
  additional_attributes: string;
  ai_context_last_message_id: string | null;
  bot_resume_at: string | null;
  archived_at: string | null;
  contact_last_read_at: string | null;
  agent_last_read_at: string | null;
  last_activity_at: string | null;
  admin_replied_at: string | null;
  contact_replied_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SequencesTable {
  id: Id;
  workspace_id: number;
  name: string;
  is_active: Generated<Bool>;
  folder_id: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export interface SequenceSubscriptionsTable {
  id: Id;
  workspace_id: number;
  contact_id: number;
  sequence_id: number;
  created_at: string;
  /** The step the subscriber is due to get next, and when; null once it has had the last one. */
  next_step_id: Generated<number | null>;
  next_run_at: Generated<string | null>;
  /** Why the subscriber waits with no job scheduled (the sequence is switched off), or null. */
  held: Generated<string | null>;
}

export interface FoldersTable {
  id: Id;
  workspace_id: number;
  type: string;
  parent_id: number | null;
  name: string;
  is_trash: Generated<Bool>;
  created_at: string;
  updated_at: string;
}

export interface FlowsTable {
  id: Id;
  workspace_id: number;
  name: string;
  /** JSON: the flow's ordered messages and actions. */
  items: string;
  created_at: string;
  updated_at: string;
}

export interface SequenceStepsTable {
  id: Id;
  workspace_id: number;
  sequence_id: number;
  step_order: number;
  delay_unit: string;
  delay_days: number | null;
  delay_minutes: number | null;
  specific_date_time: string | null;
  flow_id: number | null;
  is_active: Bool;
  anytime: Bool;
  send_time_start: string | null;
  send_time_end: string | null;
  /** JSON array of day names (mon..sun). */
  send_days: string;
  created_at: string;
  updated_at: string;
}

export interface SequenceStepEventsTable {
  id: Id;
  workspace_id: number;
  sequence_id: number;
  step_id: number;
  contact_id: number;
  event_type: string;
  reason: string | null;
  created_at: string;
}

export interface FlowRunsTable {
  id: Id;
  workspace_id: number;
  flow_id: number;
  contact_id: number;
  conversation_id: number | null;
  source: string;
  status: string;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface ThreadStatesTable {
  contact_inbox_id: number;
  workspace_id: number;
  state: string;
  owner_role: string | null;
  owner_app_id: string | null;
  transitioned_at: string;
  expires_at: string | null;
  last_event: string;
  last_event_source: string;
  last_user_message_at: string | null;
  updated_at: string;
}

export interface CommentAutomationsTable {
  id: Id;
  workspace_id: number;
  channel: 'photo' | 'net';
  folder_id: string | null;
  name: string;
  type: string;
  is_active: Bool;
  start_time: string | null;
  end_time: string | null;
  replies_count: Generated<number>;
  sent_count: Generated<number>;
  delivered_count: Generated<number>;
  seen_count: Generated<number>;
  clicked_count: Generated<number>;
  failed_count: Generated<number>;
  missed_count: Generated<number>;
  post: string;
  private_reply: string;
  public_reply: string;
  include_keywords: string;
  exclude_keywords: string;
  options: string;
  hide_comments: string;
  reply_after: string;
  created_at: string;
  updated_at: string;
}

export interface LeadAdAutomationsTable {
  id: Id;
  workspace_id: number;
  name: string;
  page_id: string | null;
  form_ids: string;
  is_active: Bool;
  reply: string;
  created_at: string;
  updated_at: string;
}

export interface DynamicImagesTable {
  id: Id;
  workspace_id: number;
  name: string;
  custom_field_id: number | null;
  background_url: string;
  image_url: string;
  enabled: Bool;
  data: string;
  created_at: string;
  updated_at: string;
}

/** A rendered PNG by content hash: `content` on PostgreSQL, a file beside the database on SQLite (null here). */
export interface DynamicImageRendersTable {
  hash: string;
  workspace_id: number;
  image_id: number;
  kind: 'layer' | 'render';
  size: number;
  content: Uint8Array | null;
  created_at: string;
  last_used_at: string;
}

/** Secrets the service made for itself (the key that signs public image links). */
export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** A CSV file of a workspace: uploaded for an import, or written by an export. */
export interface ContactFilesTable {
  id: Id;
  workspace_id: number;
  kind: 'import' | 'export';
  file_name: string;
  mime_type: string;
  declared_size: number | null;
  size: number | null;
  /** import: awaitingUpload, uploaded; export: pending, processing, ready, failed; either: expired. */
  status: string;
  delimiter: string | null;
  row_count: number | null;
  /** An export's request (fields, filter, contact ids) as JSON. */
  request: string | null;
  error_message: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** A file's bytes in the database (PostgreSQL), in order. */
export interface ContactFileChunksTable {
  file_id: number;
  seq: number;
  content: Uint8Array;
}

export interface ContactImportsTable {
  id: Id;
  workspace_id: number;
  file_id: number;
  file_name: string;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  /** The import's request (column map, field mapping, inbox, tag) as JSON. */
  options: string;
  total_count: number | null;
  records_done: Generated<number>;
  created_count: Generated<number>;
  updated_count: Generated<number>;
  skipped_count: Generated<number>;
  failed_count: Generated<number>;
  error_message: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContactImportErrorsTable {
  id: Id;
  import_id: number;
  /** The row in the file, as a spreadsheet numbers it (the header is 1). */
  file_row: number;
  column_name: string | null;
  path: string | null;
  code: string;
  reason: string;
  value: string | null;
  matched_contact_id: number | null;
  /** The record's cells as JSON (errors.csv gives them back). */
  cells: string;
}

/** While an import runs: the first row of its file that wrote each contact. */
export interface ContactImportRowsTable {
  import_id: number;
  contact_id: number;
  file_row: number;
}

export interface ErrorLogsTable {
  id: Id;
  workspace_id: number;
  contact_id: number | null;
  action: string;
  detail: string;
  http_code: string;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyKeysTable {
  workspace_id: number;
  key: string;
  fingerprint: string;
  status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface ChannelPostsTable {
  id: Id;
  workspace_id: number;
  inbox_id: number;
  channel: 'photo' | 'net';
  external_id: string;
  caption: string | null;
  media_type: string;
  kind: 'published' | 'ads' | 'reels';
  permalink: string | null;
  thumbnail_url: string | null;
  posted_at: string;
  created_at: string;
  updated_at: string;
}

export interface LeadPagesTable {
  id: Id;
  workspace_id: number;
  inbox_id: number | null;
  external_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface LeadFormsTable {
  id: Id;
  workspace_id: number;
  lead_page_id: number;
  external_id: string;
  name: string;
  status: 'active' | 'archived';
  /** JSON array of the form's questions. */
  questions: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** One row per (page, form) an automation answers; `form_id` `*` is every form of the page. */
export interface LeadAdFormClaimsTable {
  id: Id;
  workspace_id: number;
  automation_id: number;
  page_id: string;
  form_id: string;
}

export interface LeadAdFieldMappingsTable {
  id: Id;
  workspace_id: number;
  automation_id: number;
  question_key: string;
  custom_field_id: number;
}

export interface LeadAdTagsTable {
  id: Id;
  workspace_id: number;
  automation_id: number;
  tag_id: number;
}

export interface LeadAdSequencesTable {
  id: Id;
  workspace_id: number;
  automation_id: number;
  sequence_id: number;
}

/** The sandbox adapter's record of every outgoing action (migration 2026_11_23_0010_outbox). */
export interface OutboxTable {
  id: Id;
  workspace_id: number;
  inbox_id: number;
  channel: 'photo' | 'net';
  action: 'privateReply' | 'publicReply' | 'message' | 'like' | 'hide' | 'unhide' | 'threadControl';
  comment_id: string | null;
  post_id: string | null;
  recipient_id: string | null;
  contact_id: number | null;
  automation_kind: 'comment' | 'leadAd' | null;
  automation_id: number | null;
  /** JSON text of what was sent (text, flow id, AI agent id); null for like, hide and unhide. */
  payload: string | null;
  /** A retried send names the same key and is recorded once. */
  dedupe_key: string | null;
  created_at: string;
}

/** What the sandbox adapter answers fetches with: leads and profiles by the network's id (JSON data). */
export interface SandboxRecordsTable {
  id: Id;
  workspace_id: number;
  kind: 'lead' | 'profile';
  external_id: string;
  data: string;
  created_at: string;
  updated_at: string;
}

/**
 * The SQLite job queue (migration 2026_11_23_0009_job_queue; PostgreSQL keeps jobs in
 * graphile-worker's schema). Waiting: no lease; running: `locked_by` until `locked_until`;
 * failed for good: `failed_at`. Finished jobs are deleted.
 */
/** PostgreSQL only: graphile-worker workers' heartbeats (src/queue/postgres-heartbeats.ts). */
export interface QueueWorkerHeartbeatsTable {
  worker_id: string;
  worker_schema: string;
  beat_at: string;
}

export interface JobsTable {
  id: Id;
  task: string;
  /** JSON text. */
  payload: string;
  run_at: string;
  attempts: Generated<number>;
  max_attempts: number;
  key: string | null;
  /** Batch jobs: the key whose waiting job later enqueues append their payload items to. */
  batch_key: string | null;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  failed_at: string | null;
  created_at: string;
  updated_at: string;
}

export type ChannelEventKind = 'comment' | 'lead' | 'message' | 'read' | 'postback' | 'handover' | 'standby';

/** Events delivered by webhooks or dev events (migration 2026_11_23_0011_engine). */
export interface ChannelEventsTable {
  id: Id;
  workspace_id: number;
  inbox_id: number;
  channel: 'photo' | 'net';
  kind: ChannelEventKind;
  /** The network's id of the comment, lead or message (read receipts: sender and watermark). */
  external_id: string;
  /** JSON text of the normalised event. */
  payload: string;
  source: 'webhook' | 'dev';
  received_at: string;
  processed_at: string | null;
  outcome: string | null;
}

/** What one comment automation did with one comment. */
export interface CommentEventsTable {
  id: Id;
  workspace_id: number;
  channel: 'photo' | 'net';
  automation_id: number;
  event_id: number;
  comment_id: string;
  post_id: string | null;
  author_id: string;
  contact_id: number | null;
  outcome: 'pending' | 'acted' | 'declined' | 'failed';
  reason: string | null;
  /** JSON text: the actions taken or planned, each with its state. */
  actions: string;
  created_at: string;
  updated_at: string;
}

export interface CommentReplyClaimsTable {
  id: Id;
  workspace_id: number;
  inbox_id: number;
  comment_id: string;
  kind: 'private' | 'public';
  automation_id: number;
  created_at: string;
}

export interface MessagesTable {
  id: Id;
  workspace_id: number;
  conversation_id: number;
  contact_id: number;
  inbox_id: number;
  direction: 'incoming' | 'outgoing';
  external_id: string | null;
  text: string | null;
  /** JSON text: [{type, url}]. */
  attachments: string;
  status: 'received' | 'sent' | 'failed';
  error: string | null;
  automation_kind: 'comment' | 'leadAd' | null;
  automation_id: number | null;
  seen_at: string | null;
  clicked_at: string | null;
  created_at: string;
}

/** What changed in a workspace: a receiver's body, fanned out to webhooks, read by subscriptions. */
export interface WorkspaceEventsTable {
  id: Id;
  workspace_id: number;
  /** The condition type (`tagApplied`, `newContact`, ...). */
  type: string;
  contact_id: number | null;
  /** The tag or sequence the event names, for conditions with a sourceId. */
  source_id: number | null;
  /** JSON text of the body a receiver gets. */
  body: string;
  occurred_at: string;
  /** Set when the fan-out job took the event. */
  fanned_out_at: string | null;
}

export interface WebhooksTable {
  id: Id;
  workspace_id: number;
  name: string;
  url: string;
  /** JSON text: `[{type, sourceId?}]`. */
  conditions: string;
  enabled: Bool;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  failing_since: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: Id;
  workspace_id: number;
  webhook_id: number;
  event_id: number;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  sending_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: Id;
  workspace_id: number;
  delivery_id: number;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface ExternalWebhooksTable {
  id: Id;
  workspace_id: number;
  url: string;
  event: string;
  provider: string;
  created_at: string;
  updated_at: string;
}

/**
 * A workspace's number of rows of a counted table (contacts, error_logs), kept by triggers. SQLite:
 * one row per workspace and table. PostgreSQL: delta rows appended per statement, summed by readers.
 */
export interface WorkspaceRowCountsTable {
  workspace_id: number;
  table_name: CountedTable;
  n: number | string;
}

export type CountedTable = 'contacts' | 'error_logs';

export interface DB {
  workspace_row_counts: WorkspaceRowCountsTable;
  workspaces: WorkspacesTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  contacts: ContactsTable;
  custom_fields: CustomFieldsTable;
  contact_custom_fields: ContactCustomFieldsTable;
  tags: TagsTable;
  contact_tags: ContactTagsTable;
  contact_notes: ContactNotesTable;
  inboxes: InboxesTable;
  contact_inboxes: ContactInboxesTable;
  inbox_teams: InboxTeamsTable;
  conversations: ConversationsTable;
  sequences: SequencesTable;
  sequence_subscriptions: SequenceSubscriptionsTable;
  comment_automations: CommentAutomationsTable;
  lead_ad_automations: LeadAdAutomationsTable;
  dynamic_images: DynamicImagesTable;
  dynamic_image_renders: DynamicImageRendersTable;
  service_secrets: ServiceSecretsTable;
  contact_files: ContactFilesTable;
  contact_file_chunks: ContactFileChunksTable;
  contact_imports: ContactImportsTable;
  contact_import_errors: ContactImportErrorsTable;
  contact_import_rows: ContactImportRowsTable;
  error_logs: ErrorLogsTable;
  idempotency_keys: IdempotencyKeysTable;
  channel_posts: ChannelPostsTable;
  lead_pages: LeadPagesTable;
  lead_forms: LeadFormsTable;
  lead_ad_form_claims: LeadAdFormClaimsTable;
  lead_ad_field_mappings: LeadAdFieldMappingsTable;
  lead_ad_tags: LeadAdTagsTable;
  lead_ad_sequences: LeadAdSequencesTable;
  jobs: JobsTable;
  queue_worker_heartbeats: QueueWorkerHeartbeatsTable;
  outbox: OutboxTable;
  sandbox_records: SandboxRecordsTable;
  channel_events: ChannelEventsTable;
  comment_events: CommentEventsTable;
  comment_reply_claims: CommentReplyClaimsTable;
  messages: MessagesTable;
  workspace_events: WorkspaceEventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  external_webhooks: ExternalWebhooksTable;
  folders: FoldersTable;
  flows: FlowsTable;
  sequence_steps: SequenceStepsTable;
  sequence_step_events: SequenceStepEventsTable;
  flow_runs: FlowRunsTable;
  thread_states: ThreadStatesTable;
}
