import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { hubSignature } from '../src/domain/events/webhook-signature.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { keywordReplyAutomation } from './support/comment-automations.js';
import { startServer, type RunningServer } from './support/processes.js';
import { waitFor, workerSchemaForTest } from './support/queue.js';

const SECRET = 'crash-test-secret-123';
const ACCOUNT = 'crash-photo-account';

/**
 * kill -9 of a real server process: after it acknowledged webhooks, and while a delayed reply
 * waits. Nothing acknowledged is lost and nothing is sent twice: after a restart every comment is
 * answered exactly once, and a redelivery of the same webhooks changes nothing.
 *
 * The acknowledging server runs without workers (RUN_WORKERS=false), so the kill lands at a known
 * point, after the commit and before any processing: the events and their jobs must be all there
 * is. (On PostgreSQL a job locked by a killed process stays locked for graphile-worker's 4-hour
 * timeout; docs/engine.md says so. A waiting delayed job is not locked, as this test shows.)
 */
describe(`kill -9 on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let database: Database;
  let workspaceId: number;
  const workerSchema = workerSchemaForTest();
  const servers: RunningServer[] = [];

  const start = async (env: Record<string, string> = {}) => {
    const server = await startServer({ DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema, SEED_DEMO: 'false', WEBHOOK_APP_SECRET: SECRET, WORKER_POLL_INTERVAL_MS: '100', ...env }, { timeoutMs: 60_000 });
    servers.push(server);
    return server;
  };
  const kill9 = async (server: RunningServer) => {
    server.child.kill('SIGKILL');
    const finished = await server.exited;
    expect(finished.signal).toBe('SIGKILL');
  };
  const webhook = async (server: RunningServer, commentId: string, text: string) => {
    const body = JSON.stringify({ object: 'instagram', entry: [{ id: ACCOUNT, changes: [{ field: 'comments', value: { id: commentId, text, from: { id: `u-${commentId}`, username: 'ada' }, media: { id: 'm-1' } } }] }] });
    const res = await fetch(`${server.base}/webhooks/photo`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(SECRET, body) } });
    expect(res.status).toBe(200);
    return (await res.json()) as { stored: number; duplicates: number };
  };
  const repliesTo = async (prefix: string) =>
    (await database.db.selectFrom('outbox').select(['comment_id', 'action']).where('workspace_id', '=', workspaceId).where('comment_id', 'like', `${prefix}%`).orderBy('comment_id').execute()).map(
      (r) => `${r.action}:${r.comment_id}`,
    );

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    database = createDatabase(target.url);
    await migrateToLatest(database.db);
    workspaceId = (await createWorkspace(database.db, { name: 'Crash' })).workspace.id;
    const at = new Date().toISOString();
    await database.db.insertInto('inboxes').values({ workspace_id: workspaceId, name: 'Photo', channel: 'photo', source_id: ACCOUNT, status: 'active', created_at: at, updated_at: at }).execute();
    const automation = (keyword: string, replyAfter: { type: 'immediately' | 'seconds'; value: number }) => keywordReplyAutomation(database.db, workspaceId, keyword, { replyAfter });
    await automation('price', { type: 'immediately', value: 0 });
    await automation('later', { type: 'seconds', value: 8 });
  });
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await database?.destroy();
    await target?.drop();
  });

  it('after acknowledging webhooks: every event is processed once after the restart, and a redelivery changes nothing', async () => {
    const ingest = await start({ RUN_WORKERS: 'false' });
    const ids = Array.from({ length: 12 }, (_, i) => `ack-${String(i).padStart(2, '0')}`);
    for (const id of ids) expect(await webhook(ingest, id, 'what is the price?')).toMatchObject({ stored: 1 });
    await kill9(ingest);

    const worker = await start();
    const expected = ids.map((id) => `privateReply:${id}`);
    await waitFor('every acknowledged comment answered', async () => (await repliesTo('ack-')).length >= ids.length, 60_000);
    for (const id of ids) expect(await webhook(worker, id, 'what is the price?')).toMatchObject({ stored: 0, duplicates: 1 });
    await waitFor('every event processed', async () => {
      const open = await database.db.selectFrom('channel_events').select('id').where('workspace_id', '=', workspaceId).where('processed_at', 'is', null).execute();
      return open.length === 0;
    });
    expect(await repliesTo('ack-')).toEqual(expected);
    await worker.stop();
  }, 180_000);

  it('in the middle of a delayed reply: the reply is sent once, after the restart, at its time', async () => {
    const first = await start();
    expect(await webhook(first, 'delay-1', 'tell me later')).toMatchObject({ stored: 1 });
    // Processed (the reply is planned and its job waits 8 s), not yet sent.
    await waitFor('the comment matched and its reply scheduled', async () =>
      (await database.db.selectFrom('comment_events').select('id').where('workspace_id', '=', workspaceId).where('comment_id', '=', 'delay-1').execute()).length === 1,
    );
    expect(await repliesTo('delay-')).toEqual([]);
    await kill9(first);

    const second = await start();
    await waitFor('the delayed reply sent after the restart', async () => (await repliesTo('delay-')).length > 0, 60_000);
    // Long enough for a second copy to show up if one were coming: every job of the queue is done.
    await waitFor('the queue to be empty', async () => {
      const comment = await database.db.selectFrom('comment_events').select('outcome').where('workspace_id', '=', workspaceId).where('comment_id', '=', 'delay-1').executeTakeFirst();
      return comment?.outcome === 'acted';
    });
    expect(await repliesTo('delay-')).toEqual(['privateReply:delay-1']);
    await second.stop();
  }, 180_000);

  // graphile-worker alone keeps the job of a killed process locked for 4 hours; the workers'
  // heartbeats unlock it once they stop (src/queue/postgres-heartbeats.ts). SQLite's claims are
  // leases that run out by themselves (test/queue.concurrency.test.ts).
  it.skipIf(testEngine !== 'postgres')('in the middle of a running reply: the killed worker\'s job is unlocked within seconds and the reply recorded once', async () => {
    // A network that holds the first reply open (the process dies waiting) and answers the next.
    const requests: string[] = [];
    const held: ServerResponse[] = [];
    const network = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      if (requests.length === 1) return void held.push(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ recipient_id: 'u-run-1', message_id: 'm-run-1' }));
    });
    await new Promise<void>((r) => network.listen(0, '127.0.0.1', r));
    const http = {
      CHANNEL_ADAPTER: 'http',
      GRAPH_API_BASE_URL: `http://127.0.0.1:${(network.address() as AddressInfo).port}/v21.0`,
      GRAPH_API_ACCESS_TOKEN: 'test-token',
      GRAPH_API_TIMEOUT_MS: '600000',
      WORKER_HEARTBEAT_MS: '250',
    };
    try {
      const first = await start(http);
      expect(await webhook(first, 'run-1', 'what is the price?')).toMatchObject({ stored: 1 });
      await waitFor('the reply on its way to the network', async () => requests.length === 1);
      // The reply's jobs in the queue: all of them, or those a worker holds locked.
      const replyJobs = async (lockedOnly: boolean) =>
        (await sql<{ n: number }>`select count(*)::int as n from ${sql.id(workerSchema, 'jobs')} where task_identifier = 'comment.privateReply'${lockedOnly ? sql` and locked_at is not null` : sql``}`.execute(database.db)).rows[0]!.n;
      expect(await replyJobs(true)).toBe(1);
      await kill9(first);

      const started = Date.now();
      const second = await start(http);
      // The task records the outcome in its own transaction; graphile-worker completes (deletes) the
      // job only after the task returns, so the job is still locked for a moment after 'acted' shows:
      // wait for both.
      await waitFor('the reply sent by the second process and its job completed', async () => {
        const row = await database.db.selectFrom('comment_events').select('outcome').where('workspace_id', '=', workspaceId).where('comment_id', '=', 'run-1').executeTakeFirst();
        return row?.outcome === 'acted' && (await replyJobs(false)) === 0;
      }, 60_000);
      // Seconds, not graphile's 4 hours: four missed beats of 250 ms and a retry's backoff.
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(requests).toHaveLength(2);
      const counts = await database.db.selectFrom('comment_automations').select(['sent_count', 'delivered_count', 'replies_count']).where('workspace_id', '=', workspaceId).where('name', '=', 'Answers price').executeTakeFirstOrThrow();
      const sentBefore = (await repliesTo('ack-')).length;
      // The sandbox answered the first test's comments; this one went over HTTP and counts once.
      expect(counts).toEqual({ sent_count: sentBefore + 1, delivered_count: sentBefore + 1, replies_count: sentBefore + 1 });
      const heartbeats = await database.db.selectFrom('queue_worker_heartbeats').select('worker_id').where('worker_schema', '=', workerSchema).execute();
      await second.stop();
      // A clean stop removes its workers' heartbeats; the dead process's were reaped.
      expect(heartbeats.length).toBeGreaterThan(0);
      expect(await database.db.selectFrom('queue_worker_heartbeats').select('worker_id').where('worker_schema', '=', workerSchema).execute()).toEqual([]);
    } finally {
      for (const res of held) res.destroy();
      network.closeAllConnections();
      await new Promise<void>((r) => network.close(() => r()));
    }
  }, 180_000);
});
