import { sql, type ExpressionBuilder, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { isPostgres, type Executor } from '../../db/database.js';
import type { ConversationsTable, DB } from '../../db/types.js';
import { bool, idString, nowIso, toBool } from '../../db/values.js';
import { containsInsensitive, usesTrigramIndex, workspaceTrigramCandidates } from '../../db/search.js';
import type { ConversationListing, ConversationScalars } from './conversation.schema.js';
import { listingOnly } from '../shared/listing.js';
import { sameWorkspace } from '../shared/scope.js';
import { inIds, prepared } from '../../db/prepared.js';

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

/** The columns of a conversation listing (ConversationListing in conversation.schema.ts). */
const listingColumns = [
  'conversations.id', 'conversations.workspace_id', 'conversations.contact_id', 'conversations.followed', 'conversations.bot_enabled',
  'conversations.archived_at', 'conversations.last_activity_at',
] as const;

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
  return db.selectFrom('conversations').selectAll('conversations').select(scopedReferences(workspaceId)).where(contactInWorkspace(workspaceId));
}

/** scopedConversations with a listing's columns. */
function scopedConversationListings(db: Executor, workspaceId: number) {
  return db.selectFrom('conversations').select(listingColumns).select(scopedReferences(workspaceId)).where(contactInWorkspace(workspaceId));
}

/** The inbox, assignee and team of a conversation, each only when it is the workspace's. */
const scopedReferences = (workspaceId: number) => (eb: ExpressionBuilder<DB, 'conversations'>) => [
  eb.selectFrom('inboxes as i').select('i.id').whereRef('i.id', '=', 'conversations.inbox_id').where(sameWorkspace('i.workspace_id', workspaceId)).as('scoped_inbox_id'),
  eb.selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'conversations.assigned_user_id').where(sameWorkspace('u.workspace_id', workspaceId)).as('scoped_user_id'),
  eb
    .selectFrom('inbox_teams as t')
    .select('t.id')
    .whereRef('t.id', '=', 'conversations.assigned_inbox_team_id')
    .where(sameWorkspace('t.workspace_id', workspaceId))
    .as('scoped_team_id'),
];

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

/**
 * One conversation of the workspace. `lock`: inside a transaction, PostgreSQL locks its row until
 * the transaction ends (FOR UPDATE, in the same statement), so the state a change reads before it
 * writes stays so until it commits (the events it records say exactly what changed); SQLite runs
 * one transaction at a time.
 */
export async function findConversation(db: Executor, workspaceId: number, id: number, opts: { lock?: boolean } = {}): Promise<ConversationScalars | null> {
  let q = scopedConversations(db, workspaceId).where('conversations.workspace_id', '=', workspaceId).where('conversations.id', '=', id);
  if (opts.lock && isPostgres(db)) q = q.forUpdate('conversations');
  const row = await q.executeTakeFirst();
  return row ? toConversation(row) : null;
}

/** Conversations of many contacts in one statement, newest first. */
export async function conversationsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ConversationScalars[]> {
  if (contactIds.length === 0) return [];
  const rows = await conversationsOf.all(db, { workspaceId, contactIds });
  return rows.map(toConversation);
}

/** The same conversations as listings (a GraphQL selection of nothing more, contact.type.ts). */
export async function conversationListingsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ConversationListing[]> {
  if (contactIds.length === 0) return [];
  const rows = await conversationListingsOf.all(db, { workspaceId, contactIds });
  // Each row typed by the listing statement's own select list.
  return rows.map(
    (r): ConversationListing => ({
      [listingOnly]: true,
      id: idString(r.id),
      workspaceId: idString(r.workspace_id),
      contactId: idString(r.contact_id),
      inboxId: optionalId(r.scoped_inbox_id),
      assignedUserId: optionalId(r.scoped_user_id),
      assignedInboxTeamId: optionalId(r.scoped_team_id),
      followed: toBool(r.followed),
      botEnabled: toBool(r.bot_enabled),
      archivedAt: r.archived_at,
      lastActivityAt: r.last_activity_at,
    }),
  );
}

// The conversations of contacts, compiled once with every column and with a listing's.
const ofContacts = <R>(scoped: (db: Executor, workspaceId: number) => SelectQueryBuilder<DB, 'conversations', R>) =>
  prepared((db, p: { workspaceId: number; contactIds: readonly number[] }) =>
    scoped(db, p.workspaceId)
      .where(sameWorkspace('conversations.workspace_id', p.workspaceId))
      .where(inIds(db, 'conversations.contact_id', p.contactIds))
      .orderBy('conversations.id', 'desc'),
  );
const conversationsOf = ofContacts(scopedConversations);
const conversationListingsOf = ofContacts(scopedConversationListings);

/** What the list filters on, with its ids checked to be the workspace's (see the service). */
export interface ConversationListFilters {
  followed?: boolean;
  archived?: boolean;
  botEnabled?: boolean;
  /** A user id, or null: nobody assigned (or an assignee outside the workspace, which reads as none). */
  assignedUserId?: number | null;
  assignedInboxTeamId?: number | null;
  inboxId?: number;
  keyword?: string;
}

/** The text a keyword is searched in: the contact's name, email and phone (as the contacts list searches). */
const contactSearchText = sql`coalesce(k.first_name, '') || ' ' || coalesce(k.last_name, '') || ' ' || coalesce(k.email, '') || ' ' || coalesce(k.phone_number, '')`;

/**
 * The ids of the workspace's contacts matching a keyword: a keyword of 3+ characters narrows them
 * through the workspace's trigram tokens (src/db/search.ts), a shorter one reads the workspace's
 * contacts; LIKE (ILIKE) decides either way.
 */
function contactsMatching(db: Executor, workspaceId: number, keyword: string) {
  const base = db.selectFrom('contacts as k').select('k.id');
  const scoped = usesTrigramIndex(keyword)
    ? base.where(sameWorkspace('k.workspace_id', workspaceId)).where(workspaceTrigramCandidates(db, 'contacts', workspaceId, keyword))
    : base.where('k.workspace_id', '=', workspaceId);
  return scoped.where(containsInsensitive(db, contactSearchText, keyword));
}

/**
 * One window of the list, in the order of the (workspace_id, last_activity_at, id) index: `older`
 * reads newest first, strictly past `from` when given; `newer` reads oldest first, strictly before
 * `from` (the caller reverses it). Keyset only, so inserts never shift a page.
 */
export async function conversationWindow(
  db: Executor,
  workspaceId: number,
  filters: ConversationListFilters,
  w: { direction: 'older' | 'newer'; from?: { at: string; id: number }; limit: number },
): Promise<ConversationScalars[]> {
  let q = scopedConversations(db, workspaceId).where('conversations.workspace_id', '=', workspaceId);
  const from = w.from;
  if (from) {
    q = q.where((eb) => eb(eb.refTuple('conversations.last_activity_at', 'conversations.id'), w.direction === 'older' ? '<' : '>', eb.tuple(from.at, from.id)));
  }
  if (filters.followed !== undefined) q = q.where('conversations.followed', '=', bool(filters.followed));
  if (filters.botEnabled !== undefined) q = q.where('conversations.bot_enabled', '=', bool(filters.botEnabled));
  if (filters.archived !== undefined) q = q.where('conversations.archived_at', filters.archived ? 'is not' : 'is', null);
  if (filters.inboxId !== undefined) q = q.where('conversations.inbox_id', '=', filters.inboxId);
  const user = filters.assignedUserId;
  if (user !== undefined) {
    q = user === null
      ? q.where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'conversations.assigned_user_id').where('u.workspace_id', '=', workspaceId))),
        )
      : q.where('conversations.assigned_user_id', '=', user);
  }
  const team = filters.assignedInboxTeamId;
  if (team !== undefined) {
    q = team === null
      ? q.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('inbox_teams as t').select('t.id').whereRef('t.id', '=', 'conversations.assigned_inbox_team_id').where('t.workspace_id', '=', workspaceId),
            ),
          ),
        )
      : q.where('conversations.assigned_inbox_team_id', '=', team);
  }
  if (filters.keyword) q = q.where('conversations.contact_id', 'in', contactsMatching(db, workspaceId, filters.keyword));
  const order = w.direction === 'older' ? 'desc' : 'asc';
  const rows = await q.orderBy('conversations.last_activity_at', order).orderBy('conversations.id', order).limit(w.limit).execute();
  return rows.map(toConversation);
}

/** The conversation columns an action may change; `updated_at` always moves. */
export interface ConversationChanges {
  followed?: boolean;
  archive?: 'now' | 'clear';
  assignedUserId?: number | null;
  assignedInboxTeamId?: number | null;
  botEnabled?: boolean;
  botResumeAt?: string | null;
  agentLastReadAt?: string | null;
}

/**
 * Applies the changes; false when the conversation is not in this workspace (nor its contact: see
 * scopedConversations). Archiving keeps an earlier archive time (`coalesce`).
 */
export async function updateConversation(db: Executor, workspaceId: number, id: number, c: ConversationChanges, now = nowIso()): Promise<boolean> {
  const result = await db
    .updateTable('conversations')
    .set({
      updated_at: now,
      ...(c.followed !== undefined && { followed: bool(c.followed) }),
      ...(c.archive === 'now' && { archived_at: sql<string>`coalesce(archived_at, ${now})` }),
      ...(c.archive === 'clear' && { archived_at: null }),
      ...(c.assignedUserId !== undefined && { assigned_user_id: c.assignedUserId }),
      ...(c.assignedInboxTeamId !== undefined && { assigned_inbox_team_id: c.assignedInboxTeamId }),
      ...(c.botEnabled !== undefined && { bot_enabled: bool(c.botEnabled) }),
      ...(c.botResumeAt !== undefined && { bot_resume_at: c.botResumeAt }),
      ...(c.agentLastReadAt !== undefined && { agent_last_read_at: c.agentLastReadAt }),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where(contactInWorkspace(workspaceId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Sets `followed`; false when the conversation is not in this workspace (nor its contact: see scopedConversations). */
export const setFollowed = (db: Executor, workspaceId: number, id: number, followed: boolean): Promise<boolean> =>
  updateConversation(db, workspaceId, id, { followed });

/** The contact's latest conversation in the inbox (by id), or null. */
export async function latestConversationId(db: Executor, workspaceId: number, contactId: number, inboxId: number): Promise<number | null> {
  const row = await latestConversation.first(db, { workspaceId, contactId, inboxId });
  return row?.id ?? null;
}

/** A new conversation of the contact in the inbox, its activity starting `now`: its id. */
export async function insertConversation(db: Executor, workspaceId: number, c: { contactId: number; inboxId: number; now: string }): Promise<number> {
  const row = await newConversation.first(db, { workspaceId, contactId: c.contactId, inboxId: c.inboxId, now: c.now });
  return row!.id;
}

// The statements above, compiled once (src/db/prepared.ts): every event runs them.
const latestConversation = prepared((db, p: { workspaceId: number; contactId: number; inboxId: number }) =>
  db
    .selectFrom('conversations')
    .select('id')
    .where('workspace_id', '=', p.workspaceId)
    .where('contact_id', '=', p.contactId)
    .where('inbox_id', '=', p.inboxId)
    .orderBy('id', 'desc')
    // A literal: SQLite runs `limit ?` markedly slower here (bench/README.md).
    .limit(sql.lit(1)),
);

const newConversation = prepared((db, p: { workspaceId: number; contactId: number; inboxId: number; now: string }) =>
  db
    .insertInto('conversations')
    .values({
      workspace_id: p.workspaceId,
      contact_id: p.contactId,
      inbox_id: p.inboxId,
      assigned_user_id: null,
      assigned_inbox_team_id: null,
      bot_enabled: 1,
      followed: 0,
      additional_attributes: '{}',
      ai_context_last_message_id: null,
      bot_resume_at: null,
      archived_at: null,
      contact_last_read_at: null,
      agent_last_read_at: null,
      last_activity_at: p.now,
      admin_replied_at: null,
      contact_replied_at: null,
      created_at: p.now,
      updated_at: p.now,
    })
    .returning('id'),
);
