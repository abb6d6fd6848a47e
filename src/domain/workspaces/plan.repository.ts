import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';

/** First instant of the calendar month (UTC) that `now` falls in, as stored ISO text. */
export const monthStart = (now: Date): string => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

/**
 * Contacts created this month, plus those created earlier with an inbound or outbound message this
 * month. Two index range counts instead of one OR, which neither engine can serve from an index.
 */
export async function countMonthlyActiveContacts(db: Executor, workspaceId: number, now: Date): Promise<number> {
  const since = monthStart(now);
  const contacts = db.selectFrom('contacts').where('workspace_id', '=', workspaceId);
  const [created, messaged] = await Promise.all([
    countRows(contacts.where('created_at', '>=', since)),
    countRows(contacts.where('last_message_at', '>=', since).where('created_at', '<', since)),
  ]);
  return created + messaged;
}

/** The workspace's limit of monthly active contacts (null: none, or no such workspace). */
export async function workspaceMacLimit(db: Executor, workspaceId: number): Promise<number | null> {
  return (await db.selectFrom('workspaces').select('mac_limit').where('id', '=', workspaceId).executeTakeFirst())?.mac_limit ?? null;
}
