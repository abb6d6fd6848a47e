import { sql, type Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import { isPostgres, type Executor } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { caseById, flushHeldWrites, heldInsert, heldWritesOf, type HeldKind } from '../../db/held-writes.js';
import { groupBy } from '../shared/group.js';
import { sameWorkspace } from '../shared/scope.js';
import type { CommentEventsTable } from '../../db/types.js';
import { idString, nowIso, parseJson } from '../../db/values.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import type { CommentEvent } from '../events/channel-event.schema.js';
import type { CommentAction, CommentEventOutcome, CommentEventRecord } from './comment-event.schema.js';

const toRecord = (r: Selectable<CommentEventsTable>): CommentEventRecord => ({
  id: idString(r.id),
  createdAt: r.created_at,
  commentId: r.comment_id,
  postId: r.post_id,
  authorId: r.author_id,
  contactId: r.contact_id === null ? null : idString(r.contact_id),
  outcome: r.outcome,
  reason: r.reason,
  actions: parseJson<CommentAction[]>(r.actions),
});

export interface NewCommentEvent {
  channel: Channel;
  automationId: number;
  eventId: number;
  commentId: string;
  postId: string | null;
  authorId: string;
  contactId: number | null;
  outcome: CommentEventOutcome;
  reason: string | null;
  actions: CommentAction[];
}

/** A judgement as its row. */
const rowOf = (workspaceId: number, e: NewCommentEvent, now: string) => ({
  workspace_id: workspaceId,
  channel: e.channel,
  automation_id: e.automationId,
  event_id: e.eventId,
  comment_id: e.commentId,
  post_id: e.postId,
  author_id: e.authorId,
  contact_id: e.contactId,
  outcome: e.outcome,
  reason: e.reason,
  actions: JSON.stringify(e.actions),
  created_at: now,
  updated_at: now,
});

/**
 * Records what an automation did with a comment, unless it already has a record of it (a rerun of
 * the event's job): the new row's id, or null when the row existed.
 */
export async function insertCommentEvent(db: Executor, workspaceId: number, e: NewCommentEvent): Promise<number | null> {
  // A transaction that holds writes (db/held-writes.ts) has asked first whether the row exists
  // (automationsWithRecord), or knows none can: the row is new, with an id taken ahead.
  const held = heldWritesOf(db);
  if (held) return (await held.holdNew(db, heldRecords, rowOf(workspaceId, e, nowIso()))).id;
  const row = await insertOne.first(db, rowOf(workspaceId, e, nowIso()));
  return row?.id ?? null;
}

/** Held records, each with its id. */
const heldRecords = heldInsert('comment_events', (db, rows: (ReturnType<typeof rowOf> & { id: number })[]) =>
  db.insertInto('comment_events').values(rows),
);

// Every answered comment runs these: compiled once (src/db/prepared.ts).
const insertOne = prepared((db, r: ReturnType<typeof rowOf>) =>
  db
    .insertInto('comment_events')
    .values({
      workspace_id: r.workspace_id,
      channel: r.channel,
      automation_id: r.automation_id,
      event_id: r.event_id,
      comment_id: r.comment_id,
      post_id: r.post_id,
      author_id: r.author_id,
      contact_id: r.contact_id,
      outcome: r.outcome,
      reason: r.reason,
      actions: r.actions,
      created_at: r.created_at,
      updated_at: r.updated_at,
    })
    .onConflict((oc) => oc.columns(['automation_id', 'comment_id']).doNothing())
    .returning('id'),
);

const updateState = prepared((db, p: { workspaceId: number; id: number; outcome: CommentEventOutcome; reason: string | null; actions: string; updatedAt: string }) =>
  db
    .updateTable('comment_events')
    .set({ outcome: p.outcome, reason: p.reason, actions: p.actions, updated_at: p.updatedAt })
    .where('workspace_id', '=', p.workspaceId)
    .where('id', '=', p.id),
);

const recordedBy = prepared((db, p: { workspaceId: number; commentId: string; automationId: number }) =>
  db.selectFrom('comment_events').select('automation_id').where('workspace_id', '=', p.workspaceId).where('comment_id', '=', p.commentId).where('automation_id', '=', p.automationId),
);

/**
 * Records many judgements of one comment at once (the automations that declined it), in statements
 * of at most 500 rows; rows that exist already (a rerun) are left alone. Answers the automation ids
 * whose row this call inserted.
 */
export async function insertCommentEvents(db: Executor, workspaceId: number, rows: readonly NewCommentEvent[]): Promise<number[]> {
  const inserted: number[] = [];
  const now = nowIso();
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500).map((e) => rowOf(workspaceId, e, now));
    const done = await db.insertInto('comment_events').values(chunk).onConflict((oc) => oc.columns(['automation_id', 'comment_id']).doNothing()).returning('automation_id').execute();
    inserted.push(...done.map((r) => r.automation_id));
  }
  return inserted;
}

/** Which of these automations already have a record of the comment (one statement). */
export async function automationsWithRecord(db: Executor, workspaceId: number, commentId: string, automationIds: readonly number[]): Promise<Set<number>> {
  if (automationIds.length === 0) return new Set();
  await flushHeldWrites(db);
  // One automation is the usual case (a comment names one keyword): its statement is prepared.
  if (automationIds.length === 1) return new Set((await recordedBy.all(db, { workspaceId, commentId, automationId: automationIds[0]! })).map((r) => r.automation_id));
  const rows = await db
    .selectFrom('comment_events')
    .select('automation_id')
    .where('workspace_id', '=', workspaceId)
    .where('comment_id', '=', commentId)
    .where('automation_id', 'in', [...automationIds])
    .execute();
  return new Set(rows.map((r) => r.automation_id));
}

/**
 * Takes the per-author lock of the workspace until the transaction ends, on PostgreSQL (SQLite
 * transactions already run one at a time: nothing to do there): comments of one author are judged
 * one after the other.
 */
export async function lockCommentAuthor(trx: Executor, workspaceId: number, authorId: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${`comment-author:${workspaceId}:${authorId}`}))`.execute(trx);
}

/** The posts on which each of these automations answered (or is answering) the author: automation id -> post ids. */
export async function answeredPostsOfAuthor(db: Executor, workspaceId: number, automationIds: readonly number[], authorId: string): Promise<Map<number, (string | null)[]>> {
  const answered = new Map<number, (string | null)[]>();
  if (automationIds.length === 0) return answered;
  await flushHeldWrites(db);
  const rows = await db
    .selectFrom('comment_events')
    .select(['automation_id', 'post_id'])
    .where('automation_id', 'in', [...automationIds])
    .where('author_id', '=', authorId)
    .where('workspace_id', '=', workspaceId)
    .where('outcome', 'in', ['pending', 'acted'])
    .execute();
  for (const r of rows) answered.set(r.automation_id, [...(answered.get(r.automation_id) ?? []), r.post_id]);
  return answered;
}

/** A record with what acting on it needs: the comment as its event stored it, and the inbox it came through. */
export interface CommentEventTarget {
  id: number;
  workspaceId: number;
  automationId: number;
  contactId: number | null;
  eventId: number;
  comment: CommentEvent;
  inbox: { id: number; channel: Channel; sourceId: string };
  actions: CommentAction[];
}

/** The record with its comment and inbox (one statement), or null when it is gone (its automation was deleted). */
export async function findCommentEventTarget(db: Executor, workspaceId: number, id: number): Promise<CommentEventTarget | null> {
  await flushHeldWrites(db);
  const row = await db
    .selectFrom('comment_events as ce')
    .innerJoin('channel_events as e', 'e.id', 'ce.event_id')
    .innerJoin('inboxes as i', 'i.id', 'e.inbox_id')
    .select(['ce.id', 'ce.workspace_id', 'ce.automation_id', 'ce.contact_id', 'ce.event_id', 'ce.actions', 'e.payload', 'e.inbox_id', 'e.channel', 'i.source_id'])
    .where('ce.workspace_id', '=', workspaceId)
    .where('ce.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    automationId: row.automation_id,
    contactId: row.contact_id,
    eventId: row.event_id,
    comment: parseJson<CommentEvent>(row.payload),
    inbox: { id: row.inbox_id, channel: row.channel, sourceId: row.source_id ?? '' },
    actions: parseJson<CommentAction[]>(row.actions),
  };
}

/** A record, read to be changed: locked until the transaction ends on PostgreSQL (SQLite transactions already run one at a time). */
export async function findCommentEventForUpdate(trx: Executor, workspaceId: number, id: number) {
  await flushHeldWrites(trx);
  let q = trx.selectFrom('comment_events').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id);
  if (isPostgres(trx)) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? { ...row, actionList: parseJson<CommentAction[]>(row.actions) } : null;
}

/**
 * The record's outcome and actions as they stand. Held by a transaction that holds writes
 * (db/held-writes.ts), with the other states of its chunk: every read of comment_events below
 * writes them first.
 */
export async function updateCommentEventState(trx: Executor, workspaceId: number, id: number, s: { outcome: CommentEventOutcome; reason: string | null; actions: CommentAction[] }): Promise<void> {
  const state = { workspaceId, id, outcome: s.outcome, reason: s.reason, actions: JSON.stringify(s.actions), updatedAt: nowIso() };
  const held = heldWritesOf(trx);
  if (!held) return void (await updateState.run(trx, state));
  // A record whose insert is held yet is inserted in this state: written once, never updated.
  const record = held.unwritten(heldRecords).find((r) => r.id === id && r.workspace_id === workspaceId);
  if (record) Object.assign(record, { outcome: state.outcome, reason: state.reason, actions: state.actions, updated_at: state.updatedAt });
  else held.hold(heldStates, state);
}

type State = Parameters<typeof updateState.run>[1];

/** Held states: one update a workspace, each record at its last state. */
const heldStates: HeldKind<State> = {
  async write(db, states) {
    for (const [workspaceId, some] of groupBy(states, (s) => s.workspaceId)) {
      const last = new Map(some.map((s) => [s.id, s]));
      await db
        .updateTable('comment_events')
        .set({ outcome: caseById(last, (s) => s.outcome), reason: caseById(last, (s) => s.reason), actions: caseById(last, (s) => s.actions), updated_at: nowIso() })
        .where(sameWorkspace('workspace_id', workspaceId))
        .where('id', 'in', [...last.keys()])
        .execute();
    }
  },
};

/** The actions every automation recorded on one stored event (one comment in one inbox). */
export async function actionsOfEvent(db: Executor, workspaceId: number, eventId: number): Promise<{ id: number; actions: CommentAction[] }[]> {
  await flushHeldWrites(db);
  const rows = await db.selectFrom('comment_events').select(['id', 'actions']).where('event_id', '=', eventId).where('workspace_id', '=', workspaceId).execute();
  return rows.map((r) => ({ id: r.id, actions: parseJson<CommentAction[]>(r.actions) }));
}

const ofAutomation = (db: Executor, workspaceId: number, automationId: number) =>
  db.selectFrom('comment_events').where('workspace_id', '=', workspaceId).where('automation_id', '=', automationId);

export async function countCommentEvents(db: Executor, workspaceId: number, automationId: number): Promise<number> {
  await flushHeldWrites(db);
  return countRows(ofAutomation(db, workspaceId, automationId));
}

/** Newest first, by id (the (workspace_id, automation_id, id) index). */
export async function listCommentEvents(db: Executor, workspaceId: number, automationId: number, window: { limit: number; offset: number }): Promise<CommentEventRecord[]> {
  await flushHeldWrites(db);
  const rows = await ofAutomation(db, workspaceId, automationId).selectAll().orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute();
  return rows.map(toRecord);
}

// ---------------------------------------------------------------------------------------------
// Reply claims: the unique index of comment_reply_claims (inbox, comment, kind) is the claim of a
// comment's one private (or public) reply.

/** Claims the comment's reply of this kind for the automation: true when this call took it, false when the comment had a claim of that kind already (see replyClaimHolder). */
export async function insertReplyClaim(db: Executor, workspaceId: number, c: { inboxId: number; commentId: string; kind: 'private' | 'public'; automationId: number; createdAt: string }): Promise<boolean> {
  const claim = { workspaceId, inboxId: c.inboxId, commentId: c.commentId, kind: c.kind, automationId: c.automationId, createdAt: c.createdAt };
  // Held (db/held-writes.ts): the comment's claims are new in the chunk, and a second claim of the
  // same reply in it is refused here, as the unique index would (replyClaimHolder then reads it).
  const held = heldWritesOf(db);
  if (held) {
    if (held.heldSoFar(heldClaims).some((h) => h.inboxId === c.inboxId && h.commentId === c.commentId && h.kind === c.kind)) return false;
    held.hold(heldClaims, claim);
    return true;
  }
  const inserted = await insertClaim.first(db, claim);
  return inserted !== undefined;
}

type Claim = Parameters<typeof insertClaim.first>[1];

/** Held claims. */
const heldClaims = heldInsert('comment_reply_claims', (db, claims: Claim[]) =>
  db
    .insertInto('comment_reply_claims')
    .values(claims.map((p) => ({ workspace_id: p.workspaceId, inbox_id: p.inboxId, comment_id: p.commentId, kind: p.kind, automation_id: p.automationId, created_at: p.createdAt }))),
);

// Every reply claims: compiled once (src/db/prepared.ts).
const insertClaim = prepared((db, p: { workspaceId: number; inboxId: number; commentId: string; kind: 'private' | 'public'; automationId: number; createdAt: string }) =>
  db
    .insertInto('comment_reply_claims')
    .values({ workspace_id: p.workspaceId, inbox_id: p.inboxId, comment_id: p.commentId, kind: p.kind, automation_id: p.automationId, created_at: p.createdAt })
    .onConflict((oc) => oc.columns(['inbox_id', 'comment_id', 'kind']).doNothing())
    .returning('id'),
);

/** The automation holding the claim of the comment's reply of this kind, or null when none does. */
export async function replyClaimHolder(db: Executor, workspaceId: number, c: { inboxId: number; commentId: string; kind: 'private' | 'public' }): Promise<number | null> {
  await flushHeldWrites(db);
  const holder = await db
    .selectFrom('comment_reply_claims')
    .select('automation_id')
    .where('workspace_id', '=', workspaceId)
    .where('inbox_id', '=', c.inboxId)
    .where('comment_id', '=', c.commentId)
    .where('kind', '=', c.kind)
    .executeTakeFirst();
  return holder?.automation_id ?? null;
}
