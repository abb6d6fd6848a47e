import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAdapter } from '../src/channels/sandbox.adapter.js';
import { ChannelError } from '../src/domain/channels/channel-error.js';
import type { ChannelAdapter } from '../src/domain/channels/channel-adapter.js';
import { engineDepsOf } from '../src/engine/context.js';
import { engineTasks } from '../src/engine/tasks.js';
import { manualJobHelpers } from './support/queue.js';
import { fixtures } from './support/fixtures.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { commentWorld, counters, createAutomation, deliver, eventLines, events, insertInbox, outbox, outboxLines, photoWebhook, netWebhook, unique } from './support/comment-engine.js';
import { workspaceOf } from '../src/queue/failure.js';

/**
 * What must hold when things go wrong or happen at once: a network that refuses (error log,
 * failedCount, a retry for a rate limit, the worker goes on), counters exact under many concurrent
 * comments and never past int32, a redelivered webhook or a job run again acting once, and tenant
 * isolation (another workspace's automations never act on an inbox's events; two workspaces that
 * connected the same account each act for their own).
 */
describe(`comment engine reliability on ${testEngine}`, () => {
  describe('on the sandbox adapter', () => {
    let t: EngineTestApp;
    beforeAll(async () => {
      t = await createEngineTestApp();
    });
    afterAll(() => t?.close());

    it('counts exactly under many concurrent comments (several webhooks at once)', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { publicReply: { type: 'text', value: 'public' }, options: { likeUserComment: true } });
      // Addressed to every comment (no keyword filter), and declining each (an excluded word): 60 misses.
      const declining = await createAutomation(t, w.ws, 'photo', { excludeKeywords: ['hello'] });
      const batches = Array.from({ length: 6 }, (_, b) => photoWebhook(w.photo.account, ...Array.from({ length: 10 }, (_, i) => ({ id: `cc-${b}-${i}`, from: `fan-${b}-${i % 5}` }))));
      const answers = await Promise.all(batches.map((body) => t.webhook('photo', body)));
      expect(answers.map((a) => a.status)).toEqual(batches.map(() => 200));
      await t.settle(60_000);
      expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 60, sentCount: 120, deliveredCount: 120, failedCount: 0, missedCount: 0 });
      expect(await counters(t, w.ws, 'photo', declining)).toEqual({ repliesCount: 0, sentCount: 0, deliveredCount: 0, failedCount: 0, missedCount: 60 });
      const entries = await t.db.selectFrom('outbox').select(['action', 'comment_id']).where('workspace_id', '=', w.ws.id).execute();
      expect(entries).toHaveLength(180);
      expect(new Set(entries.map((e) => `${e.action} ${e.comment_id}`)).size).toBe(180);
      // One contact per author (30 authors), however many of their comments were processed at once.
      const contacts = await t.db.selectFrom('contact_inboxes').select('source_id').where('workspace_id', '=', w.ws.id).execute();
      expect(contacts).toHaveLength(30);
      // Nothing waits for a retry: no job failed along the way (a deadlock would have).
      expect((await t.jobs()).filter((j) => (j.payload as any)?.workspaceId === w.ws.id)).toEqual([]);
    }, 120_000);

    it('a webhook of many comments (more than one commit of the event job on SQLite) answers each once', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo');
      await deliver(t, 'photo', photoWebhook(w.photo.account, ...Array.from({ length: 45 }, (_, i) => ({ id: `many-${String(i).padStart(2, '0')}`, from: `many-${i}` }))));
      const lines = await outboxLines(t, w.ws);
      expect(lines).toHaveLength(45);
      expect(new Set(lines).size).toBe(45);
      expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 45, sentCount: 45, deliveredCount: 45, failedCount: 0, missedCount: 0 });
      const open = await t.db.selectFrom('channel_events').select('id').where('workspace_id', '=', w.ws.id).where('processed_at', 'is', null).execute();
      expect(open).toEqual([]);
    });

    it('one event that fails does not hold back the others of its delivery (a transaction per step: PostgreSQL, network adapters)', async () => {
      const w = await commentWorld(t);
      await fixtures(t.db, w.ws.id).channelPost('photo', w.photo.inboxId, { id: 'm-known', kind: 'published' });
      const id = await createAutomation(t, w.ws, 'photo', { post: { type: 'published', value: [] } });
      // No joinTransaction: the per-step path on either engine. Asked for an unknown post's kind, it crashes.
      const { joinTransaction: _join, ...perStep } = sandboxAdapter(t.db);
      const broken: ChannelAdapter = { ...perStep, fetchPosts: () => Promise.reject(new Error('adapter crashed')) };
      await t.stopWorkers();
      try {
        await t.webhook('photo', photoWebhook(w.photo.account, { id: 'st-1', from: 'st-a', media: 'm-unknown' }, { id: 'st-2', from: 'st-b', media: 'm-known' }));
        const job = (await t.jobs()).find((j) => j.task === 'event.process' && workspaceOf(j.payload) === w.ws.id)!;
        await expect(engineTasks({ ...engineDepsOf(t.app.deps), adapter: broken })['event.process']!(job.payload, manualJobHelpers())).rejects.toThrow('adapter crashed');
        // The second event of the delivery was processed (its reply is a job on this path) although the first failed.
        const replies = (await t.jobs()).filter((j) => j.task === 'comment.privateReply' && workspaceOf(j.payload) === w.ws.id);
        expect(replies).toHaveLength(1);
        const open = await t.db.selectFrom('channel_events').select('external_id').where('workspace_id', '=', w.ws.id).where('processed_at', 'is', null).execute();
        expect(open.map((e) => e.external_id)).toEqual(['st-1']);
      } finally {
        await t.startWorkers();
      }
      await t.dueNow();
      await t.settle();
      expect(await outboxLines(t, w.ws)).toEqual(['privateReply st-2 Thanks!']);
      expect(await eventLines(t, w.ws, 'photo', id)).toEqual(['st-2 acted']);
    });

    it("replyOncePerUserPerPost holds when one author's comments on a post are processed at the same time (separate deliveries, two runners)", async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { options: { replyOncePerUserPerPost: true } });
      await t.extraRunner();
      const authors = 8;
      const deliveries = Array.from({ length: authors }, (_, i) => [0, 1].map((k) => photoWebhook(w.photo.account, { id: `race-${i}-${k}`, from: `racer-${i}`, media: 'm-race' }))).flat();
      const answers = await Promise.all(deliveries.map((body) => t.webhook('photo', body)));
      expect(answers.map((a) => a.status)).toEqual(deliveries.map(() => 200));
      await t.settle(60_000);
      const lines = await eventLines(t, w.ws, 'photo', id);
      expect(lines.filter((l) => l.endsWith('acted'))).toHaveLength(authors);
      expect(lines.filter((l) => l.endsWith('declined alreadyRepliedOnPost'))).toHaveLength(authors);
      const replied = (await outboxLines(t, w.ws)).map((l) => l.split(' ')[1]!.replace(/-[01]$/, ''));
      expect(replied.sort()).toEqual(Array.from({ length: authors }, (_, i) => `race-${i}`).sort());
    });

    it('never counts past 2147483647', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'net', { publicReply: { type: 'text', value: 'public' }, includeKeywords: { type: 'contain', value: ['yes'] } });
      const max = 2147483647;
      await t.db.updateTable('comment_automations').set({ replies_count: max, sent_count: max, delivered_count: max, missed_count: max, failed_count: max }).where('id', '=', Number(id)).execute();
      await deliver(t, 'net', netWebhook(w.net.account, { id: 'big-1', text: 'yes', from: 'a' }, { id: 'big-2', text: 'no', from: 'b' }));
      expect(await outboxLines(t, w.ws)).toHaveLength(2);
      expect(await counters(t, w.ws, 'net', id)).toEqual({ repliesCount: max, sentCount: max, deliveredCount: max, failedCount: max, missedCount: max });
    });

    it('a redelivered webhook acts once; the event job and an action job run again act on nothing', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { publicReply: { type: 'text', value: 'public' } });
      const body = photoWebhook(w.photo.account, { id: 'again-1' });
      await deliver(t, 'photo', body);
      await deliver(t, 'photo', body);
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply again-1 Thanks!', 'publicReply again-1 public']);

      // A worker that died after doing the work: the same jobs run again.
      const event = await t.db.selectFrom('channel_events').select('id').where('workspace_id', '=', w.ws.id).executeTakeFirstOrThrow();
      const [record] = await events(t, w.ws, 'photo', id);
      const queue = t.app.deps.queue;
      await queue.enqueue(t.db, { task: 'event.process', payload: { workspaceId: w.ws.id, eventId: event.id } });
      for (const task of ['comment.privateReply', 'comment.publicReply']) await queue.enqueue(t.db, { task, payload: { workspaceId: w.ws.id, commentEventId: Number(record.id) } });
      await t.settle();
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply again-1 Thanks!', 'publicReply again-1 public']);
      expect(await eventLines(t, w.ws, 'photo', id)).toEqual(['again-1 acted']);
      expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 1, sentCount: 2, deliveredCount: 2, failedCount: 0, missedCount: 0 });
    });

    it('the sandbox records a send retried with the same idempotency key once, and answers the same id', async () => {
      const w = await commentWorld(t);
      const adapter = sandboxAdapter(t.db);
      const call = { workspaceId: w.ws.id, inbox: { id: w.photo.inboxId, channel: 'photo' as const, sourceId: w.photo.account }, commentId: 'idem-1', content: { type: 'text' as const, text: 'Hi' } };
      const first = await adapter.sendPrivateReply({ ...call, idempotencyKey: 'k-1' });
      const second = await adapter.sendPrivateReply({ ...call, idempotencyKey: 'k-1' });
      const other = await adapter.sendPrivateReply({ ...call, idempotencyKey: 'k-2' });
      const unkeyed = [await adapter.sendPrivateReply(call), await adapter.sendPrivateReply(call)];
      expect(second).toEqual(first);
      expect(other).not.toEqual(first);
      expect(unkeyed[0]).not.toEqual(unkeyed[1]);
      expect(await outbox(t, w.ws)).toHaveLength(4);
    });

    it("another workspace's automations never act on an inbox's events", async () => {
      const a = await commentWorld(t);
      const b = await commentWorld(t);
      const own = await createAutomation(t, a.ws, 'photo', { privateReply: { type: 'text', value: 'from A' } });
      const foreign = await createAutomation(t, b.ws, 'photo', { privateReply: { type: 'text', value: 'from B' } });
      await deliver(t, 'photo', photoWebhook(a.photo.account, { id: 'iso-1' }));
      expect(await outboxLines(t, a.ws)).toEqual(['privateReply iso-1 from A']);
      expect(await outboxLines(t, b.ws)).toEqual([]);
      expect(await events(t, b.ws, 'photo', foreign)).toEqual([]);
      expect(await eventLines(t, a.ws, 'photo', own)).toEqual(['iso-1 acted']);
      // Nor may one workspace read the other's automation events.
      expect((await t.request('GET', `/v1/photo-comments/${own}/events`, { token: b.ws.developerToken })).status).toBe(404);
      expect((await t.request('GET', `/v1/net-comments/${own}/events`, { token: a.ws.developerToken })).status).toBe(404);
    });

    it('two workspaces that connected the same account each act for their own automations and contacts', async () => {
      const account = `shared-${unique()}`;
      const a = await commentWorld(t, { accounts: { photo: account, net: `net-a-${unique()}` } });
      const b = await commentWorld(t, { accounts: { photo: account, net: `net-b-${unique()}` } });
      await createAutomation(t, a.ws, 'photo', { privateReply: { type: 'text', value: 'from A' } });
      await createAutomation(t, b.ws, 'photo', { publicReply: { type: 'text', value: 'from B' }, privateReply: { type: 'none', value: null } });
      await deliver(t, 'photo', photoWebhook(account, { id: 'both-1', from: 'someone' }));
      const [inA] = await outbox(t, a.ws);
      const [inB] = await outbox(t, b.ws);
      expect([inA.action, inA.payload.text, inA.inboxId]).toEqual(['privateReply', 'from A', String(a.photo.inboxId)]);
      expect([inB.action, inB.payload.text, inB.inboxId]).toEqual(['publicReply', 'from B', String(b.photo.inboxId)]);
      expect(await outbox(t, a.ws)).toHaveLength(1);
      expect(await outbox(t, b.ws)).toHaveLength(1);
      const owners = await t.db.selectFrom('contacts').select('workspace_id').where('id', 'in', [Number(inA.contactId), Number(inB.contactId)]).execute();
      expect(owners.map((o) => o.workspace_id).sort()).toEqual([a.ws.id, b.ws.id].sort());
    });
    // A delivery's comments are judged in one chunk, which reads their authors' contacts together
    // and skips the record check where no other inbox shares the account (src/engine/comments/chunk-reads.ts).
    it('a person commenting twice in one delivery gets one contact and one conversation; only the first comment is from a new contact', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { options: { replyToNewContactsOnly: true } });
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'tw-1', from: 'tw-a' }, { id: 'tw-2', from: 'tw-b' }, { id: 'tw-3', from: 'tw-a' }));
      expect(await eventLines(t, w.ws, 'photo', id)).toEqual(['tw-1 acted', 'tw-2 acted', 'tw-3 declined notNewContact']);
      const links = await t.db.selectFrom('contact_inboxes').select('contact_id').where('workspace_id', '=', w.ws.id).where('source_id', '=', 'tw-a').execute();
      expect(links).toHaveLength(1);
      const conversations = await t.db.selectFrom('conversations').select('id').where('contact_id', '=', links[0]!.contact_id).execute();
      expect(conversations).toHaveLength(1);
      expect(await t.db.selectFrom('workspace_events').select('id').where('workspace_id', '=', w.ws.id).where('type', '=', 'newContact').execute()).toHaveLength(2);
    });

    it('one workspace with two inboxes on the same account answers a comment once and links its author once', async () => {
      const w = await commentWorld(t);
      const second = await insertInbox(t, w.ws.id, 'photo', w.photo.account);
      const id = await createAutomation(t, w.ws, 'photo');
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'twice-1', from: 'twice-a' }));
      // Stored once per inbox; the copy judged second finds the first one's row and does nothing.
      const stored = await t.db.selectFrom('channel_events').select(['inbox_id', 'outcome']).where('workspace_id', '=', w.ws.id).orderBy('id').execute();
      expect(stored.map((s) => s.inbox_id)).toEqual([w.photo.inboxId, second]);
      expect(stored[1]!.outcome).toBe('already processed by 1 automation(s)');
      expect(await outboxLines(t, w.ws)).toEqual(['privateReply twice-1 Thanks!']);
      expect(await eventLines(t, w.ws, 'photo', id)).toEqual(['twice-1 acted']);
      const links = await t.db.selectFrom('contact_inboxes').select('inbox_id').where('workspace_id', '=', w.ws.id).where('source_id', '=', 'twice-a').execute();
      expect(links).toEqual([{ inbox_id: w.photo.inboxId }]);
    });
  });

  // With the sandbox, an event job runs its events in chunk transactions with their immediate actions
  // inside (src/engine/process-event.ts), on both engines. A try that does not end its action there
  // leaves the action to its job: a refusal keeps its error log and counts, an unexpected error
  // leaves no trace.
  describe('immediate actions inside the event job', () => {
    let t: EngineTestApp;
    beforeAll(async () => {
      t = await createEngineTestApp();
    });
    afterAll(() => t?.close());
    /** The sandbox, except that the private reply it sends inside a transaction fails with `err`. */
    const failingInside = (err: Error): ChannelAdapter => ({
      ...sandboxAdapter(t.db),
      joinTransaction: (trx) => ({ ...sandboxAdapter(trx), sendPrivateReply: () => Promise.reject(err) }),
    });

    it('a refused try keeps its error log and counts and hands the action to its job; an unexpected error is undone and handed over too', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo');
      await t.stopWorkers();
      try {
        await t.webhook('photo', photoWebhook(w.photo.account, { id: 'inl-1', from: 'inl-a' }));
        const refusal = new ChannelError({ reason: 'rateLimited', httpCode: 429, providerMessage: '(#4) Application request limit reached' });
        const run = async (adapter: ChannelAdapter) => {
          const job = (await t.jobs()).find((j) => j.task === 'event.process' && workspaceOf(j.payload) === w.ws.id)!;
          await engineTasks({ ...engineDepsOf(t.app.deps), adapter })['event.process']!(job.payload, manualJobHelpers());
          if (testEngine === 'sqlite') await t.db.deleteFrom('jobs').where('id', '=', Number(job.id)).execute();
          else await sql`delete from ${sql.id(t.workerSchema, '_private_jobs')} where id = ${job.id}`.execute(t.db);
        };
        await run(failingInside(refusal));
        const logs = await t.db.selectFrom('error_logs').select(['action', 'detail', 'http_code']).where('workspace_id', '=', w.ws.id).execute();
        expect(logs).toEqual([{ action: 'photo', detail: '(#4) Application request limit reached', http_code: '429' }]);
        expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 0, sentCount: 1, deliveredCount: 0, failedCount: 1, missedCount: 0 });
        const retry = (await t.jobs()).filter((j) => j.task === 'comment.privateReply' && workspaceOf(j.payload) === w.ws.id);
        // The inline try was the first of five: four left, after the first backoff (e seconds).
        expect(retry).toHaveLength(1);
        expect(retry[0]!.maxAttempts).toBe(4);
        expect(new Date(retry[0]!.runAt).getTime()).toBeGreaterThan(Date.now() + 1_000);

        await t.webhook('photo', photoWebhook(w.photo.account, { id: 'inl-2', from: 'inl-b' }));
        await run(failingInside(new Error('disk I/O error')));
        // Nothing of that try stays (no log, no count, no outbox entry); its job makes the try again.
        expect(await t.db.selectFrom('error_logs').select('id').where('workspace_id', '=', w.ws.id).execute()).toHaveLength(1);
        expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 0, sentCount: 1, deliveredCount: 0, failedCount: 1, missedCount: 0 });
        expect(await outboxLines(t, w.ws)).toEqual([]);
        expect(await eventLines(t, w.ws, 'photo', id)).toEqual(['inl-1 pending', 'inl-2 pending']);
      } finally {
        await t.startWorkers();
      }
      await t.dueNow();
      await t.settle();
      expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply inl-1 Thanks!', 'privateReply inl-2 Thanks!']);
      expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 2, sentCount: 3, deliveredCount: 2, failedCount: 1, missedCount: 0 });
      expect(await eventLines(t, w.ws, 'photo', id)).toEqual(['inl-1 acted', 'inl-2 acted']);
    });

    it('a hide refused for good inside the chunk leaves the comment shown: another automation\'s public reply goes', async () => {
      const w = await commentWorld(t);
      // The newest automation acts first: the hide is tried before the reply is judged.
      const replier = await createAutomation(t, w.ws, 'photo', { publicReply: { type: 'text', value: 'Thanks' }, privateReply: { type: 'none', value: null } });
      const hider = await createAutomation(t, w.ws, 'photo', { hideComments: { all: true }, privateReply: { type: 'none', value: null } });
      const refused = new ChannelError({ reason: 'invalid', httpCode: 400, providerMessage: '(#100) Cannot hide this comment' });
      const hideRefused: ChannelAdapter = { ...sandboxAdapter(t.db), joinTransaction: (trx) => ({ ...sandboxAdapter(trx), hideComment: () => Promise.reject(refused) }) };
      await t.stopWorkers();
      try {
        await t.webhook('photo', photoWebhook(w.photo.account, { id: 'hr-1', from: 'hr-a' }));
        const job = (await t.jobs()).find((j) => j.task === 'event.process' && workspaceOf(j.payload) === w.ws.id)!;
        await engineTasks({ ...engineDepsOf(t.app.deps), adapter: hideRefused })['event.process']!(job.payload, manualJobHelpers());
        if (testEngine === 'sqlite') await t.db.deleteFrom('jobs').where('id', '=', Number(job.id)).execute();
        else await sql`delete from ${sql.id(t.workerSchema, '_private_jobs')} where id = ${job.id}`.execute(t.db);
      } finally {
        await t.startWorkers();
      }
      // The hide failed before the reply was judged in the same transaction: the comment is not hidden.
      expect(await outboxLines(t, w.ws)).toEqual(['publicReply hr-1 Thanks']);
      expect(await eventLines(t, w.ws, 'photo', hider)).toEqual(['hr-1 failed (#100) Cannot hide this comment']);
      expect(await eventLines(t, w.ws, 'photo', replier)).toEqual(['hr-1 acted']);
    });

    it('an event that fails is undone alone: the other events of its job commit, and the job is retried for it', async () => {
      const w = await commentWorld(t);
      await fixtures(t.db, w.ws.id).channelPost('photo', w.photo.inboxId, { id: 'm-known', kind: 'published' });
      const id = await createAutomation(t, w.ws, 'photo', { post: { type: 'published', value: [] } });
      // The adapter is asked for the kind of an unknown post; this one fails as no ChannelError would.
      const broken: ChannelAdapter = { ...sandboxAdapter(t.db), joinTransaction: (trx) => ({ ...sandboxAdapter(trx), fetchPosts: () => Promise.reject(new Error('adapter crashed')) }) };
      await t.stopWorkers();
      try {
        await t.webhook('photo', photoWebhook(w.photo.account, { id: 'ev-1', from: 'ev-a', media: 'm-known' }, { id: 'ev-2', from: 'ev-b', media: 'm-unknown' }, { id: 'ev-3', from: 'ev-c', media: 'm-known' }));
        const job = (await t.jobs()).find((j) => j.task === 'event.process' && workspaceOf(j.payload) === w.ws.id)!;
        await expect(engineTasks({ ...engineDepsOf(t.app.deps), adapter: broken })['event.process']!(job.payload, manualJobHelpers())).rejects.toThrow('adapter crashed');
        expect((await outboxLines(t, w.ws)).sort()).toEqual(['privateReply ev-1 Thanks!', 'privateReply ev-3 Thanks!']);
        const open = await t.db.selectFrom('channel_events').select('external_id').where('workspace_id', '=', w.ws.id).where('processed_at', 'is', null).execute();
        expect(open.map((e) => e.external_id)).toEqual(['ev-2']);
        // Nothing of ev-2 was kept: no contact for its author, and no event of the try undone.
        expect(await t.db.selectFrom('contact_inboxes').select('id').where('workspace_id', '=', w.ws.id).where('source_id', '=', 'ev-b').execute()).toEqual([]);
        const contactOf = async (source: string) => (await t.db.selectFrom('contact_inboxes').select('contact_id').where('workspace_id', '=', w.ws.id).where('source_id', '=', source).executeTakeFirstOrThrow()).contact_id;
        const [a, c] = [await contactOf('ev-a'), await contactOf('ev-c')];
        const recorded = await t.db.selectFrom('workspace_events').select(['type', 'contact_id']).where('workspace_id', '=', w.ws.id).orderBy('id').execute();
        expect(recorded.map((e) => [e.type, e.contact_id])).toEqual([
          ['newContact', a],
          ['messageSent', a],
          ['newContact', c],
          ['messageSent', c],
        ]);
      } finally {
        await t.startWorkers();
      }
      // The queue's retry (the job is still there, as the runner leaves a failed try) finds ev-2 alone left.
      await t.dueNow();
      await t.settle();
      expect(await t.db.selectFrom('channel_events').select('id').where('workspace_id', '=', w.ws.id).where('processed_at', 'is', null).execute()).toEqual([]);
      expect(await eventLines(t, w.ws, 'photo', id)).toEqual(['ev-1 acted', 'ev-3 acted']);
    });
  });

  describe('on the Graph API adapter against a network that refuses', () => {
    let t: EngineTestApp;
    let server: Server;
    /** Scripted answers per request path prefix, consumed in order; 200 with an id when none is left. */
    const script = new Map<string, { status: number; json: unknown }[]>();
    const seen: string[] = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const path = (req.url ?? '').split('?')[0]!;
          seen.push(`${req.method} ${path}`);
          const key = [...script.keys()].find((k) => path.endsWith(k));
          const next = key ? script.get(key)!.shift() : undefined;
          const answer = next ?? { status: 200, json: { id: `net-${seen.length}`, message_id: `mid-${seen.length}`, success: true } };
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer.json));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
      t = await createEngineTestApp({ CHANNEL_ADAPTER: 'http', GRAPH_API_BASE_URL: url, GRAPH_API_ACCESS_TOKEN: 'EAAtest-token' });
    });
    afterAll(async () => {
      await t?.close();
      server?.closeAllConnections();
      await new Promise<void>((resolve) => server?.close(() => resolve()));
    });

    const errorLogs = async (workspaceId: number) =>
      (await t.db.selectFrom('error_logs').select(['action', 'detail', 'http_code', 'contact_id']).where('workspace_id', '=', workspaceId).orderBy('id').execute());

    it("a post whose kind the network will not tell: the comment passes a published-only automation, and an error log says why", async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { post: { type: 'published', value: [] } });
      script.set(`/${w.photo.account}/media`, [{ status: 403, json: { error: { message: '(#200) Permissions error', type: 'OAuthException', code: 200 } } }]);
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'kind-1', from: 'kind-a', media: 'm-mystery' }));
      expect(await errorLogs(w.ws.id)).toEqual([{ action: 'photo', detail: 'Could not learn the kind of post m-mystery: (#200) Permissions error', http_code: '403', contact_id: null }]);
      expect(await events(t, w.ws, 'photo', id)).toEqual([]);
    });

    it('a refused private reply: an error log, failedCount, the event failed with the network message; the worker goes on', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo', { publicReply: { type: 'text', value: 'public' } });
      const message = '(#10) This message is sent outside of allowed window.';
      script.set(`/${w.photo.account}/messages`, [{ status: 400, json: { error: { message, type: 'OAuthException', code: 10, error_subcode: 2018278 } } }]);
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'fail-1', from: 'unlucky' }));
      const [event] = await events(t, w.ws, 'photo', id);
      expect(await errorLogs(w.ws.id)).toEqual([{ action: 'photo', detail: message, http_code: '400', contact_id: Number(event.contactId) }]);
      expect(event.actions.map((a: any) => [a.action, a.status, a.error])).toEqual([
        ['privateReply', 'failed', message],
        ['publicReply', 'done', undefined],
      ]);
      expect(event.outcome).toBe('acted');
      expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 1, sentCount: 2, deliveredCount: 1, failedCount: 1, missedCount: 0 });
      const failed = await t.db.selectFrom('messages').select(['status', 'error']).where('workspace_id', '=', w.ws.id).execute();
      expect(failed).toEqual([{ status: 'failed', error: message }]);

      // The worker goes on: the next comment is answered.
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'fail-2', from: 'lucky' }));
      expect((await counters(t, w.ws, 'photo', id)).deliveredCount).toBe(3);
    });

    it('every reply refused: the event failed with the reason', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'net');
      script.set(`/${w.net.account}/messages`, [{ status: 400, json: { error: { message: 'Error validating access token: Session has expired', code: 190 } } }]);
      await deliver(t, 'net', netWebhook(w.net.account, { id: 'exp-1' }));
      expect(await eventLines(t, w.ws, 'net', id)).toEqual(['exp-1 failed Error validating access token: Session has expired']);
      expect(await errorLogs(w.ws.id)).toMatchObject([{ action: 'net', http_code: '400' }]);
      expect(await counters(t, w.ws, 'net', id)).toEqual({ repliesCount: 0, sentCount: 1, deliveredCount: 0, failedCount: 1, missedCount: 0 });
    });

    it('a rate limit is retried with backoff: one error log and failure per refused try, then delivered once', async () => {
      const w = await commentWorld(t);
      const id = await createAutomation(t, w.ws, 'photo');
      script.set(`/${w.photo.account}/messages`, [{ status: 400, json: { error: { message: '(#4) Application request limit reached', code: 4 } } }]);
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'rl-1' }));
      // Waiting for its retry, still scheduled.
      let [event] = await events(t, w.ws, 'photo', id);
      expect(event.actions.map((a: any) => a.status)).toEqual(['scheduled']);
      const retry = (await t.jobs()).filter((j) => j.task === 'comment.privateReply' && (j.payload as any).workspaceId === w.ws.id);
      expect(retry.map((j) => j.attempts)).toEqual([1]);
      expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 0, sentCount: 1, deliveredCount: 0, failedCount: 1, missedCount: 0 });
      await t.dueNow();
      await t.settle();
      [event] = await events(t, w.ws, 'photo', id);
      expect(event.outcome).toBe('acted');
      expect(await counters(t, w.ws, 'photo', id)).toEqual({ repliesCount: 1, sentCount: 2, deliveredCount: 1, failedCount: 1, missedCount: 0 });
      expect(await errorLogs(w.ws.id)).toMatchObject([{ action: 'photo', detail: '(#4) Application request limit reached', http_code: '400' }]);
      expect(seen.filter((s) => s === `POST /v21.0/${w.photo.account}/messages`)).toHaveLength(2);
    });
  });
});
