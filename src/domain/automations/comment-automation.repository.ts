import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { CommentAutomationsTable } from '../../db/types.js';
import { idString, nowIso, parseJson, toBool } from '../../db/values.js';
import type { Channel, CommentAutomation, CreatePhotoCommentInput } from './comment-automation.schema.js';

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

export async function insertCommentAutomation(
  db: Executor,
  workspaceId: number,
  channel: Channel,
  a: Omit<CreatePhotoCommentInput, 'type'> & { type: CommentAutomation['type'] },
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
      post: JSON.stringify(a.post),
      private_reply: JSON.stringify(a.privateReply),
      public_reply: JSON.stringify(a.publicReply),
      include_keywords: JSON.stringify(a.includeKeywords),
      exclude_keywords: JSON.stringify(a.excludeKeywords),
      options: JSON.stringify(a.options),
      hide_comments: JSON.stringify(a.hideComments),
      reply_after: JSON.stringify(a.replyAfter),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAutomation(row);
}

export async function findCommentAutomation(db: Executor, workspaceId: number, channel: Channel | null, id: number): Promise<StoredCommentAutomation | null> {
  let q = db.selectFrom('comment_automations').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id);
  if (channel) q = q.where('channel', '=', channel);
  const row = await q.executeTakeFirst();
  return row ? toAutomation(row) : null;
}

/** Newest first, keyset by id. */
export async function listCommentAutomations(
  db: Executor,
  workspaceId: number,
  opts: { channel?: Channel; limit: number; beforeId?: number },
): Promise<StoredCommentAutomation[]> {
  let q = db.selectFrom('comment_automations').selectAll().where('workspace_id', '=', workspaceId);
  if (opts.channel) q = q.where('channel', '=', opts.channel);
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
