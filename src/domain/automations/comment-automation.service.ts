import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { findCommentAutomation, insertCommentAutomation, type StoredCommentAutomation } from './comment-automation.repository.js';
import type { Channel, CreatePhotoCommentInput } from './comment-automation.schema.js';

/** A new photo-network comment automation: active, counters at zero. Input is validated by `createPhotoCommentInput`. */
export const createPhotoCommentAutomation = (db: Executor, workspaceId: number, data: CreatePhotoCommentInput): Promise<StoredCommentAutomation> =>
  insertCommentAutomation(db, workspaceId, 'photo', data);

/** One automation of a channel; another workspace's, or another channel's, is 404 like a missing one. */
export async function getCommentAutomation(db: Executor, workspaceId: number, channel: Channel | null, id: string): Promise<StoredCommentAutomation> {
  const key = idNumber(id);
  const found = key === null ? null : await findCommentAutomation(db, workspaceId, channel, key);
  if (!found) throw notFound('Comment automation');
  return found;
}
