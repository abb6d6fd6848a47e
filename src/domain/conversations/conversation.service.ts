import type { Executor } from '../../db/database.js';
import { idNumber, nowIso } from '../../db/values.js';
import { notFound, unknownReferences } from '../../errors/catalogue.js';
import { invalidRequestData, type Issue } from '../../errors/validation.js';
import { inboxesByIds, inboxTeamsByIds } from '../inboxes/inbox.repository.js';
import { findUsersByIds, type UserRecord } from '../users/user.repository.js';
import { CursorEdge } from '../shared/edge.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import type { NewEvent } from '../workspace-events/workspace-event.schema.js';
import { decodeCursor, encodeCursor, filtersHash, type Position } from './conversation.cursor.js';
import {
  conversationWindow,
  findConversation,
  setFollowed,
  updateConversation,
  type ConversationChanges,
  type ConversationListFilters,
} from './conversation.repository.js';
import {
  UNASSIGNED,
  type AssignConversationInput,
  type Conversation,
  type ConversationFilters,
  type ConversationScalars,
  type ConversationsQuery,
  type DisableBotInput,
} from './conversation.schema.js';

export async function getConversation(db: Executor, workspaceId: number, id: string): Promise<ConversationScalars> {
  const key = idNumber(id);
  const found = key === null ? null : await findConversation(db, workspaceId, key);
  if (!found) throw notFound('Conversation');
  return found;
}

// ---- Events (workspace-events) ----

/**
 * What a change of a conversation did, from its row before and after (read in the change's
 * transaction, the first locked): the bot switched off where it was on
 * (conversationTransferredToHuman) or on where it was off (conversationTransferredToBot),
 * archivedAt set where it was null (archived), `followed` set where it was not (followUp), and the
 * assigned user become another user (conversationAssigned) or none (conversationUnassigned, naming
 * the previous one). The inbox team reports nothing. `actor`: the user who did it (a user access
 * token), null for a workspace API token or the engine. The events are about the conversation's
 * contact.
 */
export function conversationEvents(before: ConversationScalars, after: ConversationScalars, actor: number | null): NewEvent[] {
  const contactId = Number(after.contactId);
  const by = actor === null ? null : String(actor);
  const about = { conversation_id: after.id };
  const events: NewEvent[] = [];
  if (before.botEnabled && !after.botEnabled) events.push({ type: 'conversationTransferredToHuman', contactId, data: { ...about, transferred_by: by } });
  if (!before.botEnabled && after.botEnabled) events.push({ type: 'conversationTransferredToBot', contactId, data: { ...about, transferred_by: by } });
  if (before.archivedAt === null && after.archivedAt !== null) events.push({ type: 'archived', contactId, data: { ...about, archived_by: by } });
  if (!before.followed && after.followed) events.push({ type: 'followUp', contactId, data: { ...about, marked_by: by } });
  if (after.assignedUserId !== null && after.assignedUserId !== before.assignedUserId) {
    events.push({ type: 'conversationAssigned', contactId, data: { ...about, assigned_to: after.assignedUserId, assigned_by: by } });
  }
  if (after.assignedUserId === null && before.assignedUserId !== null) {
    events.push({ type: 'conversationUnassigned', contactId, data: { ...about, assigned_to: before.assignedUserId, unassigned_by: by } });
  }
  return events;
}

/**
 * Follow or unfollow; repeating it is harmless. An unknown id (or another workspace's) is 404.
 * Following one that was not followed records followUp (`actor`: see conversationEvents), in a
 * transaction with the change; unfollowing records nothing, and stays one statement.
 */
export async function setConversationFollowed(db: Executor, workspaceId: number, id: string, followed: boolean, actor: number | null): Promise<{ success: true }> {
  const key = idNumber(id);
  if (key === null) throw notFound('Conversation');
  if (!followed) {
    if (!(await setFollowed(db, workspaceId, key, followed))) throw notFound('Conversation');
    return { success: true };
  }
  return db.transaction().execute(async (trx) => {
    const before = await findConversation(trx, workspaceId, key, { lock: true });
    if (!before || !(await setFollowed(trx, workspaceId, key, followed))) throw notFound('Conversation');
    if (!before.followed) await recordEvents(trx, workspaceId, conversationEvents(before, { ...before, followed: true }, actor));
    return { success: true as const };
  });
}

const presentUser = (u: UserRecord) => ({
  id: String(u.id),
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
  name: u.name,
  email: u.email,
  emailVerified: u.emailVerified,
  image: u.image,
  isAnonymous: u.isAnonymous,
});

/**
 * The contract's conversation objects: each with its assignee, team and inbox, looked up for all
 * the rows at once (one statement per relation that any row has, whatever the number of rows).
 */
export async function withRelations(db: Executor, workspaceId: number, rows: ConversationScalars[]): Promise<Conversation[]> {
  const ids = (pick: (c: ConversationScalars) => string | null) => [...new Set(rows.map(pick).filter((v): v is string => v !== null).map(Number))];
  const [users, teams, inboxes] = await Promise.all([
    findUsersByIds(db, workspaceId, ids((c) => c.assignedUserId)),
    inboxTeamsByIds(db, workspaceId, ids((c) => c.assignedInboxTeamId)),
    inboxesByIds(db, workspaceId, ids((c) => c.inboxId)),
  ]);
  const user = new Map(users.map((u) => [String(u.id), presentUser(u)]));
  const team = new Map(teams.map((t) => [t.id, t]));
  const inbox = new Map(inboxes.map((i) => [i.id, i]));
  return rows.map((c) => ({
    ...c,
    assignedUser: (c.assignedUserId && user.get(c.assignedUserId)) || null,
    assignedInboxTeam: (c.assignedInboxTeamId && team.get(c.assignedInboxTeamId)) || null,
    inbox: (c.inboxId && inbox.get(c.inboxId)) || null,
  }));
}

// ---- The list ----

type Path = (string | number)[];

/**
 * The filters as the repository takes them, their ids checked to name records of the workspace
 * (as the contacts list checks its tag and inbox ids): an unknown one, or another workspace's, is
 * 422 at its parameter (under `at`: `['query']` on REST). `none` is "unassigned".
 */
async function checkFilters(db: Executor, workspaceId: number, f: ConversationFilters, at: Path): Promise<ConversationListFilters> {
  // An id beyond a 32-bit key names nothing (idNumber gives null): 0 is never an id either.
  const key = (v: string) => idNumber(v) ?? 0;
  const assignee = (v: string | undefined) => (v === undefined ? undefined : v === UNASSIGNED ? null : key(v));
  const filters: ConversationListFilters = {
    followed: f.followed,
    archived: f.archived,
    botEnabled: f.botEnabled,
    assignedUserId: assignee(f.assignedUserId),
    assignedInboxTeamId: assignee(f.assignedInboxTeamId),
    inboxId: f.inboxId === undefined ? undefined : key(f.inboxId),
    keyword: f.keyword || undefined,
  };
  const { assignedUserId: user, assignedInboxTeamId: team, inboxId: inbox } = filters;
  const [users, teams, inboxes] = await Promise.all([
    typeof user === 'number' ? findUsersByIds(db, workspaceId, [user]) : null,
    typeof team === 'number' ? inboxTeamsByIds(db, workspaceId, [team]) : null,
    inbox !== undefined ? inboxesByIds(db, workspaceId, [inbox]) : null,
  ]);
  const issues: Issue[] = [];
  if (users?.length === 0) issues.push({ message: `No user with id ${f.assignedUserId} in this workspace`, path: [...at, 'assignedUserId'] });
  if (teams?.length === 0) issues.push({ message: `No inbox team with id ${f.assignedInboxTeamId} in this workspace`, path: [...at, 'assignedInboxTeamId'] });
  if (inboxes?.length === 0) issues.push({ message: `No inbox with id ${f.inboxId} in this workspace`, path: [...at, 'inboxId'] });
  if (issues.length) throw invalidRequestData(issues);
  return filters;
}

const positionOf = (c: ConversationScalars): Position => ({ at: c.lastActivityAt ?? c.createdAt, id: Number(c.id) });

interface Window {
  /** Newest first. */
  rows: ConversationScalars[];
  /** Where the older rows continue (strictly past it); null when there are none. */
  older: Position | null;
  /** Where the newer rows continue (strictly before it); null when there are none. */
  newer: Position | null;
}

/**
 * One page in the list's order (last activity, then id, newest first), by keyset: `older` reads
 * the `limit` rows strictly past `from` (the first page without it), `newer` the `limit` rows
 * strictly before it. A row that existed when a page was read is never repeated or skipped by
 * following its positions, whatever was inserted meanwhile. Whether rows lie beyond the page is
 * known from one extra row read; on the side the caller came from, from one more probe of a single
 * row (none on the first page, which has nothing before it by definition).
 *
 * An empty page after `from` (its rows deleted since) continues on the other side from `from`
 * itself: ids are whole numbers, so "strictly newer than (at, id - 1)" is "at or newer than (at, id)".
 */
async function readWindow(
  db: Executor,
  workspaceId: number,
  filters: ConversationListFilters,
  w: { direction: 'older' | 'newer'; from?: Position; limit: number },
): Promise<Window> {
  const read = (direction: 'older' | 'newer', from: Position | undefined, limit: number) =>
    conversationWindow(db, workspaceId, filters, { direction, from, limit });
  const fetched = await read(w.direction, w.from, w.limit + 1);
  const more = fetched.length > w.limit;
  const page = fetched.slice(0, w.limit);
  if (w.direction === 'newer') page.reverse();
  const from = w.from;
  const step = w.direction === 'older' ? -1 : 1;
  const back = page.length ? positionOf(w.direction === 'older' ? page[0] : page[page.length - 1]) : from && { at: from.at, id: from.id + step };
  const backExists = from !== undefined && back !== undefined && (await read(w.direction === 'older' ? 'newer' : 'older', back, 1)).length > 0;
  const ahead = more ? positionOf(w.direction === 'older' ? page[page.length - 1] : page[0]) : null;
  const behind = backExists ? back! : null;
  return w.direction === 'older' ? { rows: page, older: ahead, newer: behind } : { rows: page, older: behind, newer: ahead };
}

/**
 * GET /v1/conversations: a page after the `cursor` (the first page without one), answered with
 * `nextCursor` (older rows) and `prevCursor` (newer rows), each null when there is nothing there;
 * `prevCursor` is always null on the first page. Each item carries its assignee, team and inbox.
 */
export async function listConversationsPage(db: Executor, workspaceId: number, query: ConversationsQuery) {
  const { cursor, limit, ...given } = query;
  const hash = filtersHash(given);
  const position = cursor === undefined ? undefined : decodeCursor(cursor, hash, ['query', 'cursor'], true);
  const filters = await checkFilters(db, workspaceId, given, ['query']);
  const w = await readWindow(db, workspaceId, filters, {
    direction: position?.direction === 'prev' ? 'newer' : 'older',
    from: position && { at: position.at, id: position.id },
    limit,
  });
  return {
    data: await withRelations(db, workspaceId, w.rows),
    nextCursor: w.older && encodeCursor(w.older, hash, 'next'),
    prevCursor: w.newer && encodeCursor(w.newer, hash, 'prev'),
  };
}

/** Query.conversations: a Relay connection over the same list; `after` reads older rows, `before` newer ones. */
export async function conversationsConnection(
  db: Executor,
  workspaceId: number,
  args: ConversationFilters & { first?: number; last?: number; after?: string; before?: string },
) {
  const { first, last, after, before, ...given } = args;
  const hash = filtersHash(given);
  const at = after !== undefined ? decodeCursor(after, hash, ['after'], false) : before !== undefined ? decodeCursor(before, hash, ['before'], false) : undefined;
  const filters = await checkFilters(db, workspaceId, given, []);
  const backwards = last !== undefined || before !== undefined;
  const w = await readWindow(db, workspaceId, filters, {
    direction: backwards ? 'newer' : 'older',
    from: at && { at: at.at, id: at.id },
    limit: (backwards ? last : first)!,
  });
  const encode = (node: ConversationScalars) => encodeCursor(positionOf(node), hash);
  const edges = w.rows.map((node) => new CursorEdge(node, encode));
  return {
    edges,
    pageInfo: {
      hasNextPage: w.older !== null,
      hasPreviousPage: w.newer !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

// ---- Actions ----

/**
 * Applies an action's changes and answers the conversation as it is now; 404 for an id not in the
 * workspace. What changed, from the conversation before (read locked) to after, is recorded as
 * events (conversationEvents) in the same transaction; `actor` did it.
 */
async function change(
  db: Executor,
  workspaceId: number,
  id: string,
  actor: number | null,
  changes: (trx: Executor, now: string) => Promise<ConversationChanges>,
): Promise<ConversationScalars> {
  const key = idNumber(id);
  if (key === null) throw notFound('Conversation');
  return db.transaction().execute(async (trx) => {
    const before = await findConversation(trx, workspaceId, key, { lock: true });
    if (!before) throw notFound('Conversation');
    const now = nowIso();
    await updateConversation(trx, workspaceId, key, await changes(trx, now), now);
    const after = (await findConversation(trx, workspaceId, key))!;
    await recordEvents(trx, workspaceId, conversationEvents(before, after, actor));
    return after;
  });
}

/**
 * Archive (archivedAt now; an archived conversation keeps its first archive time) or unarchive
 * (archivedAt null). Archiving one that was not records `archived`.
 */
export const setConversationArchived = (db: Executor, workspaceId: number, id: string, archived: boolean, actor: number | null) =>
  change(db, workspaceId, id, actor, async () => ({ archive: archived ? 'now' : 'clear' }));

/**
 * Assign: `userId` and `inboxTeamId` each set (a digit id of the workspace), cleared (null) or left
 * as they are (absent). A user or team not in the workspace is 422 `validation` naming the field
 * (`data.field`, `data.ids`), nothing changed; the 404 of the conversation comes first. Another
 * assigned user records conversationAssigned, none where there was one conversationUnassigned.
 */
export const assignConversation = (db: Executor, workspaceId: number, id: string, input: AssignConversationInput, actor: number | null) =>
  change(db, workspaceId, id, actor, async (trx) => {
    // An id beyond a 32-bit key names nothing: 0 is never found.
    const user = input.userId ? (idNumber(input.userId) ?? 0) : null;
    const team = input.inboxTeamId ? (idNumber(input.inboxTeamId) ?? 0) : null;
    const [users, teams] = await Promise.all([
      user === null ? null : findUsersByIds(trx, workspaceId, [user]),
      team === null ? null : inboxTeamsByIds(trx, workspaceId, [team]),
    ]);
    if (users?.length === 0) throw unknownReferences('userId', [input.userId!]);
    if (teams?.length === 0) throw unknownReferences('inboxTeamId', [input.inboxTeamId!]);
    return { assignedUserId: input.userId === undefined ? undefined : user, assignedInboxTeamId: input.inboxTeamId === undefined ? undefined : team };
  });

/**
 * Enable the bot (botEnabled true, botResumeAt null), or disable it until `resumeAt` (null: until
 * enabled again). Switching it on where it was off records conversationTransferredToBot, off where
 * it was on conversationTransferredToHuman.
 */
export const setConversationBot = (db: Executor, workspaceId: number, id: string, enabled: boolean, actor: number | null, input?: DisableBotInput) =>
  change(db, workspaceId, id, actor, async () => ({ botEnabled: enabled, botResumeAt: enabled ? null : (input?.resumeAt ?? null) }));

/** Mark read (agentLastReadAt now) or unread (agentLastReadAt null): no event reports it. */
export const setConversationRead = (db: Executor, workspaceId: number, id: string, read: boolean) =>
  change(db, workspaceId, id, null, async (_trx, now) => ({ agentLastReadAt: read ? now : null }));
