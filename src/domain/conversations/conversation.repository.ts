import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ConversationsTable } from '../../db/types.js';
import { bool, idString, nowIso, toBool } from '../../db/values.js';
import type { ConversationScalars } from './conversation.schema.js';
import { sameWorkspace } from '../shared/scope.js';

const optionalId = (v: number | null) => (v === null ? null : idString(v));

/** A conversations row with its references as found in the workspace (null when not there). */
type ScopedRow = Selectable<ConversationsTable> & { scoped_inbox_id: number | null; scoped_user_id: number | null; scoped_team_id: number | null };

const toConversation = (r: ScopedRow): ConversationScalars => ({
  id: idString(r.id),
  workspaceId: idString(r.workspace_id),
  contactId: idString(r.contact_id),
  inboxId: optionalId(r.scoped_inbox_id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  botResumeAt: r.bot_resume_at,
  archivedAt: r.archived_at,
  contactLastReadAt: r.contact_last_read_at,
  agentLastReadAt: r.agent_last_read_at,
  lastActivityAt: r.last_activity_at,
  adminRepliedAt: r.admin_replied_at,
  contactRepliedAt: r.contact_replied_at,
  botEnabled: toBool(r.bot_enabled),
  followed: toBool(r.followed),
  additionalAttributes: r.additional_attributes,
  aiContextLastMessageId: r.ai_context_last_message_id,
  assignedUserId: optionalId(r.scoped_user_id),
  assignedInboxTeamId: optionalId(r.scoped_team_id),
});

/**
 * The workspace's conversations as the API sees them. Every reference checks the target's workspace
 * too, so a row pointing at another workspace's records (which the API cannot create, but a bug or
 * a manual fix could) shows none of them: a conversation whose contact is elsewhere is not there at
 * all (Conversation.contact is non-null), and an inbox, assignee or team elsewhere reads as none.
 * Correlated primary-key lookups rather than joins, so each plan stays led by the conversations'
 * own indexes (joined with `sameWorkspace`, PostgreSQL started from the contacts and sorted), and
 * the inbox, assignee and team of the selected rows only are looked up.
 */
function scopedConversations(db: Executor, workspaceId: number) {
  return db
    .selectFrom('conversations')
    .selectAll('conversations')
    .select((eb) => [
      eb.selectFrom('inboxes as i').select('i.id').whereRef('i.id', '=', 'conversations.inbox_id').where(sameWorkspace('i.workspace_id', workspaceId)).as('scoped_inbox_id'),
      eb.selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'conversations.assigned_user_id').where(sameWorkspace('u.workspace_id', workspaceId)).as('scoped_user_id'),
      eb
        .selectFrom('inbox_teams as t')
        .select('t.id')
        .whereRef('t.id', '=', 'conversations.assigned_inbox_team_id')
        .where(sameWorkspace('t.workspace_id', workspaceId))
        .as('scoped_team_id'),
    ])
    .where(contactInWorkspace(workspaceId));
}

/**
 * The conversation's contact is in the workspace: a boolean scalar subquery, the contact looked up
 * by its primary key. Neither engine flattens it into a join, and PostgreSQL takes such a filter as
 * true for half the rows: written as a join or EXISTS, it multiplied the share of the workspace's
 * conversations by the share of its contacts, expected almost no rows and sorted them all instead
 * of walking (workspace_id, id) for a page.
 */
export const contactInWorkspace = (workspaceId: number) =>
  sql<SqlBool>`(select c.workspace_id = ${workspaceId} from contacts as c where c.id = conversations.contact_id)`;

/** Conversations by id in one statement (node and nodes); only this workspace's, as scopedConversations sees them. */
export async function conversationsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ConversationScalars[]> {
  if (ids.length === 0) return [];
  const rows = await scopedConversations(db, workspaceId).where('conversations.workspace_id', '=', workspaceId).where('conversations.id', 'in', [...ids]).execute();
  return rows.map(toConversation);
}

export async function findConversation(db: Executor, workspaceId: number, id: number): Promise<ConversationScalars | null> {
  const row = await scopedConversations(db, workspaceId).where('conversations.workspace_id', '=', workspaceId).where('conversations.id', '=', id).executeTakeFirst();
  return row ? toConversation(row) : null;
}

/** Conversations of many contacts in one statement, most recent activity first. */
export async function conversationsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ConversationScalars[]> {
  if (contactIds.length === 0) return [];
  const rows = await scopedConversations(db, workspaceId)
    .where(sameWorkspace('conversations.workspace_id', workspaceId))
    .where('conversations.contact_id', 'in', [...contactIds])
    .orderBy('conversations.id', 'desc')
    .execute();
  return rows.map(toConversation);
}

/** Newest first by id, keyset-paginated; optionally only followed or unfollowed ones. */
export async function listConversations(
  db: Executor,
  workspaceId: number,
  opts: { limit: number; beforeId?: number; followed?: boolean },
): Promise<ConversationScalars[]> {
  let q = scopedConversations(db, workspaceId).where('conversations.workspace_id', '=', workspaceId);
  if (opts.beforeId !== undefined) q = q.where('conversations.id', '<', opts.beforeId);
  if (opts.followed !== undefined) q = q.where('conversations.followed', '=', bool(opts.followed));
  const rows = await q.orderBy('conversations.id', 'desc').limit(opts.limit).execute();
  return rows.map(toConversation);
}

/** Sets `followed`; false when the conversation is not in this workspace (nor its contact: see scopedConversations). */
export async function setFollowed(db: Executor, workspaceId: number, id: number, followed: boolean): Promise<boolean> {
  const result = await db
    .updateTable('conversations')
    .set({ followed: bool(followed), updated_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where(contactInWorkspace(workspaceId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
