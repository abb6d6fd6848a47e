import type { Executor } from '../../db/database.js';
import { unknownReferences } from '../../errors/catalogue.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { countChannelPosts, knownPostIds, listChannelPosts } from './channel-post.repository.js';
import type { ChannelPost, ChannelPostsFilter } from './channel-post.schema.js';

/** A page of the channel's media or posts, newest first, filtered by inbox and kind. */
export const listChannelPostsPage = (db: Executor, workspaceId: number, channel: Channel, p: PageRequest & ChannelPostsFilter): Promise<Page<ChannelPost>> => {
  const filter: ChannelPostsFilter = { inboxId: p.inboxId, kind: p.kind };
  return fetchPage(p, () => countChannelPosts(db, workspaceId, channel, filter), (w) => listChannelPosts(db, workspaceId, channel, filter, w));
};

/**
 * Every id must be a post of the channel in the workspace (a net post also by its id after the
 * page); otherwise 422 validation with `data.field` `post.value` and every unknown id, in the
 * order given, once each.
 */
export async function assertKnownPosts(db: Executor, workspaceId: number, channel: Channel, ids: readonly string[]): Promise<void> {
  const distinct = [...new Set(ids)];
  const known = await knownPostIds(db, workspaceId, channel, distinct);
  const unknown = distinct.filter((id) => !known.has(id));
  if (unknown.length > 0) throw unknownReferences('post.value', unknown);
}
