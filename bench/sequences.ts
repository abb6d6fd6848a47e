// `npm run bench:sequences`: 100,000 subscribers of one sequence whose step is due at the same
// moment, sent by the real server's job runner (compiled, as `npm run serve` runs it, its jobs
// run by the server itself: RUN_WORKERS=true, the sandbox adapter: every send is an outbox row).
// The generator (seeded PRNG, BENCH_SEED) writes, in the bench's process with no server:
// a workspace, a `net` inbox, BENCH_SUBSCRIBERS (100,000) contacts, each with a contact inbox
// whose source_id is the person id and a conversation in the inbox whose contact_replied_at falls
// within the last hour (the 24-hour window open), and a flow of one text message with a
// placeholder. With the server up, the sequence and its one step (delayUnit minutes,
// delayMinutes 1, anytime, the flow) are made through the API; then every contact's subscription
// row is inserted directly, its next step that step and next_run_at a whole second T about
// BENCH_LEAD_SECONDS ahead, and the runs are enqueued by the product's own `enqueueRuns` (batch
// jobs of STEP_ITEMS_PER_JOB items keyed by their second), as subscribing would.
// Measured from T (the due moment) until all the outbox `message` rows exist, counted every 250 ms:
// the first send, half, all; messages/s; the server's CPU (all threads and the main thread) and
// PostgreSQL's; SQL statements per subscriber (the server's db_statements_total from /metrics);
// then every subscriber is checked: one message row, one `message:sent` step event, at the end
// of the sequence. The generator's time is reported apart.
// Options: BENCH_SEQUENCES_DATABASE_URL (a temp SQLite file; a postgres:// URL for PostgreSQL, in
// schemas of its own, `bench_sequences` and `bench_sequences_worker`, dropped and made again on
// every run), BENCH_SUBSCRIBERS, BENCH_SEED (42), BENCH_LEAD_SECONDS (10), BENCH_TSX=1 (src/server.ts
// under tsx), BENCH_CPU_PROF_DIR (the server's V8 CPU profile, for bench/top-functions.ts),
// BENCH_NODE_FLAGS, BENCH_KEEP_DATABASE=1 (keep the temp SQLite file).
// Results: printed; with --save also bench/results/sequences-<engine>.md, otherwise only the ignored .tmp.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { enqueueRuns, SEQUENCE_STEP_TASK, STEP_ITEMS_PER_JOB, type ScheduledRun } from '../src/domain/sequences/sequence-progress.service.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { jobQueue } from '../src/queue/enqueue.js';
import { benchDatabase, benchServerScript, commitOf, cpuMs, jobServerEnv, postgresCpuBetween, postgresCpuMs, repoRoot, round, serveFlags, startServer, stopServer, untilIdle, writeResult } from './lib.js';

const subscriberCount = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const seed = Number(process.env.BENCH_SEED ?? 42);
const leadSeconds = Number(process.env.BENCH_LEAD_SECONDS ?? 10);
const tsx = process.env.BENCH_TSX === '1';
const requestedUrl = process.env.BENCH_SEQUENCES_DATABASE_URL;
const engine = requestedUrl?.startsWith('postgres') ? 'postgres' : 'sqlite';

/** The product's goal: all sent within 60 s of the due moment, on SQLite, on 2 cores. */
const GOAL_SECONDS = 60;
const BENCH_SCHEMA = 'bench_sequences';
const WORKER_SCHEMA = 'bench_sequences_worker';
const POLL_MS = 250;
/** Not all sent by then: a stuck runner, not a slow one. */
const DEADLINE_MS = 15 * 60_000;
/** Rows a multi-row insert writes at a time (10 columns at most: 5,000 parameters, under SQLite's limit). */
const INSERT_ROWS = 500;
const fmt = (n: number) => n.toLocaleString('en-US');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** mulberry32: a small seeded PRNG, so every run makes the same rows. */
function prng(s: number) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(seed);
const firstNames = ['Ava', 'Liam', 'Sofia', 'Noah', 'Mia', 'Lucas', 'Emma', 'Mateo', 'Olivia', 'Ethan', 'Chloe', 'Amir', 'Yuki', 'Lena', 'Omar', 'Priya', 'Diego', 'Hana', 'Jonas', 'Zoe'];
const lastNames = ['Garcia', 'Smith', 'Muller', 'Rossi', 'Tanaka', 'Okafor', 'Dubois', 'Silva', 'Kowalski', 'Nguyen', 'Haddad', 'Larsen', 'Patel', 'Cohen'];
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

async function inChunks<T>(rows: readonly T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_ROWS) await write(rows.slice(i, i + INSERT_ROWS));
}

// ---------------------------------------------------------------------------------------------
// The data, written directly.

const { url, setup } = await benchDatabase('sequences', requestedUrl, BENCH_SCHEMA, WORKER_SCHEMA);
const db = setup.db;

const generatorStarted = performance.now();
const { workspace, tokens } = await createWorkspace(db, { name: 'Sequences bench' });
const workspaceId = workspace.id;
const token = tokens.developer.token;
const startedAt = new Date();
const stamp = startedAt.toISOString();
const inbox = await db
  .insertInto('inboxes')
  .values({ workspace_id: workspaceId, name: 'Bench page', channel: 'net', source_id: `page-bench-${workspaceId}`, status: 'active', created_at: stamp, updated_at: stamp })
  .returning('id')
  .executeTakeFirstOrThrow();

const people = Array.from({ length: subscriberCount }, (_, i) => ({
  first: pick(firstNames),
  last: pick(lastNames),
  // Within the hour before the run: the window is open for the whole run, whatever its length.
  repliedAt: new Date(startedAt.getTime() - Math.floor(random() * 3_600_000)).toISOString(),
  personId: `psid-${seed}-${i}`,
}));
await inChunks(people, (chunk) =>
  db
    .insertInto('contacts')
    .values(chunk.map((p) => ({ workspace_id: workspaceId, first_name: p.first, last_name: p.last, gender: 'unknown' as const, email_verified: 0, email_opt_in: 0, subscribed_at: stamp, created_at: stamp, updated_at: stamp })))
    .execute(),
);
const contactIds = (await db.selectFrom('contacts').select('id').where('workspace_id', '=', workspaceId).orderBy('id').execute()).map((r) => r.id);
if (contactIds.length !== subscriberCount) throw new Error(`${contactIds.length} contacts stored, expected ${subscriberCount}`);
await inChunks(
  contactIds.map((id, i) => ({ id, p: people[i]! })),
  (chunk) =>
    db
      .insertInto('contact_inboxes')
      .values(chunk.map(({ id, p }) => ({ workspace_id: workspaceId, contact_id: id, inbox_id: inbox.id, channel: 'net', source_id: p.personId, created_at: stamp })))
      .execute(),
);
await inChunks(
  contactIds.map((id, i) => ({ id, p: people[i]! })),
  (chunk) =>
    db
      .insertInto('conversations')
      .values(
        chunk.map(({ id, p }) => ({
          workspace_id: workspaceId,
          contact_id: id,
          inbox_id: inbox.id,
          bot_enabled: 1,
          followed: 0,
          additional_attributes: '{}',
          last_activity_at: p.repliedAt,
          contact_replied_at: p.repliedAt,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute(),
);
const flow = await db
  .insertInto('flows')
  .values({ workspace_id: workspaceId, name: 'Bench hello', items: JSON.stringify([{ type: 'text', text: 'Hi {{first_name}}' }]), created_at: stamp, updated_at: stamp })
  .returning('id')
  .executeTakeFirstOrThrow();
if (engine === 'postgres') await sql`analyze`.execute(db);
const generatorSeconds = (performance.now() - generatorStarted) / 1000;
console.error(`generated ${fmt(subscriberCount)} contacts, contact inboxes and conversations in ${round(generatorSeconds, 2)} s`);

// ---------------------------------------------------------------------------------------------
// The server, the sequence and its subscribers.

const { mode, script } = benchServerScript('sequences', tsx);
mkdirSync(join(repoRoot, 'bench/data'), { recursive: true });
const logFile = join(repoRoot, 'bench/data', `server-sequences-${engine}.log`);
const server = await startServer({
  name: 'sequences',
  cwd: repoRoot,
  script,
  tsx,
  nodeFlags: [
    ...serveFlags(repoRoot),
    ...(process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF_DIR] : []),
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
  ],
  pin: false,
  logFile,
  env: jobServerEnv(url, WORKER_SCHEMA),
});

async function api<T>(method: string, path: string, body: unknown, expected: number[]): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** The server's db_statements_total (every statement its handle ran, requests and jobs alike). */
async function serverStatements(): Promise<number | null> {
  const res = await fetch(`${server.url}/metrics`);
  if (res.status !== 200) return null;
  const m = /^db_statements_total\{[^}]*\}\s+(\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(await res.text());
  return m ? Number(m[1]) : null;
}

const sentCount = async () =>
  Number(
    (
      await db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('action', '=', 'message')
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The sequence-steps jobs waiting in the queue (SQLite: the jobs table; PostgreSQL: graphile-worker's jobs view). */
async function queuedJobs(): Promise<number | null> {
  try {
    if (engine === 'sqlite') return Number((await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('task', '=', SEQUENCE_STEP_TASK).executeTakeFirstOrThrow()).n);
    const rows = await sql<{ n: string }>`select count(*) as n from ${sql.id(WORKER_SCHEMA)}.jobs where task_identifier = ${SEQUENCE_STEP_TASK}`.execute(db);
    return Number(rows.rows[0]!.n);
  } catch {
    return null;
  }
}

interface Run {
  seconds: number;
  firstSeconds: number | null;
  halfSeconds: number | null;
  serverMs: number;
  mainMs: number;
  databaseMs: number | null;
  statements: number | null;
  peakRssMb: number;
}

const lines: string[] = [];
let setupSeconds = 0;
let jobs: number | null = null;
let dueAt = '';
let run: Run;
try {
  const sequence = await api<{ id: string }>('POST', '/v1/sequences', { name: 'Bench drip' }, [200, 201]);
  const step = await api<{ stepId: string }>('PUT', `/v1/sequences/${sequence.id}/steps`, { order: 0, delayUnit: 'minutes', delayMinutes: 1, flowId: String(flow.id) }, [200]);
  const sequenceId = Number(sequence.id);
  const stepId = Number(step.stepId);

  // T: a whole second (the batch jobs' runAt is rounded up to one), far enough ahead for the rows and the jobs to be in place.
  const setupStarted = performance.now();
  const T = new Date(Math.ceil((Date.now() + leadSeconds * 1000) / 1000) * 1000);
  dueAt = T.toISOString();
  const subscriptions = contactIds.map((contactId) => ({ workspace_id: workspaceId, contact_id: contactId, sequence_id: sequenceId, created_at: stamp, next_step_id: stepId, next_run_at: dueAt, held: null }));
  await inChunks(subscriptions, (chunk) => db.insertInto('sequence_subscriptions').values(chunk).execute());
  const subscriptionIds = (await db.selectFrom('sequence_subscriptions').select('id').where('sequence_id', '=', sequenceId).orderBy('id').execute()).map((r) => r.id);
  const runs: ScheduledRun[] = subscriptionIds.map((subscriptionId) => ({ subscriptionId, stepId, dueAt: T }));
  await enqueueRuns(db, jobQueue({ workerSchema: WORKER_SCHEMA }), workspaceId, runs);
  jobs = await queuedJobs();
  setupSeconds = (performance.now() - setupStarted) / 1000;
  console.error(`${fmt(subscriptionIds.length)} subscriptions and ${jobs ?? '?'} jobs due at ${dueAt}, written in ${round(setupSeconds, 2)} s`);
  if (Date.now() >= T.getTime()) throw new Error(`the subscriptions took longer than BENCH_LEAD_SECONDS (${leadSeconds}) to write: raise it`);

  // The server idle at T (the profiler keeps a profiled one busy: then only the wait).
  if (!process.env.BENCH_CPU_PROF_DIR) await untilIdle(server.pid, engine === 'postgres', Math.max(0, T.getTime() - Date.now() - 1000));
  await sleep(Math.max(0, T.getTime() - Date.now() - 200));
  const statementsBefore = await serverStatements();
  const cpuBefore = cpuMs(server.pid)!;
  const mainBefore = cpuMs(server.pid, 'main')!;
  const databaseBefore = engine === 'postgres' ? postgresCpuMs() : null;
  server.rss.caseMax();
  await sleep(Math.max(0, T.getTime() - Date.now()));

  const t0 = T.getTime();
  let sent = 0;
  let firstSeconds: number | null = null;
  let halfSeconds: number | null = null;
  for (;;) {
    sent = await sentCount();
    const elapsed = (Date.now() - t0) / 1000;
    if (firstSeconds === null && sent > 0) firstSeconds = elapsed;
    if (halfSeconds === null && sent >= subscriberCount / 2) halfSeconds = elapsed;
    if (sent >= subscriberCount) break;
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`the server exited (${server.child.exitCode ?? server.child.signalCode}) with ${fmt(sent)} of ${fmt(subscriberCount)} sent (its log: ${logFile})`);
    if (Date.now() - t0 > DEADLINE_MS) throw new Error(`only ${fmt(sent)} of ${fmt(subscriberCount)} sent after ${DEADLINE_MS / 60_000} minutes (server log: ${logFile})`);
    await sleep(POLL_MS);
  }
  const seconds = (Date.now() - t0) / 1000;
  const serverMs = cpuMs(server.pid)! - cpuBefore;
  const mainMs = cpuMs(server.pid, 'main')! - mainBefore;
  const databaseMs = databaseBefore ? postgresCpuBetween(databaseBefore, postgresCpuMs()) : null;
  const statementsAfter = await serverStatements();
  run = {
    seconds,
    firstSeconds,
    halfSeconds,
    serverMs,
    mainMs,
    databaseMs,
    // The two /metrics reads run no statement of their own.
    statements: statementsBefore === null || statementsAfter === null ? null : statementsAfter - statementsBefore,
    peakRssMb: server.rss.caseMax(),
  };
  console.error(`all ${fmt(subscriberCount)} sent ${round(seconds, 2)} s after T`);

  // Every subscriber once: one message, one message:sent event, at the end of its sequence.
  const count = async (q: Promise<{ n: number | string | bigint }>) => Number((await q).n);
  const checks = {
    outbox: await sentCount(),
    outboxContacts: await count(db.selectFrom('outbox').select((eb) => eb.fn.count<number>('contact_id').distinct().as('n')).where('workspace_id', '=', workspaceId).where('action', '=', 'message').executeTakeFirstOrThrow()),
    messages: await count(db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).where('direction', '=', 'outgoing').executeTakeFirstOrThrow()),
    sentEvents: await count(db.selectFrom('sequence_step_events').select((eb) => eb.fn.countAll<number>().as('n')).where('step_id', '=', stepId).where('event_type', '=', 'message:sent').executeTakeFirstOrThrow()),
    finished: await count(db.selectFrom('sequence_subscriptions').select((eb) => eb.fn.countAll<number>().as('n')).where('sequence_id', '=', sequenceId).where('next_step_id', 'is', null).executeTakeFirstOrThrow()),
  };
  const wrong = Object.entries(checks).filter(([, n]) => n !== subscriberCount);
  if (wrong.length > 0) throw new Error(`expected ${subscriberCount} of each: ${JSON.stringify(checks)}`);
  const sample = await db.selectFrom('outbox').select('payload').where('workspace_id', '=', workspaceId).where('action', '=', 'message').orderBy('id').limit(1).executeTakeFirstOrThrow();
  const text = (JSON.parse(sample.payload!) as { text: string }).text;
  if (!/^Hi [A-Z][a-z]+$/.test(text)) throw new Error(`the first message reads ${JSON.stringify(text)}`);

  const verdict = run.seconds <= GOAL_SECONDS ? '**PASS**' : '**FAIL**';
  const ms = (v: number | null) => (v === null ? '-' : fmt(Math.round(v)));
  lines.push(
    `# Sequence runner bench (${new Date().toISOString()}, ${engine})`,
    '',
    `commit ${commitOf(repoRoot)} · server: ${mode}, NODE_ENV=production, LOG_LEVEL=info (log: bench/data/server-sequences-${engine}.log), RUN_WORKERS=true (the server runs the jobs, WORKER_CONCURRENCY default), CHANNEL_ADAPTER=sandbox (a send is an outbox row) · ${engine === 'sqlite' ? 'SQLite (a temp file)' : `PostgreSQL (schemas ${BENCH_SCHEMA}, ${WORKER_SCHEMA})`} · pinning: none (the server${engine === 'postgres' ? ', PostgreSQL' : ''} and the bench's polling share both cores) · seed ${seed}`,
    '',
    `${fmt(subscriberCount)} contacts, each with a contact inbox (person id) and a conversation in one \`net\` inbox whose last incoming message is within the hour; one flow (\`Hi {{first_name}}\`); one sequence with one step (minutes, 1, anytime) made through the API; ${fmt(subscriberCount)} subscription rows written directly, all due at T = ${dueAt}, and their runs enqueued by \`enqueueRuns\` (batch jobs of up to ${fmt(STEP_ITEMS_PER_JOB)} items, one batch key for the second: they run one after another). Measured: from T until the bench's count of the workspace's outbox \`message\` rows (every ${POLL_MS} ms) reaches ${fmt(subscriberCount)}; then checked: ${fmt(subscriberCount)} distinct contacts in the outbox, outgoing \`messages\` rows, \`message:sent\` step events and subscriptions at the end of the sequence.`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| goal: all ${fmt(subscriberCount)} sent within ${GOAL_SECONDS} s of T | ${round(run.seconds, 2)} s ${verdict}${engine === 'sqlite' ? '' : ' (the goal is set for SQLite; for reference)'} |`,
    `| first send after T | ${run.firstSeconds === null ? '-' : `${round(run.firstSeconds, 2)} s`} |`,
    `| half sent after T | ${run.halfSeconds === null ? '-' : `${round(run.halfSeconds, 2)} s`} |`,
    `| messages/s (T to the last) | **${fmt(Math.round(subscriberCount / run.seconds))}** |`,
    `| jobs (batch jobs of the one second) | ${jobs ?? '-'} |`,
    `| server CPU ms, all threads (main thread) | ${ms(run.serverMs)} (${ms(run.mainMs)}) |`,
    `| server CPU per subscriber | ${round((run.serverMs * 1000) / subscriberCount, 1)} us |`,
    `| PostgreSQL CPU ms | ${ms(run.databaseMs)} |`,
    `| SQL statements (server) | ${run.statements === null ? '-' : `${fmt(run.statements)} (${round(run.statements / subscriberCount, 2)} a subscriber)`} |`,
    `| server RSS max during the run | ${run.peakRssMb} MB |`,
    `| generator: contacts, contact inboxes, conversations, flow (bench process) | ${round(generatorSeconds, 2)} s |`,
    `| subscriptions and their jobs (bench process, before T) | ${round(setupSeconds, 2)} s |`,
    `| total: generator + subscriptions + T to all sent | ${round(generatorSeconds + setupSeconds + run.seconds, 2)} s |`,
    '',
  );
} finally {
  await stopServer(server);
  await setup.destroy();
  if (engine === 'sqlite' && process.env.BENCH_KEEP_DATABASE !== '1') rmSync(dirname(url), { recursive: true, force: true });
}

const report = lines.join('\n');
console.log(report);
writeResult(`sequences-${engine}.md`, report);
