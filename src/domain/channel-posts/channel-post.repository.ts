import { sql, type Expression, type Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import { isPostgres, type Executor } from '../../db/database.js';
import type { ChannelPostsTable } from '../../db/types.js';
import { idNumber, idString } from '../../db/values.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import type { ChannelPost, ChannelPostsFilter, PostKind } from './channel-post.schema.js';

const columns = ['id', 'external_id', 'caption', 'media_type', 'kind', 'permalink', 'thumbnail_url', 'posted_at', 'inbox_id'] as const;

const toChannelPost = (r: Pick<Selectable<ChannelPostsTable>, (typeof columns)[number]>): ChannelPost => ({
  id: r.external_id,
  caption: r.caption,
  mediaType: r.media_type,
  kind: r.kind,
  permalink: r.permalink,
  thumbnailUrl: r.thumbnail_url,
  timestamp: r.posted_at,
  inboxId: idString(r.inbox_id),
});

/** The channel's posts of the workspace, filtered; an inbox id beyond any id matches nothing. */
function filtered(db: Executor, workspaceId: number, channel: Channel, f: ChannelPostsFilter) {
  let q = db.selectFrom('channel_posts').where('workspace_id', '=', workspaceId).where('channel', '=', channel);
  if (f.inboxId !== undefined) q = q.where('inbox_id', '=', idNumber(f.inboxId) ?? -1);
  if (f.kind !== undefined) q = q.where('kind', '=', f.kind);
  return q;
}

export const countChannelPosts = (db: Executor, workspaceId: number, channel: Channel, f: ChannelPostsFilter) => countRows(filtered(db, workspaceId, channel, f));

/** Newest first (posted_at, ties by the newest row), read in the order of (workspace_id, channel, posted_at, id). */
export async function listChannelPosts(
  db: Executor,
  workspaceId: number,
  channel: Channel,
  f: ChannelPostsFilter,
  window: { limit: number; offset: number },
): Promise<ChannelPost[]> {
  const rows = await filtered(db, workspaceId, channel, f)
    .select(columns)
    .orderBy('posted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toChannelPost);
}

/** A net post id after its page: `9001` of `102030405060708_9001` (the whole id when it has no `_`). */
const postPart = (db: Executor): Expression<string> =>
  isPostgres(db) ? sql<string>`substr(external_id, strpos(external_id, '_') + 1)` : sql<string>`substr(external_id, instr(external_id, '_') + 1)`;

/**
 * Which of these ids name a post of the channel in the workspace, in one statement: the network's
 * id exactly, or on the net channel also the post id after the page (`9001` for `pageId_9001`).
 * Returns the ids given that were found.
 */
export async function knownPostIds(db: Executor, workspaceId: number, channel: Channel, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const bare = channel === 'net' ? ids.filter((id) => !id.includes('_')) : [];
  const rows = await db
    .selectFrom('channel_posts')
    .select('external_id')
    .where('workspace_id', '=', workspaceId)
    .where('channel', '=', channel)
    .where((eb) => (bare.length > 0 ? eb.or([eb('external_id', 'in', [...ids]), eb(postPart(db), 'in', bare)]) : eb('external_id', 'in', [...ids])))
    .execute();
  const found = new Set<string>();
  for (const { external_id: id } of rows) {
    found.add(id);
    if (channel === 'net') found.add(id.slice(id.indexOf('_') + 1));
  }
  return new Set(ids.filter((id) => found.has(id)));
}

/** The kinds of the channel's posts of the workspace with these network ids (any order; ids not found are missing). */
export async function postKindsByExternalIds(db: Executor, workspaceId: number, channel: Channel, externalIds: readonly string[]): Promise<{ externalId: string; kind: PostKind }[]> {
  const rows = await db
    .selectFrom('channel_posts')
    .select(['external_id', 'kind'])
    .where('workspace_id', '=', workspaceId)
    .where('channel', '=', channel)
    .where('external_id', 'in', [...externalIds])
    .execute();
  return rows.map((r) => ({ externalId: r.external_id, kind: r.kind }));
}
