import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound, unknownReferences } from '../../errors/catalogue.js';
import { parseOrThrow } from '../../errors/validation.js';
import { assertKnownPosts } from '../channel-posts/channel-post.service.js';
import { knownFolder } from '../folders/folder.service.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import {
  commentAutomationsOfChannels,
  countCommentAutomations,
  deleteCommentAutomationRow,
  findCommentAutomation,
  insertCommentAutomation,
  listCommentAutomations,
  listCommentAutomationsPage as listPageRows,
  updateCommentAutomationRow,
  type StoredCommentAutomation,
} from './comment-automation.repository.js';
import {
  channelInputs,
  type Channel,
  type CommentAutomation,
  type CommentAutomationsFilter,
  type CreateCommentInput,
  type CreateNetCommentInput,
  type CreatePhotoCommentInput,
  type UpdateCommentInput,
} from './comment-automation.schema.js';

const success = { success: true } as const;

/** A selector of type `postIds` must name posts of the channel (channel_posts); other types are not checked. */
const checkPosts = (db: Executor, workspaceId: number, channel: Channel, post: CreateCommentInput['post']) =>
  post.type === 'postIds' ? assertKnownPosts(db, workspaceId, channel, post.value) : Promise.resolve();

/**
 * A folderId must name a comment automation folder of the workspace (either channel's), or be
 * null: otherwise 422 validation with `data.field` folderId, as unknown post ids are (the
 * contract's create lists no 404). The folder is held until the transaction ends, and its id
 * stored in its plain form (`007` is folder 7), the form deleting the folder looks for.
 */
async function checkFolder<F extends string | null | undefined>(db: Executor, workspaceId: number, folderId: F): Promise<F> {
  if (folderId === undefined || folderId === null) return folderId;
  const key = await knownFolder(db, workspaceId, 'commentAutomation', folderId, { lock: true });
  if (key === null) throw unknownReferences('folderId', [folderId]);
  return String(key) as F;
}

/** A new automation of the channel: active, counters at zero; its postIds and folder checked first, in one transaction. */
const create = (db: Executor, workspaceId: number, channel: Channel, data: CreateCommentInput) =>
  db.transaction().execute(async (trx) => {
    await checkPosts(trx, workspaceId, channel, data.post);
    const folderId = await checkFolder(trx, workspaceId, data.folderId);
    return insertCommentAutomation(trx, workspaceId, channel, { ...data, folderId });
  });

/** An automation as the API shows it: the stored record without its channel (the path names it). */
export const publicAutomation = ({ channel: _channel, ...automation }: StoredCommentAutomation): CommentAutomation => automation;

/** A page of automations as the API shows them. */
export const publicPage = (page: Page<StoredCommentAutomation>): Page<CommentAutomation> => ({ ...page, data: page.data.map(publicAutomation) });

/** Input is validated by `createPhotoCommentInput`. */
export const createPhotoCommentAutomation = (db: Executor, workspaceId: number, data: CreatePhotoCommentInput): Promise<StoredCommentAutomation> =>
  create(db, workspaceId, 'photo', data);

/** Input is validated by `createNetCommentInput` (`type` defaults to chat). */
export const createNetCommentAutomation = (db: Executor, workspaceId: number, data: CreateNetCommentInput): Promise<StoredCommentAutomation> =>
  create(db, workspaceId, 'net', data);

/** Newest first by id, optionally of one channel and filtered as the lists are: GraphQL's connection. */
export const listCommentAutomationsKeyset = (
  db: Executor,
  workspaceId: number,
  opts: { channel?: Channel; limit: number; beforeId?: number } & CommentAutomationsFilter,
): Promise<StoredCommentAutomation[]> => listCommentAutomations(db, workspaceId, opts);

/** One automation of a channel; another workspace's, or another channel's, is 404 like a missing one. */
export async function getCommentAutomation(db: Executor, workspaceId: number, channel: Channel | null, id: string): Promise<StoredCommentAutomation> {
  const key = idNumber(id);
  const found = key === null ? null : await findCommentAutomation(db, workspaceId, channel, key);
  if (!found) throw notFound('Comment automation');
  return found;
}

/** A page of the channel's automations, newest first, filtered by name, isActive and folder. */
export const listCommentAutomationsPage = (
  db: Executor,
  workspaceId: number,
  channel: Channel,
  p: PageRequest & CommentAutomationsFilter,
): Promise<Page<StoredCommentAutomation>> => {
  const filter: CommentAutomationsFilter = { name: p.name, isActive: p.isActive, folderId: p.folderId };
  return fetchPage(p, () => countCommentAutomations(db, workspaceId, channel, filter), (w) => listPageRows(db, workspaceId, channel, filter, w));
};

/** The create body an automation would have: what the create schema checks a merged PATCH against. */
const asCreateBody = (a: StoredCommentAutomation) => ({
  name: a.name,
  type: a.type,
  folderId: a.folderId,
  post: a.post,
  privateReply: a.privateReply,
  publicReply: a.publicReply,
  includeKeywords: a.includeKeywords,
  excludeKeywords: a.excludeKeywords,
  options: a.options,
  hideComments: a.hideComments,
  replyAfter: a.replyAfter,
  startTime: a.startTime,
  endTime: a.endTime,
});

/**
 * Changes the fields the patch gives (validated by the channel's update schema), in one
 * transaction: the stored automation with the patch laid over it (nested objects replaced whole)
 * must pass the channel's create schema, or 422 invalidRequestData at `at` (the body, or the
 * GraphQL input) and nothing is stored; a new `post` of type postIds must name the channel's
 * posts, a new folderId a comment automation folder (422 validation otherwise). updatedAt moves.
 */
export async function updateCommentAutomation(
  db: Executor,
  workspaceId: number,
  channel: Channel,
  id: string,
  patch: UpdateCommentInput,
  at: (string | number)[] = ['body'],
): Promise<StoredCommentAutomation> {
  const key = idNumber(id);
  if (key === null) throw notFound('Comment automation');
  return db.transaction().execute(async (trx) => {
    const stored = await findCommentAutomation(trx, workspaceId, channel, key);
    if (!stored) throw notFound('Comment automation');
    const { isActive: _switch, ...fields } = patch;
    parseOrThrow(channelInputs[channel].create, { ...asCreateBody(stored), ...fields }, at);
    if (patch.post) await checkPosts(trx, workspaceId, channel, patch.post);
    const folderId = await checkFolder(trx, workspaceId, patch.folderId);
    const updated = await updateCommentAutomationRow(trx, workspaceId, channel, key, { ...patch, folderId });
    if (!updated) throw notFound('Comment automation');
    return updated;
  });
}

/** Permanent: the automation is 404 afterwards. Another channel's or workspace's id is 404. */
export async function deleteCommentAutomation(db: Executor, workspaceId: number, channel: Channel, id: string): Promise<{ success: true }> {
  const key = idNumber(id);
  if (key === null || !(await deleteCommentAutomationRow(db, workspaceId, channel, key))) throw notFound('Comment automation');
  return success;
}

/** A channel post as a selector sees it: its channel, the network's id and its kind. */
export interface PostRef {
  channel: Channel;
  id: string;
  kind: string;
}

/** Whether an automation's post selector takes this post: all posts, the post's kind, or its id among postIds. */
export function selectsPost(a: StoredCommentAutomation, post: PostRef): boolean {
  const { type, value } = a.post;
  if (type === 'all') return true;
  if (type !== 'postIds') return type === post.kind;
  const bare = post.channel === 'net' ? post.id.slice(post.id.indexOf('_') + 1) : post.id;
  return value.includes(post.id) || value.includes(bare);
}

/** For each post, the automations of its channel that select it (one statement for all the posts). */
export async function automationsForPosts(
  db: Executor,
  workspaceId: number,
  posts: readonly PostRef[],
): Promise<StoredCommentAutomation[][]> {
  const automations = await commentAutomationsOfChannels(db, workspaceId, [...new Set(posts.map((p) => p.channel))]);
  return posts.map((p) => automations.filter((a) => a.channel === p.channel && selectsPost(a, p)));
}
