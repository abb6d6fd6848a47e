import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { channelSummaries, countInboxes, listInboxes, updateInbox, type ChannelSummaryRecord, type InboxRecord } from './inbox.repository.js';
import type { UpdateInboxInput } from './inbox.schema.js';

/** The workspace's inboxes in creation (id) order, a page at a time, optionally of one channel. */
export function listWorkspaceInboxes(db: Executor, workspaceId: number, q: PageRequest & { channel?: string }): Promise<Page<InboxRecord>> {
  return fetchPage(
    q,
    () => countInboxes(db, workspaceId, q.channel),
    (window) => listInboxes(db, workspaceId, { ...window, channel: q.channel }),
  );
}

/** Renames and/or switches an inbox of the workspace; 404 notFound for any other id. */
export async function updateWorkspaceInbox(db: Executor, workspaceId: number, id: string, input: UpdateInboxInput): Promise<InboxRecord> {
  const key = idNumber(id);
  const updated = key === null ? null : await updateInbox(db, workspaceId, key, input);
  if (!updated) throw notFound('Inbox');
  return updated;
}

export const listChannels = (db: Executor, workspaceId: number): Promise<ChannelSummaryRecord[]> => channelSummaries(db, workspaceId);
