import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { hubSignature } from '../src/domain/events/webhook-signature.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { keywordReplyAutomation } from './support/comment-automations.js';
import { startServer, startWorker, type RunningServer, type RunningWorker } from './support/processes.js';
import { waitFor, workerSchemaForTest } from './support/queue.js';

const SECRET = 'workers-test-secret-0123456789';
const ACCOUNT = 'workers-photo-account';
const KEYWORDS = ['price', 'size', 'colour', 'shipping', 'stock'];
const BODIES = 40;
const COMMENTS_PER_BODY = 10;

/**
 * Two `npm run worker` processes (src/worker.ts) on one PostgreSQL database, fed by a server that
 * only acknowledges webhooks (RUN_WORKERS=false): they share the work (each completes jobs) and no
 * event is processed twice (one comment_events row per automation and comment, one outbox row per
 * matched comment, no job completed by both). On SQLite the server process runs the queue and
 * `npm run worker` refuses to start (test/queue.processes.test.ts), so there is nothing to share.
 *
 * Which worker ran a job: each worker logs graphile-worker's "Completed task <id> (<task>, ...)"
 * line at debug (src/queue/postgres-logger.ts), read from its stdout once it has stopped.
 */
describe(`two npm run worker processes on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let database: Database;
  let workspaceId: number;
  const automationOf = new Map<string, number>();
  const workerSchema = workerSchemaForTest();
  let server: RunningServer | null = null;
  const workers: RunningWorker[] = [];

  const startPair = () =>
    [0, 1].map(() => {
      const worker = startWorker({ DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema, LOG_LEVEL: 'debug', NODE_ENV: 'test' });
      workers.push(worker);
      return worker;
    });

  beforeAll(async () => {
    if (testEngine !== 'postgres') return;
    target = await freshDatabaseUrl();
    database = createDatabase(target.url);
    await migrateToLatest(database.db);
    workspaceId = (await createWorkspace(database.db, { name: 'Workers' })).workspace.id;
    const at = new Date().toISOString();
    await database.db.insertInto('inboxes').values({ workspace_id: workspaceId, name: 'Photo', channel: 'photo', source_id: ACCOUNT, status: 'active', created_at: at, updated_at: at }).execute();
    for (const keyword of KEYWORDS) {
      const created = await keywordReplyAutomation(database.db, workspaceId, keyword, { options: { replyToUsersWhoCommentedOnOtherPosts: true } });
      automationOf.set(keyword, Number(created.id));
    }
  });
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await database?.destroy();
    await target?.drop();
  });

  it('share the events of an ingest-only server, each processed exactly once', async (ctx) => {
    if (testEngine !== 'postgres') ctx.skip('PostgreSQL only: on SQLite the server process runs the queue and npm run worker refuses to start');

    const pair = startPair();
    server = await startServer({ DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema, SEED_DEMO: 'false', WEBHOOK_APP_SECRET: SECRET, RUN_WORKERS: 'false', LOG_LEVEL: 'warn' }, { timeoutMs: 60_000 });
    // Both take jobs before the first webhook: neither gets a head start on the backlog.
    await Promise.all(pair.map((w) => w.ready));

    // Every eighth comment names no keyword: stored and processed, answered by nobody.
    const comments: { id: string; keyword: string | null }[] = [];
    const bodies = Array.from({ length: BODIES }, (_, b) => {
      const changes = Array.from({ length: COMMENTS_PER_BODY }, (_, c) => {
        const n = b * COMMENTS_PER_BODY + c;
        const id = `wc-${String(n).padStart(4, '0')}`;
        const keyword = n % 8 === 7 ? null : KEYWORDS[n % KEYWORDS.length]!;
        comments.push({ id, keyword });
        return { field: 'comments', value: { id, text: keyword ? `what about the ${keyword}?` : 'lovely picture', from: { id: `wu-${n % 50}`, username: `user${n % 50}` }, media: { id: `wm-${b % 4}` } } };
      });
      return JSON.stringify({ object: 'instagram', entry: [{ id: ACCOUNT, time: Math.floor(Date.now() / 1000), changes }] });
    });
    // Four webhooks in flight at a time, as a network delivers them.
    let next = 0;
    const post = async () => {
      for (let i = next++; i < bodies.length; i = next++) {
        const res = await fetch(`${server!.base}/webhooks/photo`, { method: 'POST', body: bodies[i], headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(SECRET, bodies[i]!) } });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ stored: COMMENTS_PER_BODY });
      }
    };
    await Promise.all([post(), post(), post(), post()]);
    const matched = comments.filter((c) => c.keyword !== null);

    const db = database.db;
    const count = async (query: Promise<{ n: unknown } | undefined>) => Number((await query)?.n ?? 0);
    await waitFor(
      'every event processed and every reply recorded',
      async () => {
        const open = await count(db.selectFrom('channel_events').select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', workspaceId).where('processed_at', 'is', null).executeTakeFirst());
        const replies = await count(db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirst());
        return open === 0 && replies >= matched.length;
      },
      120_000,
    );
    // And nothing left to run that could still write: graphile deletes a job once it completes.
    await waitFor('the queue to be empty', async () => {
      const left = await sql<{ n: string }>`select count(*) as n from ${sql.id(workerSchema, '_private_jobs')}`.execute(db);
      return Number(left.rows[0]!.n) === 0;
    }, 60_000);

    const events = await db.selectFrom('channel_events').select(['external_id', 'processed_at', 'outcome']).where('workspace_id', '=', workspaceId).orderBy('external_id').execute();
    expect(events.map((e) => e.external_id)).toEqual(comments.map((c) => c.id));
    expect(events.filter((e) => e.processed_at === null || e.outcome === null)).toEqual([]);

    // One row per (automation, comment), and only for the automation whose keyword it names.
    const seen = await db.selectFrom('comment_events').select(['automation_id', 'comment_id', 'outcome']).where('workspace_id', '=', workspaceId).orderBy('comment_id').orderBy('automation_id').execute();
    expect(seen.map((r) => `${r.automation_id}:${r.comment_id}:${r.outcome}`)).toEqual(matched.map((c) => `${automationOf.get(c.keyword!)}:${c.id}:acted`));

    // One private reply per matched comment, none for the others, no idempotency key twice.
    const outbox = await db.selectFrom('outbox').select(['comment_id', 'action', 'automation_id', 'dedupe_key']).where('workspace_id', '=', workspaceId).orderBy('comment_id').execute();
    expect(outbox.map((r) => `${r.action}:${r.automation_id}:${r.comment_id}`)).toEqual(matched.map((c) => `privateReply:${automationOf.get(c.keyword!)}:${c.id}`));
    const keys = outbox.map((r) => r.dedupe_key);
    expect(keys.filter((k) => k === null)).toEqual([]);
    expect(new Set(keys).size).toBe(keys.length);

    // Stopped: their buffered log lines are written as they exit.
    for (const w of pair) w.child.kill('SIGTERM');
    const finished = await Promise.all(pair.map((w) => w.exited));
    const completed = finished.map((f) => {
      expect(f.code).toBe(0);
      const ids: string[] = [];
      const byTask: Record<string, number> = {};
      for (const line of f.stdout.split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { component?: string; msg?: string };
        const m = entry.component === 'graphile-worker' ? /^Completed task (\d+) \(([^,]+),/.exec(entry.msg ?? '') : null;
        if (!m) continue;
        ids.push(m[1]!);
        byTask[m[2]!] = (byTask[m[2]!] ?? 0) + 1;
      }
      return { ids, byTask };
    });
    console.log(`jobs completed by each worker: ${JSON.stringify(completed.map((c) => c.byTask))}`);
    // Both processed events (each of the ~40 event jobs goes to whichever worker locks it first),
    // and no job was completed by both, nor twice by one.
    for (const c of completed) expect(c.byTask['event.process'] ?? 0).toBeGreaterThan(0);
    const all = completed.flatMap((c) => c.ids);
    expect(new Set(all).size).toBe(all.length);

    await server.stop();
  }, 240_000);
});
