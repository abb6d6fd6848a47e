// `npm run bench:engine`: signed comment webhooks -> outbox, through the real server and its workers.
// A workspace with BENCH_AUTOMATIONS (1000) active photo comment automations, each answering one
// keyword with an immediate private reply; every comment names one keyword (chosen by a PRNG with
// BENCH_SEED), so each event is matched against all of them and answered by one.
// Options: BENCH_ENGINE_DATABASE_URL (a temp SQLite file; a postgres:// URL for PostgreSQL),
// BENCH_EVENTS (20000 comments in all, by BENCH_AUTHORS (5000) people: a fixed workload, so that
// every run makes the same contacts), BENCH_BATCH (10 comments per webhook body), BENCH_CONNECTIONS (10),
// BENCH_LATENCY_RATE (20 single-comment webhooks per second for the latency phase), BENCH_SEED (42),
// BENCH_INGEST_ONLY=1 (a server without workers: what acknowledging signed webhooks alone takes),
// BENCH_WORKERS (0: the server's own in-process workers; n >= 1, PostgreSQL only: the server runs
// with RUN_WORKERS=false and n `src/worker.ts` processes do the work, their CPU added to the server's).
// Results: printed; with --save (`npm run bench:engine -- --save`) also bench/results/engine-<engine>.md
// (engine-<engine>-workers-<n>.md with BENCH_WORKERS), otherwise only the ignored <name>.md.tmp.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type Database } from '../src/db/database.js';
import { hubSignature } from '../src/domain/events/webhook-signature.js';
import { account, commentSource, seedWorkspace } from './engine-workload.js';
import { cpuMs, postgresCpuBetween, postgresCpuMs, startProcess, stopProcess, writeResult } from './lib.js';

const automations = Number(process.env.BENCH_AUTOMATIONS ?? 1000);
const totalEvents = Number(process.env.BENCH_EVENTS ?? 20_000);
const authors = Number(process.env.BENCH_AUTHORS ?? 5000);
const batch = Number(process.env.BENCH_BATCH ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const latencyRate = Number(process.env.BENCH_LATENCY_RATE ?? 20);
const seed = Number(process.env.BENCH_SEED ?? 42);
const secret = 'bench-app-secret-0123456789';
const databaseUrl = process.env.BENCH_ENGINE_DATABASE_URL ?? join(mkdtempSync(join(tmpdir(), 'engine-bench-')), 'engine.db');
const engine = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
const ingestOnly = process.env.BENCH_INGEST_ONLY === '1';
const workerProcesses = Number(process.env.BENCH_WORKERS ?? 0);
if (!Number.isInteger(workerProcesses) || workerProcesses < 0) throw new Error(`BENCH_WORKERS must be a whole number (got ${process.env.BENCH_WORKERS})`);
if (workerProcesses > 0 && engine !== 'postgres') throw new Error('BENCH_WORKERS needs PostgreSQL (BENCH_ENGINE_DATABASE_URL=postgres://...): on SQLite the server runs the queue');
if (workerProcesses > 0 && ingestOnly) throw new Error('BENCH_WORKERS and BENCH_INGEST_ONLY=1 exclude each other');

const nextComment = commentSource(automations, authors, seed);

/** One webhook body of `n` comments by `n` different people, each naming one automation's keyword. */
function body(n: number): string {
  const changes = Array.from({ length: n }, () => {
    const c = nextComment();
    return { field: 'comments', value: { id: c.id, text: c.text, from: { id: c.authorId, username: c.authorName }, media: { id: 'bm-1', media_product_type: 'FEED' } } };
  });
  return JSON.stringify({ object: 'instagram', entry: [{ id: account, time: Math.floor(Date.now() / 1000), changes }] });
}

const counts = async (db: Database['db']) => {
  const [events, processed, outbox] = await Promise.all([
    db.selectFrom('channel_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('channel_events').select((eb) => eb.fn.countAll<number>().as('n')).where('processed_at', 'is not', null).executeTakeFirstOrThrow(),
    db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { events: Number(events.n), processed: Number(processed.n), outbox: Number(outbox.n) };
};

async function drain(db: Database['db'], expected: number, deadlineMs: number): Promise<number> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const c = await counts(db);
    if (c.processed >= expected && c.outbox >= expected) return Date.now();
    if (Date.now() > end) throw new Error(`not drained after ${deadlineMs} ms: ${JSON.stringify(c)} of ${expected}`);
    // Counting is a scan of two growing tables: polled at a pace that leaves the server its CPU.
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** `src/worker.ts` under tsx, as `npm run worker` runs it; resolves once it takes jobs. */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF_DIR] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/worker.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Job worker running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`src/worker.ts exited with ${code}: ${output}`)));
  });
  return child;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const setup = createDatabase(databaseUrl);
await seedWorkspace(setup, automations);
const server = await startProcess('src/server.ts', {
  DATABASE_URL: databaseUrl,
  PORT: '0',
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  WEBHOOK_APP_SECRET: secret,
  RUN_WORKERS: ingestOnly || workerProcesses > 0 ? 'false' : 'true',
});
const workers = await Promise.all(
  Array.from({ length: workerProcesses }, () => startWorker({ DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn' })),
).catch(async (err: unknown) => {
  await stopProcess(server.child);
  throw err;
});
// The server's CPU, and with BENCH_WORKERS the worker processes' added to it.
const processes = [server.child, ...workers];
const cpuOf = (thread: 'process' | 'main') => {
  let total = 0;
  for (const child of processes) {
    const ms = cpuMs(child.pid, thread);
    if (ms === null) return null;
    total += ms;
  }
  return total;
};
const engineLabel = workerProcesses > 0 ? `${engine}, ${workerProcesses} worker process${workerProcesses === 1 ? '' : 'es'}` : engine;
const url = `${server.url}/webhooks/photo`;
const lines: string[] = [];
try {
  // Throughput: BENCH_EVENTS comments in signed webhooks as fast as the server takes them, then until every event is in the outbox.
  // PostgreSQL's own processes share the two cores: their CPU an event is the other half of the cost.
  const databaseAtStart = engine === 'postgres' ? postgresCpuMs() : null;
  const cpuAtStart = cpuOf('process');
  const mainAtStart = cpuOf('main');
  const serverAtStart = cpuMs(server.child.pid);
  const result = await autocannon({
    url,
    connections,
    amount: Math.ceil(totalEvents / batch),
    method: 'POST',
    requests: [
      {
        setupRequest: (req) => {
          const text = body(batch);
          return { ...req, method: 'POST', body: text, headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(secret, text) } };
        },
      },
    ],
  });
  const ingested = (await counts(setup.db)).events;
  // The times the server stored (autocannon ends on whole seconds, the drain polls twice a second):
  // the first and last event received, and the last reply recorded.
  const span = async () => {
    const e = await setup.db.selectFrom('channel_events').select((eb) => [eb.fn.min('received_at').as('first'), eb.fn.max('received_at').as('last')]).executeTakeFirstOrThrow();
    const o = await setup.db.selectFrom('outbox').select((eb) => eb.fn.max('created_at').as('last')).executeTakeFirstOrThrow();
    const ms = (v: unknown) => new Date(String(v)).getTime();
    return { first: ms(e.first), lastEvent: ms(e.last), lastReply: ms(o.last) };
  };
  const ingestSpan = await span();
  // Read when the work is done, before the latency phase: the bench's own counting polls are in it.
  const databaseShare = () => {
    const ms = databaseAtStart ? postgresCpuBetween(databaseAtStart, postgresCpuMs()) : null;
    return ms === null ? '' : `; PostgreSQL ${Math.round((ms * 1000) / ingested)}`;
  };
  const seconds = Math.max(1, ingestSpan.lastEvent - ingestSpan.first) / 1000;
  if (ingestOnly) {
    const cpuAtEnd = cpuMs(server.child.pid);
    const mainAtEnd = cpuMs(server.child.pid, 'main');
    const perEvent = (a: number | null, b: number | null) => (a === null || b === null ? '-' : String(Math.round(((b - a) * 1000) / ingested)));
    const cpuPerEvent = `${perEvent(cpuAtStart, cpuAtEnd)} (main thread ${perEvent(mainAtStart, mainAtEnd)})${databaseShare()}`;
    console.log(`| ${engine} ingest only | ${automations} | ${batch} | ${ingested} | ${Math.round(ingested / seconds)} | - | ${result.latency.p50} | ${result.latency.p99} | ${cpuPerEvent} | ${result.non2xx + result.errors} |`);
    await stopProcess(server.child);
    await setup.destroy();
    process.exit(0);
  }
  await drain(setup.db, ingested, 600_000);
  const times = await span();
  const total = (times.lastReply - times.first) / 1000;
  const cpuAtEnd = cpuOf('process');
  const mainAtEnd = cpuOf('main');
  const serverAtEnd = cpuMs(server.child.pid);
  // The server's CPU per event, webhook to outbox (the drain's polls included): steadier than the
  // throughput on a shared machine. Its main thread's share is what bounds the throughput.
  // With BENCH_WORKERS: the server's and the workers' summed, main threads summed, the server's apart.
  const perEvent = (a: number | null, b: number | null) => (a === null || b === null ? '-' : String(Math.round(((b - a) * 1000) / ingested)));
  const cpuPerEvent =
    workerProcesses > 0
      ? `${perEvent(cpuAtStart, cpuAtEnd)} (main threads ${perEvent(mainAtStart, mainAtEnd)}; server ${perEvent(serverAtStart, serverAtEnd)})`
      : `${perEvent(cpuAtStart, cpuAtEnd)} (main thread ${perEvent(mainAtStart, mainAtEnd)})`;
  const databasePerEvent = databaseShare();
  lines.push(
    `| ${engineLabel} | ${automations} | ${batch} | ${ingested} | ${Math.round(ingested / seconds)} | ${Math.round(ingested / total)} | ${result.latency.p50} | ${result.latency.p99} | ${cpuPerEvent}${databasePerEvent} | ${result.non2xx + result.errors} |`,
  );

  // Latency: one comment per webhook at a steady, unsaturated rate; comment received -> reply recorded.
  const before = (await counts(setup.db)).events;
  const lat = await autocannon({
    url,
    connections: 2,
    duration: 5,
    overallRate: latencyRate,
    method: 'POST',
    requests: [{ setupRequest: (req) => { const text = body(1); return { ...req, method: 'POST', body: text, headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(secret, text) } }; } }],
  });
  const after = (await counts(setup.db)).events;
  await drain(setup.db, after, 120_000);
  const rows = await setup.db
    .selectFrom('channel_events as e')
    .innerJoin('outbox as o', (j) => j.onRef('o.comment_id', '=', 'e.external_id').onRef('o.workspace_id', '=', 'e.workspace_id'))
    .select(['e.received_at', 'o.created_at'])
    .where('e.id', '>', before)
    .execute();
  const delays = rows.map((r) => new Date(r.created_at).getTime() - new Date(r.received_at).getTime()).sort((a, b) => a - b);
  lines.push(`| latency (${lat.requests.total} comments at ${latencyRate}/s) | comment received -> reply in outbox | p50 ${percentile(delays, 50)} ms | p99 ${percentile(delays, 99)} ms | max ${delays.at(-1)} ms |`);
} finally {
  await Promise.all(workers.map((w) => stopProcess(w)));
  await stopProcess(server.child);
  await setup.destroy();
}

const report = [
  `# Engine bench (${new Date().toISOString()}, ${engineLabel}, seed ${seed})`,
  '',
  `| engine | automations | comments per webhook | events | ingested events/s | webhook -> outbox events/s | webhook p50 ms | webhook p99 ms | ${workerProcesses > 0 ? 'server + workers CPU us/event (main threads; server alone; PostgreSQL)' : 'server CPU us/event (main thread; PostgreSQL)'} | errors |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  lines[0],
  '',
  lines[1] ?? '',
  '',
].join('\n');
console.log(report);
// A variant with worker processes keeps its own file: engine-postgres-workers-2.md, say.
writeResult(`engine-${engine}${workerProcesses > 0 ? `-workers-${workerProcesses}` : ''}.md`, report);
