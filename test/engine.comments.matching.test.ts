import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { fixtures } from './support/fixtures.js';
import {
  commentWorld,
  counters,
  createAutomation,
  deliver,
  eventLines,
  events,
  netWebhook,
  outboxLines,
  photoWebhook,
  todayAt,
  type CommentWorld,
} from './support/comment-engine.js';

/**
 * Matching a comment, end to end: a signed webhook, the queue settled, then the outbox, the
 * automation's counters and its events. Each filter of the "Matching a comment": schedule
 * (workspace timezone, overnight), post selector, comment replies, the account's own comments,
 * keywords (all, equal, contain; case, accents, whole words, phrases; excludes). Each automation
 * of the channel judges the comment on its own.
 */
describe(`comment matching on ${testEngine}`, () => {
  let t: EngineTestApp;
  beforeAll(async () => {
    t = await createEngineTestApp();
  });
  afterAll(() => t?.close());

  describe('schedule', () => {
    it('answers comments written inside the window (inclusive) and declines the others, in UTC by default', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { startTime: '09:00', endTime: '17:00' });
      await deliver(
        t,
        'photo',
        photoWebhook(
          w.photo.account,
          { id: 'c-0859', createdAt: todayAt('08:59') },
          { id: 'c-0900', createdAt: todayAt('09:00') },
          { id: 'c-1700', createdAt: todayAt('17:00') },
          { id: 'c-1701', createdAt: todayAt('17:01') },
        ),
      );
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply c-0900 Thanks!', 'privateReply c-1700 Thanks!']);
      expect((await eventLines(t, w.ws, 'photo', id)).sort()).toEqual(['c-0859 declined outsideSchedule', 'c-0900 acted', 'c-1700 acted', 'c-1701 declined outsideSchedule']);
      expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 2, sentCount: 2, deliveredCount: 2, failedCount: 0, missedCount: 2 });
    });

    it('runs overnight windows across midnight', async () => {
      const w = await commentWorld(t);
      await createAutomation(t, w.ws, 'photo', { startTime: '22:00', endTime: '06:00' });
      await deliver(
        t,
        'photo',
        photoWebhook(w.photo.account, { id: 'n-2159', createdAt: todayAt('21:59') }, { id: 'n-2300', createdAt: todayAt('23:00') }, { id: 'n-0300', createdAt: todayAt('03:00') }, { id: 'n-0601', createdAt: todayAt('06:01') }),
      );
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply n-0300 Thanks!', 'privateReply n-2300 Thanks!']);
    });

    it("reads the window in the workspace's timezone", async () => {
      // Asia/Tokyo is UTC+9 all year: 09:00-10:00 there is 00:00-01:00 UTC.
      const w = await commentWorld(t, { timezone: 'Asia/Tokyo' });
      await createAutomation(t, w.ws, 'photo', { startTime: '09:00', endTime: '10:00' });
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'tz-in', createdAt: todayAt('00:30') }, { id: 'tz-out', createdAt: todayAt('09:30') }));
      expect(await outboxLines(t, w.ws)).toEqual(['privateReply tz-in Thanks!']);
    });
  });

  describe('post selector', () => {
    it('postIds: the listed ids only; a pageId_postId id and its bare post id match each other', async () => {
      const w = await commentWorld(t);
      const f = fixtures(t.db, w.ws.id);
      await f.channelPost('net', w.net.inboxId, { id: `${w.net.account}_9001`, kind: 'published', mediaType: 'status' });
      await f.channelPost('net', w.net.inboxId, { id: `${w.net.account}_9002`, kind: 'published', mediaType: 'status' });
      const bare = await createAutomation(t, w.ws, 'net', { post: { type: 'postIds', value: ['9001'] }, privateReply: { type: 'text', value: 'bare' } });
      const full = await createAutomation(t, w.ws, 'net', { post: { type: 'postIds', value: [`${w.net.account}_9002`] }, publicReply: { type: 'text', value: 'full' }, privateReply: { type: 'none', value: null } });
      await deliver(
        t,
        'net',
        netWebhook(w.net.account, { id: 'p-1', postId: `${w.net.account}_9001` }, { id: 'p-2', postId: `${w.net.account}_9002` }, { id: 'p-3', postId: `${w.net.account}_9003` }),
      );
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply p-1 bare', 'publicReply p-2 full']);
      // Comments on other posts are not addressed to the automation: no record, no miss.
      expect((await eventLines(t, w.ws, 'net', bare)).sort()).toEqual(['p-1 acted']);
      expect((await eventLines(t, w.ws, 'net', full)).sort()).toEqual(['p-2 acted']);
    });

    it('published, ads and reels: by the kind of the post in channel posts, else the media product type, else the adapter', async () => {
      const w = await commentWorld(t);
      const f = fixtures(t.db, w.ws.id);
      await f.channelPost('photo', w.photo.inboxId, { id: 'm-pub', kind: 'published' });
      await f.channelPost('photo', w.photo.inboxId, { id: 'm-ad', kind: 'ads' });
      await f.channelPost('photo', w.photo.inboxId, { id: 'm-reel', kind: 'reels' });
      const published = await createAutomation(t, w.ws, 'photo', { post: { type: 'published', value: [] }, privateReply: { type: 'text', value: 'published' } });
      const ads = await createAutomation(t, w.ws, 'photo', { post: { type: 'ads', value: [] }, privateReply: { type: 'text', value: 'ads' } });
      const reels = await createAutomation(t, w.ws, 'photo', { post: { type: 'reels', value: [] }, privateReply: { type: 'text', value: 'reels' } });
      await deliver(
        t,
        'photo',
        photoWebhook(
          w.photo.account,
          // Known posts: their stored kind wins over the hint.
          { id: 'k-pub', media: 'm-pub', productType: 'REELS' },
          { id: 'k-ad', media: 'm-ad' },
          { id: 'k-reel', media: 'm-reel' },
          // Unknown posts: the hint.
          { id: 'h-reel', media: 'm-unknown-1', productType: 'REELS' },
          { id: 'h-ad', media: 'm-unknown-2', productType: 'AD' },
          // Neither: not selected by any of them.
          { id: 'u-none', media: 'm-unknown-3' },
        ),
      );
      const firstReplies = (await outboxLines(t, w.ws)).sort();
      expect(firstReplies).toEqual(['privateReply h-ad ads', 'privateReply h-reel reels', 'privateReply k-ad ads', 'privateReply k-pub published', 'privateReply k-reel reels']);
      for (const automation of [published, ads, reels]) expect((await eventLines(t, w.ws, 'photo', automation)).filter((l) => l.startsWith('u-none'))).toEqual([]);
    });

    it('all: every post, and a comment without a post too', async () => {
      const w = await commentWorld(t);
      await createAutomation(t, w.ws, 'photo');
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'a-1', media: 'whatever' }, { id: 'a-2', media: null }));
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply a-1 Thanks!', 'privateReply a-2 Thanks!']);
    });
  });

  describe('replies and own comments', () => {
    it('ignoreCommentReplies skips comments that answer another comment; off, they are answered', async () => {
      const w = await commentWorld(t);
      const ignoring = await createAutomation(t, w.ws, 'net', { options: { ignoreCommentReplies: true }, privateReply: { type: 'text', value: 'ignoring' } });
      await createAutomation(t, w.ws, 'net', { options: { ignoreCommentReplies: false }, publicReply: { type: 'text', value: 'answering' }, privateReply: { type: 'none', value: null } });
      await deliver(t, 'net', netWebhook(w.net.account, { id: 'r-top' }, { id: 'r-reply', parentId: 'r-top' }));
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply r-top ignoring', 'publicReply r-reply answering', 'publicReply r-top answering']);
      expect((await eventLines(t, w.ws, 'net', ignoring)).sort()).toEqual(['r-reply declined commentReply', 'r-top acted']);
    });

    it("never answers the account's own comments (nor records or counts them)", async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo');
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'own-1', from: w.photo.account }));
      expect(await outboxLines(t, w.ws)).toEqual([]);
      expect(await events(t, w.ws, 'photo', id)).toEqual([]);
      expect((await counters(t, w.ws, 'photo', id)).missedCount).toBe(0);
    });
  });

  describe('keywords', () => {
    const run = async (w: CommentWorld, include: { type: string; value: string[] }, exclude: string[], texts: Record<string, string>) => {
      const id = await createAutomation(t, w.ws, 'photo', { includeKeywords: include, excludeKeywords: exclude });
      await deliver(t, 'photo', photoWebhook(w.photo.account, ...Object.entries(texts).map(([cid, text]) => ({ id: cid, text }))));
      const answered = (await outboxLines(t, w.ws)).map((l) => l.split(' ')[1]).sort();
      return { id, answered };
    };

    it('contain: case- and accent-insensitive, on whole words, phrases as a sequence of words', async () => {
      const w = await commentWorld(t);
      const { id, answered } = await run(w, { type: 'contain', value: ['price', 'Café', 'how much', '$$', 'e-mail'] }, [], {
        'k-case': 'What is the PRICE?',
        'k-accent': 'un cafe por favor',
        'k-accent2': 'CAFÉ!',
        'k-partial': 'priceless advice',
        'k-inner': 'the apricot',
        'k-phrase': 'How   much, really?',
        'k-phrase-split': 'how is it so much',
        'k-symbol': 'costs$$ a lot',
        // A keyword with a symbol inside matches it as written, on whole words.
        'k-hyphen': 'send me an E-mail.',
        'k-hyphen-space': 'e mail me',
        'k-hyphen-inner': 'my xe-mails',
        'k-none': 'nice photo',
      });
      expect(answered).toEqual(['k-accent', 'k-accent2', 'k-case', 'k-hyphen', 'k-phrase', 'k-symbol']);
      // Comments without a keyword are not addressed to the automation: no record, no miss.
      expect((await eventLines(t, w.ws, 'photo', id)).filter((l) => l.includes('declined'))).toEqual([]);
      expect((await eventLines(t, w.ws, 'photo', id)).sort()).toEqual(['k-accent acted', 'k-accent2 acted', 'k-case acted', 'k-hyphen acted', 'k-phrase acted', 'k-symbol acted']);
    });

    it('equal: the trimmed comment is one of the keywords (any case and accents)', async () => {
      const w = await commentWorld(t);
      const { answered } = await run(w, { type: 'equal', value: ['Info', 'más info'] }, [], {
        'e-1': '  info ',
        'e-2': 'MAS INFO',
        'e-3': 'info please',
        'e-4': 'more info',
      });
      expect(answered).toEqual(['e-1', 'e-2']);
    });

    it('all: no filter; any exclude keyword declines, whatever else matches', async () => {
      const w = await commentWorld(t);
      const { id, answered } = await run(w, { type: 'all', value: [] }, ['spam', 'Scam alert'], {
        'x-1': 'great post',
        'x-2': 'SPAM here',
        'x-3': 'scam   ALERT!',
        'x-4': 'spammy stuff, antispam',
      });
      expect(answered).toEqual(['x-1', 'x-4']);
      expect((await eventLines(t, w.ws, 'photo', id)).filter((l) => l.includes('declined')).sort()).toEqual(['x-2 declined excludedKeyword', 'x-3 declined excludedKeyword']);
    });
  });

  it('each automation of the channel judges the comment on its own; other channels and inactive automations do not act', async () => {
    const w = await commentWorld(t);
    const a = await createAutomation(t, w.ws, 'photo', { includeKeywords: { type: 'contain', value: ['price'] }, privateReply: { type: 'text', value: 'A' } });
    const b = await createAutomation(t, w.ws, 'photo', { includeKeywords: { type: 'contain', value: ['size'] }, publicReply: { type: 'text', value: 'B' }, privateReply: { type: 'none', value: null } });
    const inactive = await createAutomation(t, w.ws, 'photo', { publicReply: { type: 'text', value: 'never' } });
    expect((await t.request('PATCH', `/v1/photo-comments/${inactive}`, { token: w.ws.developerToken, body: { isActive: false } })).status).toBe(200);
    const net = await createAutomation(t, w.ws, 'net');
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'i-1', text: 'price and size?' }, { id: 'i-2', text: 'size?' }));
    expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply i-1 A', 'publicReply i-1 B', 'publicReply i-2 B']);
    expect((await eventLines(t, w.ws, 'photo', a)).sort()).toEqual(['i-1 acted']);
    expect((await eventLines(t, w.ws, 'photo', b)).sort()).toEqual(['i-1 acted', 'i-2 acted']);
    expect(await events(t, w.ws, 'photo', inactive)).toEqual([]);
    expect(await events(t, w.ws, 'net', net)).toEqual([]);
  });
});
