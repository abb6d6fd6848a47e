import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ConversationsTable } from '../../db/types.js';
import { bool, idString, nowIso, toBool } from '../../db/values.js';
import type { ConversationScalars } from './conversation.schema.js';
import { sameWorkspace } from '../shared/scope.js';

const optionalId = (v: number | null) => (v === null ? null : idString(v));

const toConversation = (r: Selectable<ConversationsTable>): ConversationScalars => ({
  id: idString(r.id),
  workspaceId: idString(r.workspace_id),
  contactId: idString(r.contact_id),
  inboxId: optionalId(r.inbox_id),
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
  assignedUserId: optionalId(r.assigned_user_id),
  assignedInboxTeamId: optionalId(r.assigned_inbox_team_id),
});

export async function findConversation(db: Executor, workspaceId: number, id: number): Promise<ConversationScalars | null> {
  const row = await db.selectFrom('conversations').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return row ? toConversation(row) : null;
}

/** Conversations of many contacts in one statement, most recent activity first. */
export async function conversationsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ConversationScalars[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('conversations')
    .selectAll()
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('contact_id', 'in', [...contactIds])
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toConversation);
}

/** Newest first by id, keyset-paginated; optionally only followed or unfollowed ones. */
export async function listConversations(
  db: Executor,
  workspaceId: number,
  opts: { limit: number; beforeId?: number; followed?: boolean },
): Promise<ConversationScalars[]> {
  let q = db.selectFrom('conversations').selectAll().where('workspace_id', '=', workspaceId);
  if (opts.beforeId !== undefined) q = q.where('id', '<', opts.beforeId);
  if (opts.followed !== undefined) q = q.where('followed', '=', bool(opts.followed));
  const rows = await q.orderBy('id', 'desc').limit(opts.limit).execute();
  return rows.map(toConversation);
}

/** Sets `followed`; false when the conversation is not in this workspace. */
export async function setFollowed(db: Executor, workspaceId: number, id: number, followed: boolean): Promise<boolean> {
  const result = await db
    .updateTable('conversations')
    .set({ followed: bool(followed), updated_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
