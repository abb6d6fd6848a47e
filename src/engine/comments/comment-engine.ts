import { isChannelError } from '../../domain/channels/channel-error.js';
import { insertErrorLog } from '../../domain/error-logs/error-log.repository.js';
import { inTransaction } from '../../db/database.js';
import { type StoredCommentAutomation } from '../../domain/comment-automations/comment-automation.repository.js';
import { postKindsByExternalIds } from '../../domain/channel-posts/channel-post.repository.js';
import type { PostKind } from '../../domain/channel-posts/channel-post.schema.js';
import { answeredPostsOfAuthor, automationsWithRecord, insertCommentEvent, insertCommentEvents, lockCommentAuthor, type NewCommentEvent } from '../../domain/comment-events/comment-event.repository.js';
import type { CommentAction, CommentActionName } from '../../domain/comment-events/comment-event.schema.js';
import type { StoredEvent } from '../../domain/events/channel-event.repository.js';
import type { CommentEvent } from '../../domain/events/channel-event.schema.js';
import { findSourceContact, linkContact, overMacLimit, touchContactActivity, type LinkedContact, type SourceContact } from '../../domain/contacts/contact-link.service.js';
import type { EngineDeps } from '../context.js';
import type { EventProcessor } from '../process-event.js';
import { seededUnit } from '../reply-content.js';
import { commentActionJob, COMMENT_ACTION_MAX_ATTEMPTS, runActionInline, type Target } from './comment-actions.js';
import { count } from './counter-tally.js';
import { declineBeforeContact, hideRule, kindFromProductType, normaliseText, replyDelayMs, samePost, targets, type DeclineReason } from './comment-matching.js';

/**
 * The `comment` event processor (docs/engine.md, "Comment automations at work"). Each active comment
 * automation of the inbox's channel in the workspace judges the comment on its own. Those whose post
 * selector and includeKeywords take the comment (it is addressed to them) then check the schedule,
 * replies, excluded keywords, the per-author rules, blocked contacts and the MAC limit. Each of
 * their judgements is recorded (comment_events, one row per automation and comment); a declined
 * comment adds one to missedCount; a matched one links the author to a contact and enqueues its actions (like, hide,
 * replies), all in one transaction. A rerun of the job finds its rows and does nothing twice.
 * Adapter calls (fetching an unknown post's kind) run before the transaction.
 */
export const processCommentEvent: EventProcessor = async (deps, stored) => {
  const comment = stored.event as CommentEvent;
  const { inbox, workspaceId } = stored;
  // The account's own comments (our public replies come back as comment webhooks) are never answered.
  if (comment.authorId === inbox.sourceId) return 'own comment: not answered';

  const set = await deps.automations.active(deps.db, workspaceId, inbox.channel);
  if (set.all.length === 0) return 'no active comment automation';

  // 1. Which automations the comment is addressed to (post and includeKeywords): the others ignore it.
  const text = normaliseText(comment.text);
  const candidates = set.candidates(text);
  const needsKind = candidates.some((c) => ['published', 'ads', 'reels'].includes(c.automation.post.type));
  const postKind = needsKind ? await postKindOf(deps, stored, comment) : null;
  const targeted = candidates.filter((c) => targets(c.automation, c, comment, text, postKind));
  if (targeted.length === 0) return `no automation of ${set.all.length} is addressed`;
  // In a chunk's first try, only a comment stored twice (two inboxes on one account) can have rows already (chunk-reads.ts).
  const mayBeRecorded = !deps.chunkReads || (await deps.chunkReads.accountShared(deps.db, inbox));
  const recorded = mayBeRecorded ? await automationsWithRecord(deps.db, workspaceId, comment.commentId, targeted.map((c) => c.id)) : new Set<number>();
  const compiled = targeted.filter((c) => !recorded.has(c.id));
  if (compiled.length === 0) return `already processed by ${targeted.length} automation(s)`;
  const automations = compiled.map((c) => c.automation);
  const keywords = new Map(compiled.map((c) => [c.id, c]));

  const timeZone = set.timezone;

  // What the comment alone says to each of them.
  const reasons = new Map<number, DeclineReason | null>(automations.map((a) => [idOf(a), declineBeforeContact(a, keywords.get(idOf(a))!, comment, text, timeZone)]));
  const passing = () => automations.filter((a) => reasons.get(idOf(a)) === null);

  const now = new Date();
  const immediate: { target: Target; action: CommentActionName }[] = [];
  let acted = 0;
  let declined = 0;
  await inTransaction(deps.db, async (trx) => {
    // 2. Whom each automation with a per-author option answered on which post. Asked inside the
    // transaction, under a per-author lock on PostgreSQL (SQLite transactions run one at a time):
    // two comments of one author processed at once by two jobs must not both pass.
    const perAuthor = passing().filter((a) => a.options.replyOncePerUserPerPost || !a.options.replyToUsersWhoCommentedOnOtherPosts);
    if (perAuthor.length > 0) {
      await lockCommentAuthor(trx, workspaceId, comment.authorId);
      const answered = await answeredPostsOfAuthor(trx, workspaceId, perAuthor.map(idOf), comment.authorId);
      const samePostOf = (p: string | null) => (p === null || comment.postId === null ? p === comment.postId : samePost(p, comment.postId));
      for (const a of perAuthor) {
        const posts = answered.get(idOf(a)) ?? [];
        if (a.options.replyOncePerUserPerPost && posts.some(samePostOf)) reasons.set(idOf(a), 'alreadyRepliedOnPost');
        else if (!a.options.replyToUsersWhoCommentedOnOtherPosts && posts.some((p) => !samePostOf(p))) reasons.set(idOf(a), 'answeredOnOtherPost');
      }
    }

    // 3. The contact: never a blocked one; none at all past the MAC limit (asked before linking creates one).
    let existing: SourceContact | null = null;
    if (passing().length > 0) {
      existing = deps.chunkReads ? await deps.chunkReads.contactOf(trx, inbox, comment.authorId) : await findSourceContact(trx, inbox, comment.authorId);
      let refusal: DeclineReason | null = null;
      if (existing?.contact.blockedAt != null) refusal = 'blockedContact';
      else if (await overMacLimit(trx, workspaceId, existing ? idOf(existing.contact) : null, new Date(), set.macLimit)) refusal = 'macLimitReached';
      if (refusal) for (const a of passing()) reasons.set(idOf(a), refusal);
    }
    const existingContactId = existing ? idOf(existing.contact) : null;

    let linked: LinkedContact | null = null;
    if (passing().length > 0) {
      // A contact made for the comment counts as active from its first row: no update of it after.
      linked = await linkContact(trx, inbox, { sourceId: comment.authorId, name: comment.authorName }, existing, { activeAt: now.toISOString() });
      // The same person's next comment in the chunk finds the contact and its conversation.
      if (linked.standbyUntil !== undefined) deps.chunkReads?.linked(inbox, comment.authorId, { contact: linked.contact, conversationId: linked.conversationId, standbyUntil: linked.standbyUntil });
    }
    const declines: NewCommentEvent[] = [];
    for (const a of automations) {
      let reason = reasons.get(idOf(a)) ?? null;
      if (reason === null && a.options.replyToNewContactsOnly && !linked!.created) reason = 'notNewContact';
      const base = { channel: inbox.channel, automationId: idOf(a), eventId: stored.id, commentId: comment.commentId, postId: comment.postId, authorId: comment.authorId };
      if (reason !== null) {
        declines.push({ ...base, contactId: linked ? idOf(linked.contact) : existingContactId, outcome: 'declined', reason, actions: [] });
        continue;
      }
      const planned = plan(a, comment, now);
      const actions = planned.map(({ action, runAt }) => ({ action, status: 'scheduled', at: runAt.toISOString() }) satisfies CommentAction);
      const id = await insertCommentEvent(trx, workspaceId, { ...base, contactId: idOf(linked!.contact), outcome: planned.length > 0 ? 'pending' : 'acted', reason: null, actions });
      if (id === null) continue;
      // What an action due now needs is in hand: it runs inline without reading it again.
      const target: Target = {
        id,
        workspaceId,
        automationId: idOf(a),
        contactId: idOf(linked!.contact),
        eventId: stored.id,
        comment,
        inbox: { id: inbox.id, channel: inbox.channel, sourceId: inbox.sourceId },
        actions,
        known: { automation: a, contact: linked!.contact, conversationId: linked!.conversationId, standbyUntil: linked!.standbyUntil },
      };
      for (const { action, runAt } of planned) {
        if (deps.inline && runAt.getTime() <= now.getTime()) immediate.push({ target, action });
        else await deps.queue.enqueue(trx, { ...commentActionJob(workspaceId, id, action), runAt, maxAttempts: COMMENT_ACTION_MAX_ATTEMPTS });
      }
      acted++;
    }
    // Many automations may decline one comment: their rows and missedCounts in a few statements.
    const missed = await insertCommentEvents(trx, workspaceId, declines);
    declined = missed.length;
    // The commenter counts as a monthly active contact (a contact made before this month too).
    if (linked && !linked.created) await touchContactActivity(trx, workspaceId, idOf(linked.contact), now.toISOString());
    // Inside the event job's transaction (see process-event.ts), in the order they were planned.
    for (const { target, action } of immediate) await runActionInline({ ...deps, db: trx }, target, action);
    // Last: every transaction takes the automations' row locks after the contact's (counter-tally.ts).
    await count(deps, trx, workspaceId, missed, ['missed_count']);
  });
  return `comment ${comment.commentId}: ${acted} matched, ${declined} declined`;
};

const idOf = (x: { id: string | number }): number => Number(x.id);

/** What a matched automation will do, and when: like and hide at once, the replies after replyAfter. */
function plan(a: StoredCommentAutomation, comment: CommentEvent, now: Date): { action: CommentActionName; runAt: Date }[] {
  const actions: { action: CommentActionName; runAt: Date }[] = [];
  if (a.options.likeUserComment) actions.push({ action: 'like', runAt: now });
  if (hideRule(a.hideComments, comment) !== null) actions.push({ action: 'hide', runAt: now });
  // Seeded by the comment: a rerun, or another process, waits the same (only a random delay needs it).
  const unit = a.replyAfter.type.startsWith('random') ? seededUnit(`delay:${comment.commentId}`) : 0;
  const replyAt = new Date(now.getTime() + replyDelayMs(a.replyAfter, unit));
  if (sendsSomething(a.privateReply)) actions.push({ action: 'privateReply', runAt: replyAt });
  if (sendsSomething(a.publicReply)) actions.push({ action: 'publicReply', runAt: replyAt });
  return actions;
}

const sendsSomething = (r: StoredCommentAutomation['privateReply']) =>
  r.type !== 'none' && ((r.value ?? '').trim() !== '' || (r.values ?? []).some((v) => v.value.trim() !== ''));


/**
 * The kind of the comment's post (published, ads, reels): from the workspace's channel posts, else
 * the photo network's product-type hint, else the adapter's latest posts; null when none knows it.
 */
async function postKindOf(deps: EngineDeps, stored: StoredEvent, comment: CommentEvent): Promise<PostKind | null> {
  const postId = comment.postId;
  if (postId === null) return null;
  const bare = postId.includes('_') ? postId.slice(postId.indexOf('_') + 1) : postId;
  const rows = await postKindsByExternalIds(deps.db, stored.workspaceId, stored.inbox.channel, [...new Set([postId, bare])]);
  const known = rows.find((r) => r.externalId === postId) ?? rows[0];
  if (known) return known.kind;
  const hint = kindFromProductType(comment.postProductType);
  if (hint) return hint;
  try {
    const posts = await deps.adapter.fetchPosts({ workspaceId: stored.workspaceId, inbox: stored.inbox });
    return posts.find((p) => samePost(p.id, postId))?.kind ?? null;
  } catch (err) {
    if (!isChannelError(err)) throw err;
    // The owner sees why a published/ads/reels automation let the comment pass: an error log of the channel.
    deps.logger.warn({ err, workspaceId: stored.workspaceId, postId }, 'could not fetch posts to learn a commented post kind');
    await insertErrorLog(deps.db, stored.workspaceId, { contactId: null, action: stored.inbox.channel, detail: `Could not learn the kind of post ${postId}: ${err.providerMessage}`, httpCode: err.httpCode === null ? '500' : String(err.httpCode) });
    return null;
  }
}
