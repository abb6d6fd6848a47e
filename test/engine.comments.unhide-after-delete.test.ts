import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineDepsOf } from '../src/engine/context.js';
import { engineTasks } from '../src/engine/tasks.js';
import { DeleteCommentAutomationDocument } from './graphql/generated/graphql.js';
import { commentWorld, createAutomation, deliver, events, netWebhook, outbox, outboxLines, path, photoWebhook, type CommentWorld } from './support/comment-engine.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { FakeGraphApi } from './support/fake-graph-api.js';
import { gql } from './support/graphql.js';
import { manualJobHelpers } from './support/queue.js';

const DAY = 24 * 3_600_000;
const hideForADay = { hideComments: { all: true, showCommentsAfter: '1d' }, privateReply: { type: 'none', value: null } };

/** The workspace's unhide jobs, waiting or running. */
const unhideJobs = async (t: EngineTestApp, w: CommentWorld) => (await t.jobs()).filter((j) => j.task === 'comment.unhide' && !j.failed && (j.payload as any).workspaceId === w.ws.id);

/** Every job of the workspace the queue holds (failed ones too). */
const jobsOf = async (t: EngineTestApp, w: CommentWorld) => (await t.jobs()).filter((j) => (j.payload as any)?.workspaceId === w.ws.id);

const errorLogs = async (t: EngineTestApp, w: CommentWorld) => {
  const res = await t.request('GET', '/v1/error-logs?perPage=50', { token: w.ws.developerToken });
  expect(res.status).toBe(200);
  return res.body.data;
};

const deleteAutomation = async (t: EngineTestApp, w: CommentWorld, channel: 'photo' | 'net', id: string) => {
  const res = await t.request('DELETE', `${path(channel)}/${id}`, { token: w.ws.developerToken });
  expect([res.status, res.body]).toEqual([200, { success: true }]);
};

/** An automation that hides every comment for a day (1d), a comment it hid, and its unhide waiting a day. */
async function hiddenForADay(t: EngineTestApp, channel: 'photo' | 'net', commentId: string) {
  const w = await commentWorld(t);
  const id = await createAutomation(t, w.ws, channel, hideForADay);
  await deliver(t, channel, channel === 'photo' ? photoWebhook(w.photo.account, { id: commentId }) : netWebhook(w.net.account, { id: commentId }));
  const [event] = await events(t, w.ws, channel, id);
  expect(event.actions.map((a: any) => `${a.action} ${a.status}`)).toEqual(['hide done', 'unhide scheduled']);
  const jobs = await unhideJobs(t, w);
  expect(jobs).toHaveLength(1);
  expect(new Date(jobs[0]!.runAt).getTime()).toBeGreaterThan(Date.now() + DAY - 60_000);
  return { w, id, event, job: jobs[0]! };
}

/**
 * A comment an automation hid for a while is shown again when its time comes, whatever happened to
 * the automation meanwhile: deleting it (REST on either channel, or GraphQL) or switching it off
 * stops it acting on new comments, not the unhide it already scheduled. That unhide still acts once
 * (a job run again sends nothing new), still yields to another automation that keeps the comment
 * hidden for good, and does nothing when the inbox it would go through is gone. Unhide jobs queued
 * before the job named more than its row still run as they did.
 */
describe(`a pending unhide outlives its automation on ${testEngine}`, () => {
  describe('on the sandbox adapter', () => {
    let t: EngineTestApp;
    beforeAll(async () => {
      t = await createEngineTestApp();
    });
    afterAll(() => t?.close());

    it('deleted through REST while the unhide waits: the comment is shown again when due, once, naming the deleted automation', async () => {
      const { w, id, event, job } = await hiddenForADay(t, 'photo', 'del-1');
      expect(await outboxLines(t, w.ws)).toEqual(['hide del-1']);
      await deleteAutomation(t, w, 'photo', id);
      expect((await t.request('GET', `${path('photo')}/${id}`, { token: w.ws.developerToken })).status).toBe(404);

      await t.dueNow();
      await t.settle();
      expect(await outboxLines(t, w.ws)).toEqual(['hide del-1', 'unhide del-1']);
      const [, unhide] = await outbox(t, w.ws);
      expect(unhide).toMatchObject({ action: 'unhide', channel: 'photo', inboxId: String(w.photo.inboxId), commentId: 'del-1', postId: 'media-1', contactId: event.contactId, automationKind: 'comment', automationId: id, payload: null });
      // The outbox still names the deleted automation: its history is listed by its id.
      expect(await outboxLines(t, w.ws, `automationId=${id}`)).toEqual(['hide del-1', 'unhide del-1']);
      expect(await errorLogs(t, w)).toEqual([]);
      expect(await jobsOf(t, w)).toEqual([]);

      // The job run again (as after a worker died before the queue recorded it done) sends nothing new.
      await engineTasks(engineDepsOf(t.app.deps))['comment.unhide']!(job.payload, manualJobHelpers());
      expect(await outboxLines(t, w.ws)).toEqual(['hide del-1', 'unhide del-1']);
    });

    it('deleted through GraphQL (net channel) while the unhide waits: the comment is shown again when due', async () => {
      const { w, id } = await hiddenForADay(t, 'net', 'del-gql');
      const res = await gql(t, DeleteCommentAutomationDocument, { id, channel: 'net' }, { token: w.ws.developerToken });
      expect(res.body).toEqual({ data: { deleteCommentAutomation: { success: true } } });
      await t.dueNow();
      await t.settle();
      expect(await outboxLines(t, w.ws)).toEqual(['hide del-gql', 'unhide del-gql']);
      expect(await errorLogs(t, w)).toEqual([]);
    });

    it('switched off while the unhide waits: the comment is shown again when due, and its event records it', async () => {
      const { w, id } = await hiddenForADay(t, 'photo', 'off-1');
      const res = await t.request('PATCH', `${path('photo')}/${id}`, { token: w.ws.developerToken, body: { isActive: false } });
      expect([res.status, res.body.isActive]).toEqual([200, false]);
      await t.dueNow();
      await t.settle();
      expect(await outboxLines(t, w.ws)).toEqual(['hide off-1', 'unhide off-1']);
      const [event] = await events(t, w.ws, 'photo', id);
      expect([event.outcome, ...event.actions.map((a: any) => `${a.action} ${a.status}`)]).toEqual(['acted', 'hide done', 'unhide done']);
    });

    it.each([
      ['its automation kept', false],
      ['its automation deleted too', true],
    ])('the inbox deleted (%s): nothing to unhide through, so nothing is sent and nothing fails', async (_name, alsoTheAutomation) => {
      const commentId = `gone-${alsoTheAutomation}`;
      const { w, id } = await hiddenForADay(t, 'photo', commentId);
      if (alsoTheAutomation) await deleteAutomation(t, w, 'photo', id);
      // No API deletes an inbox (yet): the row goes, and its events with it.
      await t.db.deleteFrom('inboxes').where('id', '=', w.photo.inboxId).execute();
      await t.dueNow();
      await t.settle();
      expect(await outboxLines(t, w.ws)).toEqual([`hide ${commentId}`]);
      expect(await errorLogs(t, w)).toEqual([]);
      expect(await jobsOf(t, w)).toEqual([]);
    });

    it("another automation that keeps the comment hidden for good still wins over a deleted automation's unhide", async () => {
      const w = await commentWorld(t);
      const forADay = await createAutomation(t, w.ws, 'photo', hideForADay);
      await createAutomation(t, w.ws, 'photo', { hideComments: { hasLink: true, showCommentsAfter: 'none' }, privateReply: { type: 'none', value: null } });
      await deliver(t, 'photo', photoWebhook(w.photo.account, { id: 'kept-link', text: 'cheap followers at spam.example.com' }, { id: 'kept-plain', text: 'nice photo' }));
      expect(await unhideJobs(t, w)).toHaveLength(2);
      await deleteAutomation(t, w, 'photo', forADay);
      await t.dueNow();
      await t.settle();
      // The plain comment is shown again; the one with a link stays hidden.
      expect((await outboxLines(t, w.ws)).filter((l) => l.startsWith('unhide'))).toEqual(['unhide kept-plain']);
      expect(await errorLogs(t, w)).toEqual([]);
      expect(await jobsOf(t, w)).toEqual([]);
    });

    describe('an unhide job queued before the job named more than its row ({workspaceId, commentEventId})', () => {
      /** Makes the queued job's payload the old one, in the queue's own table. */
      async function makeOld(job: { id: string; payload: unknown }) {
        const { workspaceId, commentEventId } = job.payload as { workspaceId: number; commentEventId: number };
        const payload = JSON.stringify({ workspaceId, commentEventId });
        if (t.database.engine === 'sqlite') await t.db.updateTable('jobs').set({ payload }).where('id', '=', Number(job.id)).execute();
        else await sql`update ${sql.id(t.workerSchema, '_private_jobs')} set payload = ${payload}::json where id = ${job.id}`.execute(t.db);
        expect((await t.jobs()).find((j) => j.id === job.id)!.payload).toEqual({ workspaceId, commentEventId });
      }

      it('its row there: shows the comment again and records it, as before', async () => {
        const { w, id, job } = await hiddenForADay(t, 'photo', 'old-1');
        await makeOld(job);
        await t.dueNow();
        await t.settle();
        expect(await outboxLines(t, w.ws)).toEqual(['hide old-1', 'unhide old-1']);
        const [event] = await events(t, w.ws, 'photo', id);
        expect(event.actions.map((a: any) => `${a.action} ${a.status}`)).toEqual(['hide done', 'unhide done']);
      });

      it('its automation deleted: nothing names the comment any more, so nothing is sent (as before), and nothing fails', async () => {
        const { w, id, job } = await hiddenForADay(t, 'photo', 'old-2');
        await makeOld(job);
        await deleteAutomation(t, w, 'photo', id);
        await t.dueNow();
        await t.settle();
        expect(await outboxLines(t, w.ws)).toEqual(['hide old-2']);
        expect(await errorLogs(t, w)).toEqual([]);
        expect(await jobsOf(t, w)).toEqual([]);
      });
    });
  });

  describe('on the Graph API adapter', () => {
    let t: EngineTestApp;
    let network: FakeGraphApi;
    beforeAll(async () => {
      network = await new FakeGraphApi().start();
      t = await createEngineTestApp({ CHANNEL_ADAPTER: 'http', GRAPH_API_BASE_URL: network.url, GRAPH_API_ACCESS_TOKEN: 'EAAtest-token' });
    });
    afterAll(async () => {
      await t?.close();
      await network?.stop();
    });

    const calls = () => network.seen.map((r) => `${r.method} ${r.url.split('?')[0]} ${JSON.stringify(r.body)}`);

    it("the deleted automation's unhide reaches the network when due", async () => {
      network.reset();
      const { w, id } = await hiddenForADay(t, 'photo', 'http-del');
      await deleteAutomation(t, w, 'photo', id);
      await t.dueNow();
      await t.settle();
      expect(calls()).toEqual(['POST /v21.0/http-del {"hide":true}', 'POST /v21.0/http-del {"hide":false}']);
      expect(await errorLogs(t, w)).toEqual([]);
      expect(await jobsOf(t, w)).toEqual([]);
    });

    it('a refused unhide for a contact deleted meanwhile: the error log is written without the contact, and the job ends', async () => {
      network.reset();
      const { w, event } = await hiddenForADay(t, 'net', 'http-no-contact');
      expect((await t.request('DELETE', `/v1/contacts/${event.contactId}`, { token: w.ws.developerToken })).status).toBe(200);
      network.answer(FakeGraphApi.error(400, '(#100) Unsupported post request', 100));
      await t.dueNow();
      await t.settle();
      expect(await errorLogs(t, w)).toEqual([expect.objectContaining({ contactId: '', action: 'net', detail: '(#100) Unsupported post request', httpCode: '400' })]);
      expect(await jobsOf(t, w)).toEqual([]);
    });

    it("a refused unhide of a deleted automation: an error log of the channel naming the contact, and the job ends", async () => {
      network.reset();
      const { w, id, event } = await hiddenForADay(t, 'net', 'http-refused');
      await deleteAutomation(t, w, 'net', id);
      network.answer(FakeGraphApi.error(400, '(#100) Unsupported post request', 100));
      await t.dueNow();
      await t.settle();
      expect(calls()).toEqual(['POST /v21.0/http-refused {"is_hidden":true}', 'POST /v21.0/http-refused {"is_hidden":false}']);
      expect(await errorLogs(t, w)).toEqual([expect.objectContaining({ contactId: event.contactId, action: 'net', detail: '(#100) Unsupported post request', httpCode: '400' })]);
      expect(await jobsOf(t, w)).toEqual([]);
    });
  });
});
