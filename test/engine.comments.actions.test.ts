import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededUnit } from '../src/engine/reply-content.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { fixtures } from './support/fixtures.js';
import {
  automationBody,
  commentWorld,
  counters,
  createAutomation,
  delayedJobs,
  deliver,
  events,
  linkedContact,
  netWebhook,
  outbox,
  outboxLines,
  path,
  photoWebhook,
} from './support/comment-engine.js';

const HOUR = 3_600_000;

/**
 * Acting on a match, end to end from a signed webhook to the outbox: like, each hide rule and the
 * unhide after showCommentsAfter, each replyAfter delay (the job's due time, then made due),
 * reply content (values chosen per comment, placeholders, flow and AI agent hand-offs), the 7-day
 * and one-private-reply limits, no public reply to a hidden comment, and the private reply stored
 * as an outgoing message of the contact's conversation.
 */
describe(`comment actions on ${testEngine}`, () => {
  let t: EngineTestApp;
  beforeAll(async () => {
    t = await createEngineTestApp();
  });
  afterAll(() => t?.close());

  it('replyAfter waits at most 30 days: a longer delay is 422 naming replyAfter.value, and 30 days is taken', async () => {
    const w = await commentWorld(t);
    for (const replyAfter of [{ type: 'hours', value: 721 }, { type: 'minutes', value: 3e9 }, { type: 'seconds', value: 2_592_001 }]) {
      const res = await t.request('POST', path('photo'), { token: w.ws.developerToken, body: automationBody('photo', { replyAfter }) });
      expect(res.status).toBe(422);
      expect(res.body.data.issues).toEqual([expect.objectContaining({ message: 'replyAfter may wait at most 30 days', path: ['body', 'replyAfter', 'value'] })]);
    }
    await createAutomation(t, w.ws, 'photo', { replyAfter: { type: 'hours', value: 720 } });
  });

  it('blank alternatives among values are never chosen', async () => {
    const w = await commentWorld(t);
    await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'text', value: null, values: [{ value: 'Hi there' }, { value: '  ' }, { value: '' }] } });
    await deliver(t, 'photo', photoWebhook(w.photo.account, ...Array.from({ length: 12 }, (_, i) => ({ id: `blank-${i}`, from: `blank-${i}` }))));
    const lines = await outboxLines(t, w.ws);
    expect(lines).toHaveLength(12);
    expect(new Set(lines.map((l) => l.split(' ').slice(2).join(' ')))).toEqual(new Set(['Hi there']));
  });

  it('likes the comment when likeUserComment is on, naming the automation and the contact', async () => {
    const w = await commentWorld(t);
    const id = await createAutomation(t, w.ws, 'photo', { options: { likeUserComment: true }, privateReply: { type: 'none', value: null } });
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'l-1', media: 'm-1' }));
    const [entry] = await outbox(t, w.ws);
    const [event] = await events(t, w.ws, 'photo', id);
    expect(entry).toMatchObject({ action: 'like', commentId: 'l-1', postId: 'm-1', automationKind: 'comment', automationId: id, contactId: event.contactId, payload: null, inboxId: String(w.photo.inboxId) });
    expect(event).toMatchObject({ commentId: 'l-1', postId: 'm-1', authorId: 'user-1', outcome: 'acted', reason: null, actions: [{ action: 'like', status: 'done' }] });
    // A like is not a reply: no reply counter moves.
    expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 0, sentCount: 0, deliveredCount: 0, failedCount: 0, missedCount: 0 });
  });

  describe('hiding', () => {
    it("one automation's unhide does not undo another's hide for good", async () => {
      const w = await commentWorld(t);
      const forAWhile = await createAutomation(t, w.ws, 'photo', { hideComments: { all: true, showCommentsAfter: '6h' }, privateReply: { type: 'none', value: null } });
      const forGood = await createAutomation(t, w.ws, 'photo', { hideComments: { hasLink: true, showCommentsAfter: 'none' }, privateReply: { type: 'none', value: null } });
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'uu-link', text: 'cheap followers at spam.example.com' }, { id: 'uu-plain', text: 'nice photo' }));
      await t.dueNow();
      await t.settle();
      // The plain comment is shown again after 6 hours; the link stays hidden.
      expect((await outboxLines(t, w.ws)).filter((l) => l.startsWith('unhide'))).toEqual(['unhide uu-plain']);
      const [linkEvent] = (await events(t, w.ws, 'photo', forAWhile)).filter((e: any) => e.commentId === 'uu-link');
      expect(linkEvent.actions.map((a: any) => `${a.action} ${a.status} ${a.error ?? ''}`.trim())).toEqual(['hide done', 'unhide skipped hiddenByAnotherAutomation']);
      const [keptHidden] = (await events(t, w.ws, 'photo', forGood)).filter((e: any) => e.commentId === 'uu-link');
      expect(keptHidden.actions.map((a: any) => `${a.action} ${a.status}`)).toEqual(['hide done']);
    });

    it.each([
      ['all', { all: true }, { id: 'h', text: 'nice' }, true],
      ['hasPhoneNumber', { hasPhoneNumber: true }, { id: 'h', text: 'call me at +1 (555) 010-2030' }, true],
      ['hasPhoneNumber (too few digits)', { hasPhoneNumber: true }, { id: 'h', text: 'size 42, 3 pieces' }, false],
      ['hasLink (a URL)', { hasLink: true }, { id: 'h', text: 'see https://spam.example/x' }, true],
      ['hasLink (a bare domain)', { hasLink: true }, { id: 'h', text: 'cheap at spamshop.com now' }, true],
      ['hasLink (none)', { hasLink: true }, { id: 'h', text: 'no link here. really' }, false],
      ['hasKeywords', { hasKeywords: true, keywords: ['Scam'] }, { id: 'h', text: 'total SCAM' }, true],
      ['hasKeywords (whole words)', { hasKeywords: true, keywords: ['scam'] }, { id: 'h', text: 'scampi recipe' }, false],
    ])('%s', async (_name, hideComments, comment, hidden) => {
      const w = await commentWorld(t);
      await createAutomation(t, w.ws, 'net', { hideComments, privateReply: { type: 'none', value: null } });
      await deliver(t, 'net', netWebhook(w.net.account, comment));
      expect(await outboxLines(t, w.ws)).toEqual(hidden ? ['hide h'] : []);
    });

    it('hasImage and hasVideo from the attachments (net photo/video, photo attachments)', async () => {
      const w = await commentWorld(t);
      await createAutomation(t, w.ws, 'net', { hideComments: { hasImage: true }, privateReply: { type: 'none', value: null } });
      await createAutomation(t, w.ws, 'photo', { hideComments: { hasVideo: true }, privateReply: { type: 'none', value: null } });
      await deliver(t, 'net', netWebhook(w.net.account, { id: 'img', photo: 'https://cdn.example/p.jpg' }, { id: 'vid', video: 'https://cdn.example/v.mp4' }, { id: 'txt' }));
      await deliver(
        t,
        'photo',
        photoWebhook(w.photo.account, { id: 'p-vid', attachments: [{ type: 'video', payload: { url: 'https://cdn.example/v.mp4' } }] }, { id: 'p-img', attachments: [{ type: 'image', payload: { url: 'https://cdn.example/i.jpg' } }] }),
      );
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['hide img', 'hide p-vid']);
    });

    it('unhides after showCommentsAfter, a job due that long after the hide', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { hideComments: { all: true, showCommentsAfter: '6h' }, privateReply: { type: 'none', value: null } });
      const before = Date.now();
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'u-1' }));
      const after = Date.now();
      expect(await outboxLines(t, w.ws)).toEqual(['hide u-1']);
      const [job] = await delayedJobs(t, 'comment.unhide');
      expect(job!.runAt).toBeGreaterThanOrEqual(before + 6 * HOUR - 1000);
      expect(job!.runAt).toBeLessThanOrEqual(after + 6 * HOUR + 1000);
      let [event] = await events(t, w.ws, 'photo', id);
      expect(event.outcome).toBe('pending');
      expect(event.actions.map((a: any) => `${a.action} ${a.status}`)).toEqual(['hide done', 'unhide scheduled']);
      expect(new Date(event.actions[1].at).getTime()).toBe(job!.runAt);

      await t.dueNow();
      await t.settle();
      expect(await outboxLines(t, w.ws)).toEqual(['hide u-1', 'unhide u-1']);
      [event] = await events(t, w.ws, 'photo', id);
      expect(event.outcome).toBe('acted');
      expect(event.actions.map((a: any) => `${a.action} ${a.status}`)).toEqual(['hide done', 'unhide done']);
    });

    it.each([
      ['12h', 12 * HOUR],
      ['1d', 24 * HOUR],
      ['10d', 240 * HOUR],
    ])('showCommentsAfter %s', async (showCommentsAfter, ms) => {
      const w = await commentWorld(t);
      await createAutomation(t, w.ws, 'photo', { hideComments: { all: true, showCommentsAfter }, privateReply: { type: 'none', value: null } });
      const before = Date.now();
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: `s-${showCommentsAfter}` }));
      const jobs = (await t.jobs()).filter((j) => j.task === 'comment.unhide' && (j.payload as any).workspaceId === w.ws.id);
      expect(jobs).toHaveLength(1);
      const due = new Date(jobs[0]!.runAt).getTime() - before;
      expect(due).toBeGreaterThanOrEqual(ms - 1000);
      expect(due).toBeLessThanOrEqual(ms + 20_000);
    });

    it('no public reply to a comment the engine hid; once unhidden, later comments get theirs', async () => {
      const w = await commentWorld(t);
      const hider = await createAutomation(t, w.ws, 'photo', { hideComments: { hasLink: true }, privateReply: { type: 'none', value: null } });
      const replier = await createAutomation(t, w.ws, 'photo', { publicReply: { type: 'text', value: 'Thanks for commenting' }, privateReply: { type: 'none', value: null } });
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'hp-link', text: 'buy at www.spam.example' }, { id: 'hp-ok', text: 'lovely' }));
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['hide hp-link', 'publicReply hp-ok Thanks for commenting']);
      const replierEvents = await events(t, w.ws, 'photo', replier);
      const hiddenOne = replierEvents.find((e: any) => e.commentId === 'hp-link');
      expect(hiddenOne).toMatchObject({ outcome: 'declined', reason: 'commentHidden', actions: [{ action: 'publicReply', status: 'skipped', error: 'commentHidden' }] });
      expect((await events(t, w.ws, 'photo', hider)).map((e: any) => `${e.commentId} ${e.outcome}`).sort()).toEqual(['hp-link acted', 'hp-ok acted']);
    });
  });

  describe('reply delays', () => {
    const delayed = async (replyAfter: { type: string; value: number }, commentId: string) => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { replyAfter });
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: commentId }));
      const [event] = await events(t, w.ws, 'photo', id);
      const jobs = (await t.jobs()).filter((j) => j.task === 'comment.privateReply' && (j.payload as any).workspaceId === w.ws.id);
      return { w, id, event, jobs };
    };

    it.each([
      ['seconds', 45, 45_000],
      ['minutes', 3, 180_000],
      ['hours', 2, 2 * HOUR],
      ['hours', 0.5, HOUR / 2],
    ])('%s x %s: the reply is a job due that long after the comment was matched, sent once due', async (type, value, ms) => {
      const { w, event, jobs } = await delayed({ type, value }, `d-${type}-${value}`);
      expect(await outboxLines(t, w.ws)).toEqual([]);
      expect(jobs).toHaveLength(1);
      const due = new Date(jobs[0]!.runAt).getTime();
      expect(event.actions).toEqual([{ action: 'privateReply', status: 'scheduled', at: new Date(due).toISOString() }]);
      const wait = due - new Date(event.createdAt).getTime();
      expect(wait).toBeGreaterThan(ms - 2000);
      expect(wait).toBeLessThanOrEqual(ms);
      await t.dueNow();
      await t.settle();
      expect(await outboxLines(t, w.ws)).toEqual([`privateReply d-${type}-${value} Thanks!`]);
    });

    it('immediately: sent without a delayed job', async () => {
      const { w, jobs } = await delayed({ type: 'immediately', value: 0 }, 'd-now');
      expect(jobs).toEqual([]);
      expect(await outboxLines(t, w.ws)).toEqual(['privateReply d-now Thanks!']);
    });

    it.each([3, 5, 10, 20, 30, 60])('randomWithin%sMinutes: uniform in 0..N minutes, seeded by the comment id (the same wait on every try)', async (n) => {
      const commentId = `rnd-${n}`;
      const { w, event } = await delayed({ type: `randomWithin${n}Minutes`, value: 0 }, commentId);
      const expected = Math.floor(seededUnit(`delay:${commentId}`) * n * 60_000);
      const wait = new Date(event.actions[0].at).getTime() - new Date(event.createdAt).getTime();
      expect(wait).toBeGreaterThan(expected - 2000);
      expect(wait).toBeLessThanOrEqual(expected);
      expect(wait).toBeLessThanOrEqual(n * 60_000);
      // Immediately due or not, it is sent once due.
      await t.dueNow();
      await t.settle();
      expect(await outboxLines(t, w.ws)).toEqual([`privateReply ${commentId} Thanks!`]);
    });
  });

  describe('reply content', () => {
    it('one of values, chosen per comment from the automation and comment ids (the same choice every time)', async () => {
      const w = await commentWorld(t);
      const values = ['Alpha', 'Bravo', 'Charlie', 'Delta'];
      const id = await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'text', value: 'ignored when values are given', values: values.map((value) => ({ value })) } });
      const ids = Array.from({ length: 12 }, (_, i) => `v-${i}`);
      await deliver(t, 'photo', photoWebhook(w.photo.account, ...ids.map((cid, i) => ({ id: cid, from: `voter-${i}` }))));
      const expected = ids.map((cid) => `privateReply ${cid} ${values[Math.floor(seededUnit(`${id}:${cid}`) * values.length)]}`);
      expect((await outboxLines(t, w.ws)).sort()).toEqual(expected.sort());
      // Several values were chosen: the choice depends on the comment.
      expect(new Set((await outboxLines(t, w.ws)).map((l) => l.split(' ')[2])).size).toBeGreaterThan(1);
    });

    it('fills {{first_name}}, {{full_name}} and {{custom.<field>}} from the contact (names case-insensitive, missing ones empty)', async () => {
      const w = await commentWorld(t);
      const f = fixtures(t.db, w.ws.id);
      const contact = await linkedContact(t, w.ws.id, w.photo.inboxId, 'photo', 'known-1', { firstName: 'Grace', lastName: 'Hopper' });
      await f.fieldValue(contact, await f.customField('Coupon Code'), 'NAVY42');
      await createAutomation(t, w.ws, 'photo', {
        privateReply: { type: 'text', value: 'Hi {{first_name}} ({{ full_name }}), code {{custom.coupon code}}{{custom.Missing}}!' },
        publicReply: { type: 'text', value: 'Thanks {{first_name}}' },
      });
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'ph-1', from: 'known-1' }));
      // A new commenter: named from the event (a username is the first name).
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'ph-2', from: 'new-1', username: 'linus' }));
      expect((await outboxLines(t, w.ws)).sort()).toEqual([
        'privateReply ph-1 Hi Grace (Grace Hopper), code NAVY42!',
        'privateReply ph-2 Hi linus (linus), code !',
        'publicReply ph-1 Thanks Grace',
        'publicReply ph-2 Thanks linus',
      ]);
    });

    it('flow and AIAgent hand the reply over by id; none sends nothing', async () => {
      const w = await commentWorld(t);
      await createAutomation(t, w.ws, 'net', { privateReply: { type: 'flow', value: 'flow-77' }, publicReply: { type: 'AIAgent', value: 'agent-5' } });
      await createAutomation(t, w.ws, 'net', { privateReply: { type: 'none', value: null }, publicReply: { type: 'none', value: null } });
      await deliver(t, 'net', netWebhook(w.net.account, { id: 'fa-1' }));
      const entries = await outbox(t, w.ws);
      expect(entries.map((e) => [e.action, e.payload])).toEqual(
        expect.arrayContaining([
          ['privateReply', { type: 'flow', flowId: 'flow-77' }],
          ['publicReply', { type: 'AIAgent', agentId: 'agent-5' }],
        ]),
      );
      expect(entries).toHaveLength(2);
    });
  });

  describe('limits', () => {
    it('no private reply to a comment older than 7 days (the public reply still goes)', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { publicReply: { type: 'text', value: 'public' } });
      const old = new Date(Date.now() - 7 * 24 * HOUR - 60_000);
      const recent = new Date(Date.now() - 6 * 24 * HOUR);
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'old', createdAt: old, from: 'u-old' }, { id: 'recent', createdAt: recent, from: 'u-recent' }));
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply recent Thanks!', 'publicReply old public', 'publicReply recent public']);
      const oldEvent = (await events(t, w.ws, 'photo', id)).find((e: any) => e.commentId === 'old');
      expect(oldEvent.outcome).toBe('acted');
      expect(oldEvent.actions.map((a: any) => [a.action, a.status, a.error])).toEqual([
        ['privateReply', 'skipped', 'commentTooOld'],
        ['publicReply', 'done', undefined],
      ]);
    });

    it('one private reply per comment, whichever automations match it; the others record a skip', async () => {
      const w = await commentWorld(t);
      const ids = [await createAutomation(t, w.ws, 'net'), await createAutomation(t, w.ws, 'net'), await createAutomation(t, w.ws, 'net')];
      await deliver(t, 'net', netWebhook(w.net.account, { id: 'once-1' }));
      expect(await outboxLines(t, w.ws)).toEqual(['privateReply once-1 Thanks!']);
      const outcomes = [];
      for (const id of ids) outcomes.push(...(await events(t, w.ws, 'net', id)).map((e: any) => `${e.outcome} ${e.actions.map((a: any) => `${a.status}${a.error ? `:${a.error}` : ''}`).join()}`));
      expect(outcomes.sort()).toEqual(['acted done', 'declined skipped:alreadyRepliedPrivately', 'declined skipped:alreadyRepliedPrivately']);
      const totals = await Promise.all(ids.map((id) => counters(t, w.ws, 'net', id)));
      expect(totals.reduce((n, c) => n + c.repliesCount, 0)).toBe(1);
    });
  });

  it('stores the private reply as an outgoing message of the contact conversation, which the contact counts as activity', async () => {
    const w = await commentWorld(t);
    const id = await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'text', value: 'Hi {{first_name}}' }, publicReply: { type: 'text', value: 'public' } });
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'msg-1', from: 'writer', username: 'ada' }));
    const [event] = await events(t, w.ws, 'photo', id);
    const [entry] = await outbox(t, w.ws, 'action=privateReply');
    const messages = await t.db.selectFrom('messages').selectAll().where('workspace_id', '=', w.ws.id).execute();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      contact_id: Number(event.contactId),
      inbox_id: w.photo.inboxId,
      direction: 'outgoing',
      external_id: `outbox:${entry.id}`,
      text: 'Hi ada',
      status: 'sent',
      automation_kind: 'comment',
      automation_id: Number(id),
    });
    const conversation = await t.db.selectFrom('conversations').selectAll().where('id', '=', messages[0]!.conversation_id).executeTakeFirstOrThrow();
    expect(conversation.contact_id).toBe(Number(event.contactId));
    expect(conversation.admin_replied_at).not.toBeNull();
    const contact = await t.db.selectFrom('contacts').select(['last_message_at', 'first_name']).where('id', '=', Number(event.contactId)).executeTakeFirstOrThrow();
    expect(contact.first_name).toBe('ada');
    // A contact made for the comment is active from its first row, on the comment's processing.
    expect(Date.parse(contact.last_message_at!)).toBeGreaterThanOrEqual(Date.parse(conversation.created_at) - 1_000);
    // Two replies delivered for one answered comment.
    expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 1, sentCount: 2, deliveredCount: 2, failedCount: 0, missedCount: 0 });
    // A known contact's next comment (on another post) moves its activity forward.
    await t.db.updateTable('contacts').set({ last_message_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', Number(event.contactId)).execute();
    const before = Date.now();
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'msg-2', from: 'writer', username: 'ada', media: 'media-2' }));
    const again = await t.db.selectFrom('contacts').select('last_message_at').where('id', '=', Number(event.contactId)).executeTakeFirstOrThrow();
    expect(Date.parse(again.last_message_at!)).toBeGreaterThanOrEqual(before - 1);
  });

  it('two replies to one person in one delivery land in one conversation, which shows the later reply as its last activity', async () => {
    // One delivery is one chunk of the event job (src/engine/process-event.ts): a later way of writing
    // its replies' activity (held and written at its end, say) must keep this.
    const w = await commentWorld(t);
    await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'text', value: 'Hi {{first_name}}' } });
    const before = new Date().toISOString();
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'two-1', from: 'twice', username: 'ada' }, { id: 'two-2', from: 'twice', username: 'ada', media: 'media-2' }));
    const messages = await t.db.selectFrom('messages').select(['conversation_id', 'created_at']).where('workspace_id', '=', w.ws.id).orderBy('id').execute();
    expect(messages).toHaveLength(2);
    expect(messages[1]!.conversation_id).toBe(messages[0]!.conversation_id);
    const conversation = await t.db.selectFrom('conversations').select(['admin_replied_at', 'last_activity_at', 'contact_replied_at']).where('id', '=', messages[0]!.conversation_id).executeTakeFirstOrThrow();
    const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());
    // The later reply's time (taken just after its message is stored), not the first one's.
    expect(iso(conversation.admin_replied_at)! >= iso(messages[1]!.created_at)!).toBe(true);
    expect(iso(conversation.admin_replied_at)! >= before).toBe(true);
    expect(iso(conversation.last_activity_at)).toBe(iso(conversation.admin_replied_at));
    expect(conversation.contact_replied_at).toBeNull();
  });
});
