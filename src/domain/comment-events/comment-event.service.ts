import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { getCommentAutomation } from '../comment-automations/comment-automation.service.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { countCommentEvents, listCommentEvents } from './comment-event.repository.js';
import type { CommentEventRecord } from './comment-event.schema.js';

/**
 * A page of what an automation did with the comments it saw, newest first. The automation must be
 * the workspace's (and the channel's, when given): otherwise 404, like GET of the automation.
 */
export async function listCommentEventsPage(db: Executor, workspaceId: number, channel: Channel | null, automationId: string, p: PageRequest): Promise<Page<CommentEventRecord>> {
  await getCommentAutomation(db, workspaceId, channel, automationId);
  const id = idNumber(automationId)!;
  return fetchPage(p, () => countCommentEvents(db, workspaceId, id), (w) => listCommentEvents(db, workspaceId, id, w));
}
