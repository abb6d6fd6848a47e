import type { ActionResult, AdapterInbox, CommentCall } from '../../domain/channels/channel-adapter.js';
import { isChannelError, type ChannelError } from '../../domain/channels/channel-error.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import { findCommentAutomation, type StoredCommentAutomation } from '../../domain/comment-automations/comment-automation.repository.js';
import { actionsOfEvent, findCommentEventForUpdate, findCommentEventTarget, insertReplyClaim, replyClaimHolder, updateCommentEventState } from '../../domain/comment-events/comment-event.repository.js';
import type { CommentAction, CommentActionName, CommentEventOutcome } from '../../domain/comment-events/comment-event.schema.js';
import { findContactById } from '../../domain/contacts/contact.repository.js';
import type { ContactScalars } from '../../domain/contacts/contact.schema.js';
import { insertErrorLog } from '../../domain/error-logs/error-log.repository.js';
import { findEventPayloadAndInbox } from '../../domain/events/channel-event.repository.js';
import type { CommentEvent } from '../../domain/events/channel-event.schema.js';
import { noteOutgoingMessage } from '../../domain/messages/message.repository.js';
import type { OutgoingContent } from '../../domain/outbox/outbox.schema.js';
import { retryDelayMs, type JobHelpers, type JobSpec, type TaskList } from '../../queue/types.js';
import { ensureConversation, touchContactActivity } from '../../domain/contacts/contact-link.service.js';
import { threadHeldByOther } from '../../domain/thread-control/thread-state.service.js';
import type { EngineDeps } from '../context.js';
import { placeholderContext, replyContent } from '../reply-content.js';
import type { CommentCounter } from '../../domain/comment-automations/comment-automation.repository.js';
import { count, withCountedSavepoint } from './counter-tally.js';
import { unhideDelayMs } from './comment-matching.js';
import { storeMessage } from '../../domain/messages/message-store.service.js';

/**
 * The jobs of a matched comment (docs/engine.md, "Comment automations at work"), one per action: like, hide,
 * unhide (enqueued by the hide, after showCommentsAfter), private reply and public reply (after
 * replyAfter). Each job reads its comment_events row, calls the adapter outside any transaction,
 * then records the result in one transaction: the action's state on the row, the counters, the
 * reply as an outgoing message. A job run again (its worker died) finds its action no longer
 * `scheduled` and does nothing; a send retried before it was recorded carries the same
 * idempotency key, so the sandbox records it once. A job whose row is gone (its automation was
 * deleted) does nothing, except an unhide, which still shows the comment again (see UnhidePayload).
 */
export const COMMENT_ACTION_TASKS: Record<CommentActionName, string> = {
  like: 'comment.like',
  hide: 'comment.hide',
  unhide: 'comment.unhide',
  privateReply: 'comment.privateReply',
  publicReply: 'comment.publicReply',
};

/** Tries of an action job: a rate-limited or unavailable network is retried with the queue's backoff. */
export const COMMENT_ACTION_MAX_ATTEMPTS = 5;

export interface CommentActionPayload {
  workspaceId: number;
  commentEventId: number;
}

/**
 * An unhide's payload: its row, and what the unhide needs when the row is gone. Deleting an
 * automation cascades its comment_events rows, yet a comment it hid for a while must still be shown
 * again: a delete (like switching the automation off, which keeps the rows) stops the automation
 * acting on new comments; it does not make its temporary hides permanent. So the job names the
 * stored event (the comment, its post and its inbox), the automation and the contact, which the
 * call, its outbox entry and an error log name. The outbox names the automation by a plain id (no
 * foreign key: its history outlives it) and error logs do not name it, so both are written for a
 * deleted one. Jobs enqueued before these fields existed carry only the row's id and, without the
 * row, do nothing, as they always did.
 *
 * Why not keep a deleted automation's rows until their unhides have run: comment_events.automation_id
 * is not null and cascades from comment_automations, so that would take a soft delete of automations
 * (filtered by every reader of comment_automations: the API, the engine's compiled automations) or a
 * nullable column (a table rebuild on SQLite) and rows that belong to no automation. The payload
 * confines the change to the one action meant to outlive its automation.
 */
export interface UnhidePayload extends CommentActionPayload {
  eventId?: number;
  automationId?: number;
  contactId?: number | null;
}

/** Also the outbox idempotency key of the action. */
export const commentActionKey = (commentEventId: number, action: CommentActionName) => `comment:${commentEventId}:${action}`;

/** The job of one action of a recorded comment (enqueue it in the transaction that records the row). */
export const commentActionJob = (workspaceId: number, commentEventId: number, action: CommentActionName): JobSpec => ({
  task: COMMENT_ACTION_TASKS[action],
  payload: { workspaceId, commentEventId },
  key: commentActionKey(commentEventId, action),
});

/** The unhide a hide schedules: its row, and what it needs if the row is gone by then (see UnhidePayload). */
const unhideJob = (t: Target): JobSpec => {
  const payload = { workspaceId: t.workspaceId, commentEventId: t.id, eventId: t.eventId, automationId: t.automationId, contactId: t.contactId } satisfies UnhidePayload;
  return { ...commentActionJob(t.workspaceId, t.id, 'unhide'), payload };
};

const SEVEN_DAYS_MS = 7 * 24 * 3_600_000;

/** What an action works on: its row, the comment as the event stored it, and the inbox it came through. */
export interface Target {
  id: number;
  workspaceId: number;
  automationId: number;
  contactId: number | null;
  eventId: number;
  comment: CommentEvent;
  inbox: AdapterInbox;
  /** The row's actions; with `known`, as they stand (each ended action updates them). */
  actions: CommentAction[];
  /**
   * Set when the action runs inline, in the transaction of the event step that has just recorded
   * the row: what that step read (the automation, the contact and its conversation) is current for
   * the whole transaction (SQLite runs one writer), so the action does not read it again, and the
   * step has marked the contact active this instant. `standbyUntil`: the thread's standby, read with
   * the contact (thread-state.service.ts threadHeldByOther), when the step has it.
   */
  known?: { automation: StoredCommentAutomation; contact: ContactScalars; conversationId: number; standbyUntil?: string | null };
}

async function loadTarget(db: Executor, p: CommentActionPayload): Promise<Target | null> {
  return findCommentEventTarget(db, p.workspaceId, p.commentEventId);
}

/**
 * The unhide of a deleted automation, from its job's payload (see UnhidePayload): the stored event
 * still names the comment, its post and its inbox. If the inbox was deleted, its events went with it
 * and there is nothing to unhide through: null, and the job does nothing. The row's list of actions
 * went with the row; the job is what remains of the scheduled unhide, so the target lists it as
 * such. Nothing records it done (finishAction finds no row): a rerun sends it again with the same
 * idempotency key, which the sandbox records once and a network takes as the no-op it is.
 */
async function loadUnhideWithoutRow(db: Executor, p: UnhidePayload): Promise<Target | null> {
  if (p.eventId === undefined || p.automationId === undefined) return null;
  const row = await findEventPayloadAndInbox(db, p.workspaceId, p.eventId);
  if (!row) return null;
  return {
    id: p.commentEventId,
    workspaceId: p.workspaceId,
    automationId: p.automationId,
    contactId: p.contactId ?? null,
    eventId: p.eventId,
    comment: row.event as CommentEvent,
    inbox: row.inbox,
    actions: [{ action: 'unhide', status: 'scheduled', at: nowIso() }],
  };
}

/** The row's outcome from its actions: pending while one waits; acted once one was done; else failed, or declined when all were skipped. */
function outcomeOf(actions: CommentAction[]): { outcome: CommentEventOutcome; reason: string | null } {
  if (actions.some((a) => a.status === 'scheduled')) return { outcome: 'pending', reason: null };
  if (actions.length === 0 || actions.some((a) => a.status === 'done')) return { outcome: 'acted', reason: null };
  const failed = actions.find((a) => a.status === 'failed');
  if (failed) return { outcome: 'failed', reason: failed.error ?? 'failed' };
  return { outcome: 'declined', reason: actions[0]!.error ?? 'skipped' };
}

/**
 * Ends one scheduled action of the row (locked while the transaction lasts), and lets `also` add to
 * the list (the unhide a hide schedules). Answers the list as it was before, or null when the action
 * is no longer scheduled (a rerun after it was recorded): then nothing is written.
 */
async function finishAction(
  trx: Executor,
  t: Target,
  action: CommentActionName,
  end: { status: CommentAction['status']; error?: string },
  also: (list: CommentAction[]) => CommentAction[] = (l) => l,
): Promise<CommentAction[] | null> {
  const before = t.known ? t.actions : (await findCommentEventForUpdate(trx, t.workspaceId, t.id))?.actionList;
  if (!before) return null;
  const i = before.findIndex((a) => a.action === action && a.status === 'scheduled');
  if (i < 0) return null;
  const ended: CommentAction = { action, status: end.status, at: nowIso(), ...(end.error !== undefined ? { error: end.error } : {}) };
  const actions = also(before.map((a, j) => (j === i ? ended : a)));
  await updateCommentEventState(trx, t.workspaceId, t.id, { ...outcomeOf(actions), actions });
  t.actions = actions;
  return before;
}

const scheduled = (t: Target, action: CommentActionName) => t.actions.some((a) => a.action === action && a.status === 'scheduled');

const skip = (deps: EngineDeps, t: Target, action: CommentActionName, why: string) =>
  inTransaction(deps.db, (trx) => finishAction(trx, t, action, { status: 'skipped', error: why }));

const isReply = (action: CommentActionName) => action === 'privateReply' || action === 'publicReply';

/**
 * A refused adapter call: an error log (action the channel, the network's message, its HTTP status,
 * the contact), failedCount and sentCount for a reply attempt. A retryable refusal with tries left
 * is thrown again for the queue to retry with backoff; otherwise the action ends failed and the job
 * ends normally: a network error never stops the worker.
 */
async function failed(deps: EngineDeps, t: Target, action: CommentActionName, err: ChannelError, helpers: JobHelpers, message?: (trx: Executor) => Promise<void>): Promise<void> {
  const retry = err.retryable && helpers.job.attempt < helpers.job.maxAttempts;
  // The row first, the counters last: the order every transaction locks them in (no deadlock).
  await inTransaction(deps.db, async (trx) => {
    const ended = !retry && (await finishAction(trx, t, action, { status: 'failed', error: err.providerMessage })) !== null;
    await insertErrorLog(trx, t.workspaceId, { contactId: t.contactId, action: t.inbox.channel, detail: err.providerMessage, httpCode: err.httpCode === null ? '500' : String(err.httpCode) });
    if (ended && message) await message(trx);
    if (isReply(action)) await count(deps, trx, t.workspaceId, t.automationId, ['sent_count', 'failed_count']);
  });
  if (retry) throw err;
}

/** The adapter call of an action, with the ids, origin and idempotency key every call carries. */
const callOf = (t: Target, action: CommentActionName): CommentCall => ({
  workspaceId: t.workspaceId,
  inbox: t.inbox,
  commentId: t.comment.commentId,
  postId: t.comment.postId,
  contactId: t.contactId,
  automation: { kind: 'comment', id: t.automationId },
  idempotencyKey: commentActionKey(t.id, action),
});

/** Runs the adapter call; a ChannelError is handled by `failed` (answers null), anything else propagates (the queue retries). */
async function attempt(deps: EngineDeps, t: Target, action: CommentActionName, helpers: JobHelpers, call: () => Promise<ActionResult>, message?: (err: ChannelError) => (trx: Executor) => Promise<void>): Promise<ActionResult | null> {
  try {
    return await call();
  } catch (err) {
    if (!isChannelError(err)) throw err;
    await failed(deps, t, action, err, helpers, message?.(err));
    return null;
  }
}

async function like(deps: EngineDeps, t: Target, helpers: JobHelpers): Promise<void> {
  const done = await attempt(deps, t, 'like', helpers, () => deps.adapter.likeComment(callOf(t, 'like')));
  if (done) await inTransaction(deps.db, (trx) => finishAction(trx, t, 'like', { status: 'done' }));
}

/** Hides the comment; when the automation shows comments again after a delay, schedules the unhide from now. */
async function hide(deps: EngineDeps, t: Target, helpers: JobHelpers): Promise<void> {
  const done = await attempt(deps, t, 'hide', helpers, () => deps.adapter.hideComment(callOf(t, 'hide')));
  if (!done) return;
  const automation = t.known?.automation ?? (await findCommentAutomation(deps.db, t.workspaceId, null, t.automationId));
  const delay = automation ? unhideDelayMs(automation.hideComments.showCommentsAfter) : null;
  await inTransaction(deps.db, async (trx) => {
    const runAt = delay === null ? null : new Date(Date.now() + delay);
    const before = await finishAction(trx, t, 'hide', { status: 'done' }, (list) =>
      runAt === null ? list : [...list, { action: 'unhide', status: 'scheduled', at: runAt.toISOString() }],
    );
    if (before && runAt !== null) await deps.queue.enqueue(trx, { ...unhideJob(t), runAt, maxAttempts: COMMENT_ACTION_MAX_ATTEMPTS });
  });
}

async function unhide(deps: EngineDeps, t: Target, helpers: JobHelpers): Promise<void> {
  if (await hiddenForGoodByAnother(deps.db, t)) return void (await skip(deps, t, 'unhide', 'hiddenByAnotherAutomation'));
  const done = await attempt(deps, t, 'unhide', helpers, () => deps.adapter.unhideComment(callOf(t, 'unhide')));
  if (done) await inTransaction(deps.db, (trx) => finishAction(trx, t, 'unhide', { status: 'done' }));
}

/**
 * Claims the comment's one private (or public) reply for this automation: the unique index of
 * comment_reply_claims is the claim. True when this automation holds it (now, or from an earlier try).
 */
async function claimReply(db: Executor, t: Target, kind: 'private' | 'public'): Promise<boolean> {
  const inserted = await insertReplyClaim(db, t.workspaceId, { inboxId: t.inbox.id, commentId: t.comment.commentId, kind, automationId: t.automationId, createdAt: nowIso() });
  if (inserted) return true;
  const holder = await replyClaimHolder(db, t.workspaceId, { inboxId: t.inbox.id, commentId: t.comment.commentId, kind });
  return holder === t.automationId;
}

/** The automation's hide of the comment is done or waiting (and not skipped or failed). */
const hides = (actions: CommentAction[]) => actions.some((a) => a.action === 'hide' && (a.status === 'scheduled' || a.status === 'done'));

/** Hidden by this engine and not shown again: a hide of any automation on the comment is pending or done, its unhide not done. */
async function commentHidden(db: Executor, t: Target): Promise<boolean> {
  const rows = await actionsOfEvent(db, t.workspaceId, t.eventId);
  return rows.some(({ actions }) => hides(actions) && !actions.some((a) => a.action === 'unhide' && a.status === 'done'));
}

/** Another automation hid the comment for good (its hide done or waiting, no unhide of its own to come): showing it again would undo that. */
async function hiddenForGoodByAnother(db: Executor, t: Target): Promise<boolean> {
  const rows = await actionsOfEvent(db, t.workspaceId, t.eventId);
  return rows.some(({ id, actions }) => id !== t.id && hides(actions) && !actions.some((a) => a.action === 'unhide'));
}

/** The reply's content for the comment's contact, or a reason to skip it. */
async function replyFor(db: Executor, t: Target, kind: 'privateReply' | 'publicReply'): Promise<{ automation: StoredCommentAutomation; content: OutgoingContent } | { skip: string }> {
  const automation = t.known?.automation ?? (await findCommentAutomation(db, t.workspaceId, null, t.automationId));
  if (!automation || !automation.isActive) return { skip: 'automationInactive' };
  if (t.contactId === null) return { skip: 'noContact' };
  const contact = t.known?.contact ?? (await findContactById(db, t.workspaceId, t.contactId));
  if (!contact) return { skip: 'contactDeleted' };
  if (contact.blockedAt !== null) return { skip: 'blockedContact' };
  const who = await placeholderContext(db, t.workspaceId, { id: t.contactId, firstName: contact.firstName, lastName: contact.lastName }, automation[kind]);
  const content = replyContent(automation[kind], who, `${t.automationId}:${t.comment.commentId}`);
  return content ? { automation, content } : { skip: 'emptyReply' };
}

/** Counters of a delivered reply: sent and delivered, and repliesCount for the comment's first one. */
const deliveredCounters = (before: CommentAction[]): CommentCounter[] =>
  before.some((a) => isReply(a.action) && a.status === 'done') ? ['sent_count', 'delivered_count'] : ['sent_count', 'delivered_count', 'replies_count'];

async function privateReply(deps: EngineDeps, t: Target, helpers: JobHelpers): Promise<void> {
  if (Date.now() - new Date(t.comment.createdAt).getTime() > SEVEN_DAYS_MS) return void (await skip(deps, t, 'privateReply', 'commentTooOld'));
  const reply = await replyFor(deps.db, t, 'privateReply');
  if ('skip' in reply) return void (await skip(deps, t, 'privateReply', reply.skip));
  // A private reply lands in the person's thread: not while another app holds it (thread control).
  if (await threadHeldByOther(deps.db, t.workspaceId, t.contactId!, t.inbox.id, undefined, t.known?.standbyUntil)) return void (await skip(deps, t, 'privateReply', 'threadNotOwned'));
  if (!(await claimReply(deps.db, t, 'private'))) return void (await skip(deps, t, 'privateReply', 'alreadyRepliedPrivately'));
  const contactId = t.contactId!;
  const text = reply.content.type === 'text' ? reply.content.text : null;
  const store = (trx: Executor, m: { externalId: string | null; status: 'sent' | 'failed'; error?: string }) =>
    (t.known ? Promise.resolve(t.known.conversationId) : ensureConversation(trx, t.workspaceId, contactId, t.inbox.id)).then((conversationId) =>
      storeMessage(trx, t.workspaceId, { conversationId, contactId, inboxId: t.inbox.id, direction: 'outgoing', text, automation: { kind: 'comment', id: t.automationId }, ...m }).then(() => conversationId),
    );
  const sent = await attempt(
    deps,
    t,
    'privateReply',
    helpers,
    () => deps.adapter.sendPrivateReply({ ...callOf(t, 'privateReply'), content: reply.content }),
    (err) => async (trx) => void (await store(trx, { externalId: null, status: 'failed', error: err.providerMessage })),
  );
  if (!sent) return;
  await inTransaction(deps.db, async (trx) => {
    const before = await finishAction(trx, t, 'privateReply', { status: 'done' });
    if (!before) return;
    const conversationId = await store(trx, { externalId: sent.externalId, status: 'sent' });
    const now = nowIso();
    await noteOutgoingMessage(trx, t.workspaceId, conversationId, now);
    // Inline, the event step has just marked the contact active in this transaction.
    if (!t.known) await touchContactActivity(trx, t.workspaceId, contactId, now);
    await count(deps, trx, t.workspaceId, t.automationId, deliveredCounters(before));
  });
}

async function publicReply(deps: EngineDeps, t: Target, helpers: JobHelpers): Promise<void> {
  if (await commentHidden(deps.db, t)) return void (await skip(deps, t, 'publicReply', 'commentHidden'));
  const reply = await replyFor(deps.db, t, 'publicReply');
  if ('skip' in reply) return void (await skip(deps, t, 'publicReply', reply.skip));
  if (!(await claimReply(deps.db, t, 'public'))) return void (await skip(deps, t, 'publicReply', 'alreadyRepliedPublicly'));
  const sent = await attempt(deps, t, 'publicReply', helpers, () => deps.adapter.sendPublicReply({ ...callOf(t, 'publicReply'), content: reply.content }));
  if (!sent) return;
  await inTransaction(deps.db, async (trx) => {
    const before = await finishAction(trx, t, 'publicReply', { status: 'done' });
    if (before) await count(deps, trx, t.workspaceId, t.automationId, deliveredCounters(before));
  });
}

const handlers: Record<CommentActionName, (deps: EngineDeps, t: Target, helpers: JobHelpers) => Promise<void>> = { like, hide, unhide, privateReply, publicReply };

/** Runs the action unless it is no longer scheduled (done by an earlier try, or skipped). */
const runAction = async (deps: EngineDeps, t: Target, action: CommentActionName, helpers: JobHelpers): Promise<void> => {
  if (scheduled(t, action)) await handlers[action](deps, t, helpers);
};

/**
 * The action tasks for the engine's task table: each reads its row, then runs. Without its row (the
 * automation was deleted) an action does nothing, except an unhide, which its payload lets run.
 */
export function commentActionTasks(deps: EngineDeps): TaskList {
  return Object.fromEntries(
    (Object.keys(handlers) as CommentActionName[]).map((action) => [
      COMMENT_ACTION_TASKS[action],
      async (payload: CommentActionPayload, helpers: JobHelpers) => {
        const t = (await loadTarget(deps.db, payload)) ?? (action === 'unhide' ? await loadUnhideWithoutRow(deps.db, payload) : null);
        if (t) await runAction(deps, t, action, helpers);
      },
    ]),
  );
}

/**
 * An action due at once, run inside the event job's transaction (`deps.inline`) exactly as its job
 * would run it, as the first of its tries. When that try does not end the action (a retryable
 * refusal, whose error log and counts are kept, or an unexpected error, whose writes are undone),
 * the job is enqueued for the remaining tries with the queue's backoff.
 */
export async function runActionInline(deps: EngineDeps, t: Target, action: CommentActionName): Promise<void> {
  const job = commentActionJob(t.workspaceId, t.id, action);
  const helpers: JobHelpers = {
    job: { id: `inline:${job.key}`, task: job.task, attempt: 1, maxAttempts: COMMENT_ACTION_MAX_ATTEMPTS, key: job.key ?? null },
    signal: inlineSignal,
    logger: deps.logger,
  };
  const actions = t.actions;
  try {
    // A refusal (ChannelError) keeps its error log and counts; anything else is undone: by its
    // savepoint, or by the chunk's failure (process-event.ts runs it again with savepoints).
    if (deps.inline === 'chunk') await runAction(deps, t, action, helpers);
    else await withCountedSavepoint(deps, () => runAction(deps, t, action, helpers), isChannelError);
  } catch (err) {
    if (deps.inline === 'chunk' && !isChannelError(err)) throw err;
    // The row is as the savepoint left it: a refusal ends nothing, anything else was rolled back.
    t.actions = actions;
    deps.logger.warn({ err, workspaceId: t.workspaceId, commentEventId: t.id, action }, 'an immediate action did not complete; its job retries it');
    await deps.queue.enqueue(deps.db, { ...job, runAt: new Date(Date.now() + retryDelayMs(1)), maxAttempts: COMMENT_ACTION_MAX_ATTEMPTS - 1 });
  }
}

/** Inline tries are never released by a stopping runner (the event job that runs them is). */
const inlineSignal = new AbortController().signal;
