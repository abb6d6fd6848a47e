// `npm run bench:images`: dynamic images drawn per contact, through the real server (compiled, as
// `npm run serve` runs it, with its default drawing pool: IMAGE_RENDER_THREADS=2,
// IMAGE_RENDER_RECYCLE_AFTER=500). A fresh workspace gets the demo's "Greeting card" template
// (db/seeds/samples.ts greetingCardData: a 1080x1080 coloured canvas, a static title, the contact's
// full name in Great Vibes, a Vietnamese greeting with the first name, a QR code of the email),
// created through the API so that its static layer is baked by the job a save enqueues, and
// BENCH_CONTACTS (2,000) contacts with distinct names and emails (a fifth of them Vietnamese), made
// by index (no randomness): every run draws the same pictures.
// - cold: each contact's preview (`GET /v1/dynamic-images/{id}/render?contact=<id>`) once, in order,
//   BENCH_CONNECTIONS (2) at a time, after BENCH_WARMUP_RENDERS (50) renders of other contacts:
//   renders/s, latency percentiles, the server's CPU per render and its RSS every 250 ms. The server
//   is not pinned here: its two drawing threads need both cores.
// - cached, BENCH_SECONDS (10) each at BENCH_CACHED_CONNECTIONS (10), after 3 s of the same load:
//   one contact's public link (signed once by GraphQL `renderUrl`; 302 to the content address), the
//   content address (200 from the store) and the same with If-None-Match (304), beside `/healthz`
//   on the same server (the floor: what the server does with no work). Pinned as `npm run bench`
//   pins (server on CPU 0, autocannon on CPU 1).
// Options: BENCH_IMAGES_DATABASE_URL (a temp SQLite file; a postgres:// URL for PostgreSQL, where the
// bench works in schemas of its own, `bench_images` and `bench_images_worker`, dropped and made
// again on every run: nothing else in that database is touched), BENCH_TSX=1 (run src/server.ts
// under tsx instead of compiling to bench/data/images-dist), BENCH_PIN=0, BENCH_CPU_PROF_DIR (the
// server's V8 CPU profiles, its drawing threads' included, for bench/top-functions.ts).
// Results: printed; with --save also bench/results/images-<engine>.md, otherwise only the ignored .tmp.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { greetingCardData } from '../db/seeds/samples.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { benchDatabase, benchServerScript, commitOf, cpuMs, percentile, pinLoadGenerator, pinning, postgresCpuBetween, postgresCpuMs, repoRoot, round, rssMb, serveFlags, startServer, stopServer, untilIdle, writeResult } from './lib.js';

const contactCount = Number(process.env.BENCH_CONTACTS ?? 2_000);
const warmupRenders = Number(process.env.BENCH_WARMUP_RENDERS ?? 50);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 2);
const cachedConnections = Number(process.env.BENCH_CACHED_CONNECTIONS ?? 10);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const tsx = process.env.BENCH_TSX === '1';
const requestedUrl = process.env.BENCH_IMAGES_DATABASE_URL;
const engine = requestedUrl?.startsWith('postgres') ? 'postgres' : 'sqlite';
const dataDir = join(repoRoot, 'bench/data');
mkdirSync(dataDir, { recursive: true });

/** The goals of the images issue. */
const GOALS = { cachedLinkRps: 2_000, coldP95Ms: 100 };
/** The server's defaults, stated here so the report says what ran. */
const THREADS = 2;
const RECYCLE_AFTER = 500;
const BENCH_SCHEMA = 'bench_images';
const WORKER_SCHEMA = 'bench_images_worker';

// ---------------------------------------------------------------------------------------------
// Contacts, made by index.

const latinFirst = ['Ava', 'Liam', 'Sofia', 'Noah', 'Mia', 'Lucas', 'Emma', 'Mateo', 'Olivia', 'Ethan', 'Chloe', 'Amir', 'Yuki', 'Lena', 'Omar', 'Priya', 'Diego', 'Hana', 'Jonas', 'Zoë', 'François', 'Zofia', 'Björn', 'Inês'];
const latinLast = ['Garcia', 'Smith', 'Müller', 'Rossi', 'Tanaka', 'Okafor', 'Dubois', 'Silva', 'Kowalski', 'Nguyen', 'Haddad', 'Larsen', 'Patel', 'Cohen', 'Ibrahim', 'Østergaard', 'Łukasiewicz', 'Peña'];
const vietFirst = ['Hương', 'Minh Anh', 'Thảo', 'Dũng', 'Phương', 'Tuấn', 'Ngọc Ánh', 'Quỳnh', 'Đức', 'Hải Yến', 'Thị Hương', 'Văn Lộc'];
const vietLast = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng', 'Bùi', 'Đỗ'];

const ascii = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/g, 'd').replace(/Đ/g, 'D').replace(/ø/g, 'o').replace(/Ø/g, 'O').replace(/ł/g, 'l').replace(/Ł/g, 'L').replace(/[^A-Za-z]/g, '').toLowerCase();

/** Contact `i`: every fifth one Vietnamese; the index in the email keeps every contact's picture distinct (the QR code holds it). */
function contactAt(i: number) {
  const viet = i % 5 === 0;
  const first = viet ? vietFirst[i % vietFirst.length]! : latinFirst[i % latinFirst.length]!;
  const last = viet ? vietLast[Math.floor(i / 5) % vietLast.length]! : latinLast[(i * 7) % latinLast.length]!;
  return { first_name: first, last_name: last, email: `${ascii(first)}.${ascii(last)}.${i}@bench.example` };
}

// ---------------------------------------------------------------------------------------------
// The database, the workspace and its contacts.

const { url, setup } = await benchDatabase('images', requestedUrl, BENCH_SCHEMA, WORKER_SCHEMA);
const { workspace, tokens } = await createWorkspace(setup.db, { name: 'Images bench' });
const token = tokens.developer.token;
const total = warmupRenders + contactCount;
const contactIds: number[] = [];
{
  const now = new Date().toISOString();
  for (let start = 0; start < total; start += 500) {
    const rows = Array.from({ length: Math.min(500, total - start) }, (_, k) => ({
      workspace_id: workspace.id,
      ...contactAt(start + k),
      gender: 'unknown' as const,
      email_verified: 0,
      email_opt_in: 0,
      created_at: now,
      updated_at: now,
    }));
    contactIds.push(...(await setup.db.insertInto('contacts').values(rows).returning('id').execute()).map((r) => Number(r.id)));
  }
}
const warmupIds = contactIds.slice(0, warmupRenders);
const measuredIds = contactIds.slice(warmupRenders);

// ---------------------------------------------------------------------------------------------
// The server.

const { mode, script } = benchServerScript('images', tsx);

const logFile = join(dataDir, `server-images-${engine}.log`);
const server = await startServer({
  name: 'images',
  cwd: repoRoot,
  script,
  tsx,
  // BENCH_CPU_PROF_DIR: V8 CPU profiles of the server's threads, written when it exits (bench/top-functions.ts reads them).
  nodeFlags: [...serveFlags(repoRoot), ...(process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF_DIR] : [])],
  pin: false,
  logFile,
  env: {
    DATABASE_URL: url,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    SEED_DEMO: 'false',
    RUN_WORKERS: 'true',
    WORKER_SCHEMA,
      RATE_LIMIT_IP_POINTS: '1000000000',
    RATE_LIMIT_WORKSPACE_POINTS: '1000000000',
    IMAGE_RENDER_THREADS: String(THREADS),
    IMAGE_RENDER_RECYCLE_AFTER: String(RECYCLE_AFTER),
  },
});
const base = server.url;
const rssAtStart = rssMb(server.pid)!;
// A profiled server is never idle (the profiler samples): wait a little instead of for idleness.
const settle = () => (process.env.BENCH_CPU_PROF_DIR ? new Promise<void>((r) => setTimeout(r, 2_000)) : untilIdle(server.pid, engine === 'postgres'));
const auth = { authorization: `Bearer ${token}` };

/** The server's thread ids now: new ones during a run are the drawing threads the pool started. */
const threadIds = () => new Set(readdirSync(`/proc/${server.pid}/task`));

interface Timed {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  statusCodes: Record<string, number>;
  unexpected: number;
  errors: number;
  cpuMsPerRequest: number | null;
  /** The local PostgreSQL server's CPU per request (every `postgres` process): it shares the cores. */
  databaseCpuMsPerRequest: number | null;
}

const percentileOf = (sorted: number[], p: number) => round(percentile(sorted, p), 2);

/** Runs autocannon and keeps every response time (its histogram has whole milliseconds only) and status. */
async function run(opts: autocannon.Options, expected: number): Promise<Timed> {
  const cpuBefore = cpuMs(server.pid);
  const databaseBefore = engine === 'postgres' ? postgresCpuMs() : null;
  const times: number[] = [];
  const statusCodes: Record<string, number> = {};
  let unexpected = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(opts, (err, done) => (err ? reject(err as Error) : resolve(done)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode === expected) times.push(responseTime);
      else unexpected++;
    });
  });
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuMs(server.pid);
  const databaseMs = databaseBefore ? postgresCpuBetween(databaseBefore, postgresCpuMs()) : null;
  times.sort((a, b) => a - b);
  const requests = result.requests.total;
  const wall = opts.amount ? elapsed : result.duration;
  return {
    requests,
    seconds: round(wall, 2),
    perSecond: Math.round(requests / wall),
    p50: percentileOf(times, 50),
    p95: percentileOf(times, 95),
    p99: percentileOf(times, 99),
    max: round(times.at(-1) ?? NaN, 2),
    statusCodes,
    unexpected,
    errors: result.errors + result.timeouts,
    cpuMsPerRequest: cpuBefore === null || cpuAfter === null || requests === 0 ? null : round((cpuAfter - cpuBefore) / requests, 3),
    databaseCpuMsPerRequest: databaseMs === null || requests === 0 ? null : round(databaseMs / requests, 3),
  };
}

/** RSS (MB) after every CHECKPOINT renders of the measured ones: does it climb with the replacements? */
const CHECKPOINT = 250;
const checkpoints: { renders: number; mb: number }[] = [];

/** Each contact's preview once, in order, `connections` at a time; with `track`, the RSS at checkpoints. */
function renderEach(ids: number[], imageId: string, track = false) {
  let next = 0;
  let answered = 0;
  return run(
    {
      url: base,
      connections,
      amount: ids.length,
      timeout: 30,
      requests: [
        {
          setupRequest: (req) => ({ ...req, method: 'GET', path: `/v1/dynamic-images/${imageId}/render?contact=${ids[next++]}`, headers: auth }),
          onResponse: () => {
            if (track && ++answered % CHECKPOINT === 0) checkpoints.push({ renders: answered, mb: rssMb(server.pid) ?? NaN });
          },
        },
      ],
    },
    200,
  );
}

const lines: string[] = [];
let failed = false;
try {
  // The template, through the API: its save enqueues the job that bakes its static layer.
  const created = await fetch(`${base}/v1/dynamic-images`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Greeting card', backgroundUrl: '', data: greetingCardData }),
  });
  if (created.status !== 201) throw new Error(`creating the template answered ${created.status}: ${await created.text()}`);
  const imageId = ((await created.json()) as { id: string }).id;
  const bakeDeadline = Date.now() + 60_000;
  for (;;) {
    const layer = await setup.db.selectFrom('dynamic_image_renders').select('hash').where('image_id', '=', Number(imageId)).where('kind', '=', 'layer').executeTakeFirst();
    if (layer) break;
    if (Date.now() > bakeDeadline) throw new Error('the static layer was not baked within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }

  // ------------------------------------------------------------------ cold
  const warm = await renderEach(warmupIds, imageId);
  if (warm.unexpected + warm.errors > 0) throw new Error(`warm-up renders: ${JSON.stringify(warm.statusCodes)}, ${warm.errors} errors`);
  await settle();
  const rssBefore = rssMb(server.pid)!;
  const samples: number[] = [];
  const sampler = setInterval(() => {
    const mb = rssMb(server.pid);
    if (mb !== null) samples.push(mb);
  }, 250);
  const threadsBefore = threadIds();
  const seen = new Set<string>();
  const threadWatch = setInterval(() => {
    for (const tid of threadIds()) if (!threadsBefore.has(tid)) seen.add(tid);
  }, 250);
  const cold = await renderEach(measuredIds, imageId, true);
  clearInterval(sampler);
  clearInterval(threadWatch);
  const rssEnd = rssMb(server.pid)!;
  samples.push(rssEnd);
  const rssMax = Math.max(...samples);
  const rendersStored = await setup.db
    .selectFrom('dynamic_image_renders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('image_id', '=', Number(imageId))
    .where('kind', '=', 'render')
    .executeTakeFirstOrThrow();
  if (cold.unexpected + cold.errors > 0) failed = true;
  await settle();
  const rssIdle = rssMb(server.pid)!;

  // ------------------------------------------------------------------ cached
  const graphql = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'query($id: ID!, $c: String!) { dynamicImage(id: $id) { renderUrl(contact: $c) } }', variables: { id: imageId, c: String(measuredIds[0]) } }),
  });
  const signed = ((await graphql.json()) as { data: { dynamicImage: { renderUrl: string } } }).data.dynamicImage.renderUrl;
  const link = `${new URL(signed).pathname}${new URL(signed).search}`;
  const first = await fetch(`${base}${link}`, { redirect: 'manual' });
  if (first.status !== 302) throw new Error(`the signed link answered ${first.status}`);
  const location = first.headers.get('location')!;
  const stored = await fetch(`${base}${location}`);
  const etag = stored.headers.get('etag')!;
  const pngBytes = (await stored.arrayBuffer()).byteLength;

  pinLoadGenerator();
  if (pinning.enabled) execFileSync('taskset', ['-a', '-p', '-c', '0', String(server.pid)], { stdio: 'ignore' });
  const cases = [
    { name: '`/healthz` (floor)', path: '/healthz', headers: {}, expected: 200 },
    { name: 'public link (302)', path: link, headers: {}, expected: 302 },
    { name: 'content address (200)', path: location, headers: {}, expected: 200 },
    { name: 'content address, If-None-Match (304)', path: location, headers: { 'if-none-match': etag }, expected: 304 },
  ];
  const cached: (Timed & { name: string })[] = [];
  for (const c of cases) {
    const opts = { url: `${base}${c.path}`, connections: cachedConnections, headers: c.headers };
    await run({ ...opts, duration: 3 }, c.expected);
    await settle();
    const measured = await run({ ...opts, duration: seconds }, c.expected);
    if (measured.unexpected + measured.errors > 0) failed = true;
    cached.push({ ...measured, name: c.name });
    await settle();
  }
  const floor = cached[0]!.perSecond;
  const linkRun = cached[1]!;
  const rssWhole = server.rss.maxMb;

  const status = (t: Timed) => Object.entries(t.statusCodes).map(([code, n]) => `${n} x ${code}`).join(', ') + (t.errors ? `, ${t.errors} errors` : '');
  const pass = (ok: boolean) => (ok ? '**met**' : '**missed**');
  lines.push(
    `# Dynamic images bench (${new Date().toISOString()}, ${engine})`,
    '',
    `commit ${commitOf(repoRoot)} · server: ${mode}, NODE_ENV=production, LOG_LEVEL=info (access log to bench/data/server-images-${engine}.log), RUN_WORKERS=true, rate limits on (budgets 10^9), IMAGE_RENDER_THREADS=${THREADS}, IMAGE_RENDER_RECYCLE_AFTER=${RECYCLE_AFTER} · ${engine === 'sqlite' ? 'SQLite (a temp file; renders stored as files beside it)' : `PostgreSQL (schema ${BENCH_SCHEMA}; renders stored in the database)`} · template: the demo's "Greeting card" (1080x1080, static layer baked by its job) · pinning: cold renders unpinned (the drawing threads use both cores); cached cases ${pinning.enabled ? 'server on CPU 0, autocannon on CPU 1' : pinning.why}`,
    '',
    '## Goals',
    '',
    '| goal | measured | |',
    '|---|---:|---|',
    `| cached link >= ${GOALS.cachedLinkRps.toLocaleString('en-US')} req/s on 2 cores | ${linkRun.perSecond.toLocaleString('en-US')} req/s (${round(linkRun.perSecond / floor, 2)}x \`/healthz\`) | ${pass(linkRun.perSecond >= GOALS.cachedLinkRps)} |`,
    `| cold render p95 < ${GOALS.coldP95Ms} ms (demo template, ${connections} connections) | ${cold.p95} ms | ${pass(cold.p95 < GOALS.coldP95Ms)} |`,
    `| RSS bounded over ${contactCount.toLocaleString('en-US')} renders | ${rssBefore} MB after the warm-up, ${rssMax} MB at most, ${rssEnd} MB at the end (${round(rssEnd - rssBefore, 1)} MB growth) | see test/dynamic-images.memory.test.ts |`,
    '',
    `## Cold: each contact's preview once (${contactCount.toLocaleString('en-US')} contacts, ${connections} connections, after ${warmupRenders} warm-up renders)`,
    '',
    '| renders | seconds | renders/s | p50 ms | p95 ms | p99 ms | max ms | server CPU ms/render | PostgreSQL CPU ms/render | RSS after warm-up MB | RSS max MB | RSS at the end MB | RSS idle after MB | threads started | answers | renders stored |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    `| ${cold.requests} | ${cold.seconds} | ${cold.perSecond} | ${cold.p50} | ${cold.p95} | ${cold.p99} | ${cold.max} | ${cold.cpuMsPerRequest ?? '-'} | ${cold.databaseCpuMsPerRequest ?? '-'} | ${rssBefore} | ${rssMax} | ${rssEnd} | ${rssIdle} | ${seen.size} | ${status(cold)} | ${rendersStored.n} |`,
    '',
    `RSS of the server before any render: ${rssAtStart} MB. After every ${CHECKPOINT} measured renders: ${checkpoints.map((c) => `${c.renders}: ${c.mb} MB`).join(', ')}.`,
    '',
    `Threads started during the run: the pool replaces its ${THREADS} threads after every ${RECYCLE_AFTER} renders (${Math.floor(total / RECYCLE_AFTER)} replacements over the ${total} renders with the warm-up, ${Math.floor(total / RECYCLE_AFTER) - Math.floor(warmupRenders / RECYCLE_AFTER)} within the measured ones); a count above ${THREADS} per replacement includes the server's other short-lived threads.`,
    '',
    `## Cached (${seconds} s each at ${cachedConnections} connections, after 3 s of the same load)`,
    '',
    '| case | req/s | x `/healthz` | p50 ms | p99 ms | server CPU ms/request | PostgreSQL CPU ms/request | answers |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...cached.map((c) => `| ${c.name} | ${c.perSecond.toLocaleString('en-US')} | ${round(c.perSecond / floor, 2)} | ${c.p50} | ${c.p99} | ${c.cpuMsPerRequest ?? '-'} | ${c.databaseCpuMsPerRequest ?? '-'} | ${status(c)} |`),
    '',
    `The stored PNG is ${pngBytes.toLocaleString('en-US')} bytes. Server RSS over the whole run: ${rssWhole} MB at most.`,
    '',
  );
} finally {
  await stopServer(server);
  await setup.destroy();
}

const report = lines.join('\n');
console.log(report);
writeResult(`images-${engine}.md`, report);
if (failed) {
  console.error('some requests failed or answered an unexpected status (see the answers columns)');
  process.exitCode = 1;
}
