import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { findConversation, setFollowed } from './conversation.repository.js';
import type { ConversationScalars } from './conversation.schema.js';

export async function getConversation(db: Executor, workspaceId: number, id: string): Promise<ConversationScalars> {
  const key = idNumber(id);
  const found = key === null ? null : await findConversation(db, workspaceId, key);
  if (!found) throw notFound('Conversation');
  return found;
}

/** Follow or unfollow; repeating it is harmless. An unknown id (or another workspace's) is 404. */
export async function setConversationFollowed(db: Executor, workspaceId: number, id: string, followed: boolean): Promise<{ success: true }> {
  const key = idNumber(id);
  if (key === null || !(await setFollowed(db, workspaceId, key, followed))) throw notFound('Conversation');
  return { success: true };
}
