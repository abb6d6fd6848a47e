// `npm run bench:events`: REST changes -> workspace events -> signed webhook deliveries -> a receiver's 2xx,
// through the real server and its workers. Two phases on one server, each BENCH_CHANGES (10000)
// tags applied to as many contacts, BENCH_PER_REQUEST (100) contacts per `POST /v1/contacts/bulk/tags`
// (one event each), sent with autocannon (BENCH_CONNECTIONS, 2):
// - bare: a workspace without webhooks: what recording the events alone takes (none sent);
// - delivered: a workspace with one webhook on `tagApplied` whose receiver (in this process, on
//   127.0.0.1, let through by OUTBOUND_ALLOWED_HOSTS) answers 204; measured from the first change to
//   the last delivery received, and each event's lag from its timestamp to its arrival.
// Options: BENCH_EVENTS_DATABASE_URL (a temp SQLite file; a postgres:// URL for PostgreSQL),
// BENCH_CHANGES, BENCH_PER_REQUEST, BENCH_CONNECTIONS, BENCH_WORKER_CONCURRENCY (the server's
// WORKER_CONCURRENCY, 10). Contacts are made in order (no randomness): every run makes the same rows.
// Results: printed; with --save also bench/results/events-<engine>.md, otherwise only the ignored .tmp.
import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { cpuMs, startProcess, stopProcess, writeResult } from './lib.js';

const changes = Number(process.env.BENCH_CHANGES ?? 10_000);
const perRequest = Number(process.env.BENCH_PER_REQUEST ?? 100);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 2);
const workerConcurrency = process.env.BENCH_WORKER_CONCURRENCY ?? '10';
const databaseUrl = process.env.BENCH_EVENTS_DATABASE_URL ?? join(mkdtempSync(join(tmpdir(), 'events-bench-')), 'events.db');
const engine = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';

/** A workspace with `changes` contacts and a tag none of them has; its developer token. */
async function seedWorkspace(database: Database, name: string) {
  const db = database.db;
  const { workspace, tokens } = await createWorkspace(db, { name });
  const now = new Date().toISOString();
  const ids: number[] = [];
  for (let start = 0; start < changes; start += 500) {
    const rows = Array.from({ length: Math.min(500, changes - start) }, (_, i) => ({
      workspace_id: workspace.id,
      email: `c${start + i}@bench.example`,
      first_name: `Contact ${start + i}`,
      gender: 'unknown' as const,
      email_verified: 0,
      email_opt_in: 0,
      created_at: now,
      updated_at: now,
    }));
    ids.push(...(await db.insertInto('contacts').values(rows).returning('id').execute()).map((r) => r.id));
  }
  const tag = await db.insertInto('tags').values({ workspace_id: workspace.id, name: 'vip', folder_id: null, deleted_at: null, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  return { workspaceId: workspace.id, token: tokens.developer.token, contacts: ids, tag: tag.id };
}

/** The receiver: answers 204 at once and notes when each event arrived and how late it was. */
function startReceiver() {
  const arrivals: { at: number; lag: number }[] = [];
  const ids = new Set<string>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const at = Date.now();
      const id = String(req.headers['webhook-id']);
      if (!ids.has(id)) {
        ids.add(id);
        arrivals.push({ at, lag: at - Date.parse((JSON.parse(body) as { timestamp: string }).timestamp) });
      }
      res.writeHead(204).end();
    });
  });
  return new Promise<{ port: number; arrivals: typeof arrivals; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as AddressInfo).port, arrivals, close: () => server.close() })),
  );
}

/** Applies the tag to every contact, `perRequest` contacts per bulk call; answers the run and when it started. */
async function applyTags(base: string, ws: { token: string; contacts: number[]; tag: number }) {
  let next = 0;
  const started = Date.now();
  const result = await autocannon({
    url: base,
    connections,
    amount: Math.ceil(ws.contacts.length / perRequest),
    requests: [
      {
        setupRequest: (req) => {
          const contactIds = ws.contacts.slice(next, next + perRequest).map(String);
          next += perRequest;
          return {
            ...req,
            method: 'POST',
            path: '/v1/contacts/bulk/tags',
            headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ contactIds, tagIds: [String(ws.tag)] }),
          };
        },
      },
    ],
  });
  return { result, started };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const setup = createDatabase(databaseUrl);
if (engine === 'postgres') {
  await sql`drop schema if exists public cascade`.execute(setup.db);
  await sql`create schema public`.execute(setup.db);
  await sql`drop schema if exists graphile_worker cascade`.execute(setup.db);
}
await migrateToLatest(setup.db);
const bare = await seedWorkspace(setup, 'Events bench bare');
const delivered = await seedWorkspace(setup, 'Events bench delivered');
const receiver = await startReceiver();
const now = new Date().toISOString();
await setup.db
  .insertInto('webhooks')
  .values({
    workspace_id: delivered.workspaceId,
    name: 'bench receiver',
    url: `http://127.0.0.1:${receiver.port}/hooks`,
    conditions: JSON.stringify([{ type: 'tagApplied' }]),
    enabled: engine === 'postgres' ? (true as never) : 1,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Z2Dp5cE4Ck=',
    previous_secret: null,
    previous_secret_until: null,
    failing_since: null,
    disabled_reason: null,
    created_at: now,
    updated_at: now,
  })
  .execute();

const server = await startProcess('src/server.ts', {
  DATABASE_URL: databaseUrl,
  PORT: '0',
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  RUN_WORKERS: 'true',
  WORKER_CONCURRENCY: workerConcurrency,
  OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
  RATE_LIMIT_IP_POINTS: '100000000',
  RATE_LIMIT_WORKSPACE_POINTS: '100000000',
});
const lines: string[] = [];
try {
  const bareRun = await applyTags(server.url, bare);
  const bareSeconds = (Date.now() - bareRun.started) / 1000;
  const recorded = await setup.db.selectFrom('workspace_events').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', bare.workspaceId).executeTakeFirstOrThrow();
  if (Number(recorded.n) !== changes) throw new Error(`bare phase recorded ${recorded.n} events, not ${changes}`);
  const bareRate = Math.round(changes / bareSeconds);

  const cpuAtStart = cpuMs(server.child.pid);
  const run = await applyTags(server.url, delivered);
  const deadline = Date.now() + 600_000;
  while (receiver.arrivals.length < changes) {
    if (Date.now() > deadline) throw new Error(`${receiver.arrivals.length} of ${changes} deliveries after 600 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const cpuAtEnd = cpuMs(server.child.pid);
  const last = Math.max(...receiver.arrivals.map((a) => a.at));
  const seconds = (last - run.started) / 1000;
  const lags = receiver.arrivals.map((a) => a.lag).sort((a, b) => a - b);
  const cpuPerEvent = cpuAtStart === null || cpuAtEnd === null ? '-' : String(Math.round(((cpuAtEnd - cpuAtStart) * 1000) / changes));
  const errors = bareRun.result.non2xx + bareRun.result.errors + run.result.non2xx + run.result.errors;
  const rate = Math.round(changes / seconds);
  lines.push(
    `| ${engine} | ${changes} | ${perRequest} | ${connections} | ${workerConcurrency} | ${bareRate} | ${rate} | ${(rate / bareRate).toFixed(2)} | ${percentile(lags, 50)} | ${percentile(lags, 99)} | ${cpuPerEvent} | ${errors} |`,
  );
} finally {
  await stopProcess(server.child);
  receiver.close();
  await setup.destroy();
}

const report = [
  `# Events-out bench (${new Date().toISOString()}, ${engine})`,
  '',
  '| engine | events | contacts per call | connections | worker concurrency | bare: events recorded/s (no webhook) | change -> receiver 2xx: deliveries/s | ratio to bare | event -> delivery p50 ms | p99 ms | server CPU us/delivery | errors |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  lines[0],
  '',
].join('\n');
console.log(report);
writeResult(`events-${engine}.md`, report);
