import { sql } from 'kysely';
import type { Selectable, Updateable } from 'kysely';
import { countRows } from '../../db/count.js';
import { isPostgres, type Executor } from '../../db/database.js';
import { prepared, type Prepared } from '../../db/prepared.js';
import { containsInsensitive } from '../../db/search.js';
import type { CommentAutomationsTable } from '../../db/types.js';
import { bool, idString, nowIso, parseJson, toBool } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import type { Channel, CommentAutomation, CommentAutomationsFilter, CreateCommentInput, UpdateCommentInput } from './comment-automation.schema.js';

const toAutomation = (r: Selectable<CommentAutomationsTable>): CommentAutomation & { channel: Channel } => ({
  id: idString(r.id),
  channel: r.channel,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  name: r.name,
  folderId: r.folder_id,
  type: r.type as CommentAutomation['type'],
  isActive: toBool(r.is_active),
  startTime: r.start_time,
  endTime: r.end_time,
  repliesCount: r.replies_count,
  sentCount: r.sent_count,
  deliveredCount: r.delivered_count,
  seenCount: r.seen_count,
  clickedCount: r.clicked_count,
  failedCount: r.failed_count,
  missedCount: r.missed_count,
  post: parseJson(r.post),
  privateReply: parseJson(r.private_reply),
  publicReply: parseJson(r.public_reply),
  includeKeywords: parseJson(r.include_keywords),
  excludeKeywords: parseJson(r.exclude_keywords),
  options: parseJson(r.options),
  hideComments: parseJson(r.hide_comments),
  replyAfter: parseJson(r.reply_after),
});

export type StoredCommentAutomation = ReturnType<typeof toAutomation>;

/** The JSON columns of the behaviour fields given (all on insert; those a PATCH names on update). */
const behaviourColumns = (a: Partial<CreateCommentInput>) => {
  const json = (v: unknown) => (v === undefined ? undefined : JSON.stringify(v));
  const columns = {
    post: json(a.post),
    private_reply: json(a.privateReply),
    public_reply: json(a.publicReply),
    include_keywords: json(a.includeKeywords),
    exclude_keywords: json(a.excludeKeywords),
    options: json(a.options),
    hide_comments: json(a.hideComments),
    reply_after: json(a.replyAfter),
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)) as Record<keyof typeof columns, string>;
};

export async function insertCommentAutomation(
  db: Executor,
  workspaceId: number,
  channel: Channel,
  a: CreateCommentInput,
): Promise<StoredCommentAutomation> {
  const now = nowIso();
  const row = await db
    .insertInto('comment_automations')
    .values({
      workspace_id: workspaceId,
      channel,
      folder_id: a.folderId ?? null,
      name: a.name,
      type: a.type,
      is_active: 1,
      start_time: a.startTime ?? null,
      end_time: a.endTime ?? null,
      ...behaviourColumns(a),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await bumpCommentAutomationsVersion(db, workspaceId);
  return toAutomation(row);
}

export async function findCommentAutomation(db: Executor, workspaceId: number, channel: Channel | null, id: number): Promise<StoredCommentAutomation | null> {
  let q = db.selectFrom('comment_automations').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id);
  if (channel) q = q.where('channel', '=', channel);
  const row = await q.executeTakeFirst();
  return row ? toAutomation(row) : null;
}

/** Newest first, keyset by id; optionally of one channel and filtered as the REST lists are. */
export async function listCommentAutomations(
  db: Executor,
  workspaceId: number,
  opts: { channel?: Channel; limit: number; beforeId?: number } & CommentAutomationsFilter,
): Promise<StoredCommentAutomation[]> {
  let q = filtered(db, workspaceId, opts.channel, opts).selectAll();
  if (opts.beforeId !== undefined) q = q.where('id', '<', opts.beforeId);
  const rows = await q.orderBy('id', 'desc').limit(opts.limit).execute();
  return rows.map(toAutomation);
}

/** Comment automations of both channels by id in one statement; only this workspace's. */
export async function commentAutomationsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<StoredCommentAutomation[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('comment_automations').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
  return rows.map(toAutomation);
}

/** The automations of the workspace (of one channel, when given), filtered by name (substring, any case), isActive and folder. */
function filtered(db: Executor, workspaceId: number, channel: Channel | undefined, f: CommentAutomationsFilter) {
  let q = db.selectFrom('comment_automations').where('workspace_id', '=', workspaceId);
  if (channel) q = q.where('channel', '=', channel);
  if (f.name) q = q.where(containsInsensitive(db, 'name', f.name));
  if (f.isActive !== undefined) q = q.where('is_active', '=', bool(f.isActive));
  if (f.folderId !== undefined) q = q.where('folder_id', '=', f.folderId);
  return q;
}

export const countCommentAutomations = (db: Executor, workspaceId: number, channel: Channel, f: CommentAutomationsFilter) =>
  countRows(filtered(db, workspaceId, channel, f));

/** A page of the channel's automations, newest first (created_at, ties by the newest id). */
export async function listCommentAutomationsPage(
  db: Executor,
  workspaceId: number,
  channel: Channel,
  f: CommentAutomationsFilter,
  window: { limit: number; offset: number },
): Promise<StoredCommentAutomation[]> {
  const rows = await filtered(db, workspaceId, channel, f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute();
  return rows.map(toAutomation);
}

/** Writes the fields a PATCH gives (nested objects whole) and moves updatedAt; null when the channel has no such automation. */
export async function updateCommentAutomationRow(
  db: Executor,
  workspaceId: number,
  channel: Channel,
  id: number,
  patch: UpdateCommentInput,
): Promise<StoredCommentAutomation | null> {
  const set: Updateable<CommentAutomationsTable> = { ...behaviourColumns(patch), updated_at: nowIso() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.type !== undefined) set.type = patch.type;
  if (patch.folderId !== undefined) set.folder_id = patch.folderId;
  if (patch.startTime !== undefined) set.start_time = patch.startTime;
  if (patch.endTime !== undefined) set.end_time = patch.endTime;
  if (patch.isActive !== undefined) set.is_active = bool(patch.isActive);
  const row = await db
    .updateTable('comment_automations')
    .set(set)
    .where('workspace_id', '=', workspaceId)
    .where('channel', '=', channel)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (row) await bumpCommentAutomationsVersion(db, workspaceId);
  return row ? toAutomation(row) : null;
}

/** Deletes an automation of the channel; false when the channel has no such automation. */
export async function deleteCommentAutomationRow(db: Executor, workspaceId: number, channel: Channel, id: number): Promise<boolean> {
  const result = await db.deleteFrom('comment_automations').where('workspace_id', '=', workspaceId).where('channel', '=', channel).where('id', '=', id).executeTakeFirst();
  const deleted = Number(result.numDeletedRows) > 0;
  if (deleted) await bumpCommentAutomationsVersion(db, workspaceId);
  return deleted;
}

/**
 * Every write of an automation's definition moves the workspace's version after the write (the
 * engine reads the version before the list, so a list read in between is reloaded next time).
 * Counters are not part of the definition and do not move it.
 */
export async function bumpCommentAutomationsVersion(db: Executor, workspaceId: number): Promise<void> {
  await db.updateTable('workspaces').set((eb) => ({ comment_automations_version: eb('comment_automations_version', '+', 1) })).where('id', '=', workspaceId).execute();
}

/** The workspace's comment-automation version (see bumpCommentAutomationsVersion), timezone and MAC limit; null when it is gone. */
export async function commentAutomationsVersionAndSettings(db: Executor, workspaceId: number): Promise<{ version: number; timezone: string | null; macLimit: number | null } | null> {
  // With the settings every comment needs (schedule timezone, MAC limit): one read per event for all three.
  const row = await versionAndSettings.first(db, { workspaceId });
  return row ? { version: Number(row.comment_automations_version), timezone: row.timezone, macLimit: row.mac_limit } : null;
}

const versionAndSettings = prepared((db, p: { workspaceId: number }) =>
  db.selectFrom('workspaces').select(['comment_automations_version', 'timezone', 'mac_limit']).where('id', '=', p.workspaceId),
);

/** Every automation of these channels in the workspace, newest first, in one statement. */
export async function commentAutomationsOfChannels(db: Executor, workspaceId: number, channels: readonly Channel[]): Promise<StoredCommentAutomation[]> {
  if (channels.length === 0) return [];
  const rows = await db
    .selectFrom('comment_automations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('channel', 'in', [...channels])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toAutomation);
}

/** The counters of comment_automations (the contract's int32 integers). */
export type CommentCounter = 'replies_count' | 'sent_count' | 'delivered_count' | 'failed_count' | 'missed_count' | 'seen_count' | 'clicked_count';

const INT32_MAX = 2_147_483_647;

/**
 * Adds `by` (default 1) to each counter of the automations in one atomic statement, never past
 * the contract's int32 bound (a counter at the bound stays there): concurrent jobs never lose an
 * increment, because nothing is read and written back.
 */
export async function addToCounters(db: Executor, workspaceId: number, automationId: number | readonly number[], counters: readonly CommentCounter[], by = 1): Promise<void> {
  const ids = typeof automationId === 'number' ? [automationId] : automationId;
  if (counters.length === 0 || ids.length === 0 || by <= 0) return;
  // One automation and one step is every reply's case: its statement is compiled once per set of counters.
  if (ids.length === 1 && by === 1) {
    const key = counters.join();
    let statement = addOne.get(key);
    if (!statement) {
      statement = prepared((db, p: { workspaceId: number; id: number }) => db.updateTable('comment_automations').set(Object.fromEntries(counters.map((c) => [c, capped(c, 1)]))).where('workspace_id', '=', p.workspaceId).where('id', '=', p.id));
      addOne.set(key, statement);
    }
    await statement.run(db, { workspaceId, id: ids[0]! });
    return;
  }
  await addCounts(db, workspaceId, ids, Object.fromEntries(counters.map((c) => [c, by])));
}

/** Adds to each named counter its own amount, on every one of the automations, in one statement (never past int32). */
export async function addCounts(db: Executor, workspaceId: number, ids: readonly number[], amounts: Partial<Record<CommentCounter, number>>): Promise<void> {
  const set = Object.entries(amounts).filter(([, by]) => by! > 0);
  if (set.length === 0 || ids.length === 0) return;
  await db
    .updateTable('comment_automations')
    .set(Object.fromEntries(set.map(([c, by]) => [c, capped(c as CommentCounter, by!)])))
    // By id (scope.ts): PostgreSQL without statistics read the workspace's automations, with their dead versions.
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('id', 'in', [...ids])
    .execute();
}

const capped = (counter: CommentCounter, by: number) =>
  sql<number>`case when ${sql.ref(counter)} > ${sql.lit(INT32_MAX - by)} then ${sql.lit(INT32_MAX)} else ${sql.ref(counter)} + ${sql.lit(by)} end`;

/**
 * PostgreSQL: locks these automations' rows until the transaction ends, in id order, so that
 * transactions locking several of them never wait on each other in a circle (a no-op on SQLite,
 * whose transactions run one at a time). The lock an update of counters takes: it leaves alone the
 * key-share locks that rows referencing an automation (its comment events, messages) hold on it
 * until their transactions end.
 */
export async function lockCommentAutomations(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !isPostgres(db)) return;
  await db
    .selectFrom('comment_automations')
    .select('id')
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('id', 'in', [...ids].sort((a, b) => a - b))
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/** addToCounters' prepared statements, by counters (a handful of combinations exist). */
const addOne = new Map<string, Prepared<{ workspaceId: number; id: number }, unknown>>();
