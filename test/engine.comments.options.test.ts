import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { commentWorld, counters, createAutomation, deliver, eventLines, events, linkedContact, netWebhook, outboxLines, photoWebhook } from './support/comment-engine.js';

/**
 * The per-author options of a comment automation, from the record of whom it answered on which
 * post: replyToNewContactsOnly, replyOncePerUserPerPost, replyToUsersWhoCommentedOnOtherPosts;
 * blocked contacts are never answered; a workspace over its MAC limit stops acting (recorded, and
 * no contact is created). Each declined comment counts in missedCount.
 */
describe(`comment automation options on ${testEngine}`, () => {
  let t: EngineTestApp;
  beforeAll(async () => {
    t = await createEngineTestApp();
  });
  afterAll(() => t?.close());

  it('replyToNewContactsOnly: only authors this very comment made a contact of', async () => {
    const w = await commentWorld(t);
    await linkedContact(t, w.ws.id, w.photo.inboxId, 'photo', 'known');
    const id = await createAutomation(t, w.ws, 'photo', { options: { replyToNewContactsOnly: true } });
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'nc-known', from: 'known' }));
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'nc-new', from: 'newcomer' }));
    // The newcomer is a contact now: their next comment is not from a new contact.
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'nc-again', from: 'newcomer' }));
    expect(await outboxLines(t, w.ws)).toEqual(['privateReply nc-new Thanks!']);
    expect(await eventLines(t, w.ws, 'photo', id)).toEqual(['nc-known declined notNewContact', 'nc-new acted', 'nc-again declined notNewContact']);
    expect((await counters(t, w.ws, 'photo', id)).missedCount).toBe(2);
  });

  it('replyOncePerUserPerPost: one answer per author and post', async () => {
    const w = await commentWorld(t);
    const id = await createAutomation(t, w.ws, 'photo', { options: { replyOncePerUserPerPost: true } });
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'o-1', from: 'ann', media: 'post-a' }));
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'o-2', from: 'ann', media: 'post-a' }, { id: 'o-3', from: 'ann', media: 'post-b' }, { id: 'o-4', from: 'bob', media: 'post-a' }));
    expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply o-1 Thanks!', 'privateReply o-3 Thanks!', 'privateReply o-4 Thanks!']);
    expect((await eventLines(t, w.ws, 'photo', id)).sort()).toEqual(['o-1 acted', 'o-2 declined alreadyRepliedOnPost', 'o-3 acted', 'o-4 acted']);
  });

  it('replyOncePerUserPerPost, within one delivery: a comment whose reply was skipped does not count as answered', async () => {
    const w = await commentWorld(t);
    const id = await createAutomation(t, w.ws, 'photo', { options: { replyOncePerUserPerPost: true } });
    // One webhook, so one chunk: the first comment is too old for a private reply (skipped: the
    // automation did not answer ann on post-a), and the second, on the same post, is answered.
    const old = new Date(Date.now() - 8 * 24 * 3_600_000);
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'd-1', from: 'ann', media: 'post-a', createdAt: old }, { id: 'd-2', from: 'ann', media: 'post-a' }));
    expect(await outboxLines(t, w.ws)).toEqual(['privateReply d-2 Thanks!']);
    expect((await eventLines(t, w.ws, 'photo', id)).sort()).toEqual(['d-1 declined commentTooOld', 'd-2 acted']);
    // Each row holds its final state, the time it was written included.
    const rows = await t.db.selectFrom('comment_events').select(['comment_id', 'actions', 'created_at', 'updated_at']).where('automation_id', '=', Number(id)).orderBy('comment_id').execute();
    expect(rows.map((r) => JSON.parse(r.actions).map((a: { status: string }) => a.status))).toEqual([['skipped'], ['done']]);
    for (const r of rows) expect(Date.parse(r.updated_at)).toBeGreaterThanOrEqual(Date.parse(r.created_at));
  });

  it('replyOncePerUserPerPost off: the same author on the same post is answered again', async () => {
    const w = await commentWorld(t);
    await createAutomation(t, w.ws, 'photo', { options: { replyOncePerUserPerPost: false }, publicReply: { type: 'text', value: 'again' }, privateReply: { type: 'none', value: null } });
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'r-1', from: 'ann' }));
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'r-2', from: 'ann' }));
    expect(await outboxLines(t, w.ws)).toEqual(['publicReply r-1 again', 'publicReply r-2 again']);
  });

  it('replyToUsersWhoCommentedOnOtherPosts off: an author this automation answered on another post is declined; on, answered', async () => {
    const w = await commentWorld(t);
    const strict = await createAutomation(t, w.ws, 'net', { options: { replyToUsersWhoCommentedOnOtherPosts: false }, privateReply: { type: 'text', value: 'strict' } });
    const open = await createAutomation(t, w.ws, 'net', { options: { replyToUsersWhoCommentedOnOtherPosts: true }, publicReply: { type: 'text', value: 'open' }, privateReply: { type: 'none', value: null } });
    const post = (n: number) => `${w.net.account}_${n}`;
    await deliver(t, 'net', netWebhook(w.net.account, { id: 'x-1', from: 'cat', postId: post(1) }));
    await deliver(t, 'net', netWebhook(w.net.account, { id: 'x-2', from: 'cat', postId: post(2) }, { id: 'x-3', from: 'dan', postId: post(2) }));
    // The same post again is not "another post".
    await deliver(t, 'net', netWebhook(w.net.account, { id: 'x-4', from: 'cat', postId: post(1) }));
    expect((await eventLines(t, w.ws, 'net', strict)).sort()).toEqual(['x-1 acted', 'x-2 declined answeredOnOtherPost', 'x-3 acted', 'x-4 acted']);
    expect((await eventLines(t, w.ws, 'net', open)).sort()).toEqual(['x-1 acted', 'x-2 acted', 'x-3 acted', 'x-4 acted']);
  });

  it('never answers a blocked contact (nor likes or hides for it)', async () => {
    const w = await commentWorld(t);
    await linkedContact(t, w.ws.id, w.net.inboxId, 'net', 'blocked-1', { blocked: true });
    const id = await createAutomation(t, w.ws, 'net', { options: { likeUserComment: true }, hideComments: { all: true } });
    await deliver(t, 'net', netWebhook(w.net.account, { id: 'b-1', from: 'blocked-1' }, { id: 'b-2', from: 'free-1' }));
    expect((await outboxLines(t, w.ws)).sort()).toEqual(['hide b-2', 'like b-2', 'privateReply b-2 Thanks!']);
    expect((await eventLines(t, w.ws, 'net', id)).sort()).toEqual(['b-1 declined blockedContact', 'b-2 acted']);
    expect((await counters(t, w.ws, 'net', id)).missedCount).toBe(1);
  });

  it('over its MAC limit a workspace stops acting for new people (recorded, no contact made) and keeps acting for contacts already counted', async () => {
    const w = await commentWorld(t, { macLimit: 1 });
    const id = await createAutomation(t, w.ws, 'photo');
    // One active contact this month: the limit is reached.
    await linkedContact(t, w.ws.id, w.photo.inboxId, 'photo', 'regular');
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'mac-new', from: 'stranger' }, { id: 'mac-regular', from: 'regular' }));
    expect(await outboxLines(t, w.ws)).toEqual(['privateReply mac-regular Thanks!']);
    const declined = (await events(t, w.ws, 'photo', id)).find((e: any) => e.commentId === 'mac-new');
    expect(declined).toMatchObject({ outcome: 'declined', reason: 'macLimitReached', contactId: null, actions: [] });
    const strangers = await t.db.selectFrom('contact_inboxes').select('id').where('workspace_id', '=', w.ws.id).where('source_id', '=', 'stranger').execute();
    expect(strangers).toEqual([]);
    expect((await counters(t, w.ws, 'photo', id)).missedCount).toBe(1);
  });

  it('a commenter who is acted on counts as active this month, also a contact made before it: the next new person is over the limit', async () => {
    const w = await commentWorld(t, { macLimit: 1 });
    const id = await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'none', value: null }, options: { likeUserComment: true } });
    // Made two months ago and silent since: not active this month, so the limit is not reached yet.
    await linkedContact(t, w.ws.id, w.photo.inboxId, 'photo', 'old-friend', { createdAt: new Date(Date.now() - 62 * 86_400_000).toISOString() });
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'mac-old', from: 'old-friend' }));
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'mac-next', from: 'newcomer' }));
    expect(await outboxLines(t, w.ws)).toEqual(['like mac-old']);
    expect((await eventLines(t, w.ws, 'photo', id)).sort()).toEqual(['mac-next declined macLimitReached', 'mac-old acted']);
  });
});
