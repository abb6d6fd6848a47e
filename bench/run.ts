// `npm run bench`: REST and GraphQL cases on a seeded 100,000-contact workspace, the compiled server
// beside a bare node:http handler running the same SQL, and beside an older checkout when asked.
// Options: BENCH_DATABASE_URL (a SQLite file under bench/data; a postgres:// URL, whose database the
// bench empties and fills), BENCH_CONTACTS (100000), BENCH_ERROR_LOGS (1000000), BENCH_SEED (42),
// BENCH_SECONDS (8 per case and server), BENCH_WARMUP_SECONDS (5 per server, before any case),
// BENCH_WARMUP_REQUESTS (3000: each case's warm-up goes on past its first second up to so many, 10 s at most),
// BENCH_CASES (only cases whose name holds this text),
// BENCH_REPEATS (1: each case measured so many times on every server, in turns; the tables show each
// server's median run, the goals' ratios the median of the ratios within a repeat),
// BENCH_BEFORE_DIR (another checkout: its server runs the same cases, alternating with this one's),
// BENCH_BEFORE_FIRST=1 (the before checkout goes first in the first case, and then every other one),
// BENCH_TSX=1 (run the servers under tsx instead of compiling them), BENCH_PIN=0 (no CPU pinning).
// On PostgreSQL the nested page is also asked of a peer, PostGraphile v4 over the same tables
// (bench/peer-postgraphile.ts), its answer checked against the API's first.
// Results: printed; with --save (`npm run bench -- --save`) also bench/results/latest-<engine>.md and
// .json, otherwise only the ignored bench/results/latest-<engine>.*.tmp. Exit code 1 when a parity
// check fails or a case saw errors or non-2xx answers.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { apiRequest, apiServerEnv, bareRequest, BENCH_PUBLIC_BASE_URL, benchCases, fetchJson, type Case } from './cases.js';
import { ensureDataset } from './dataset.js';
import { apiPageShape, peerPageShape } from './graphql.cases.js';
import { build, commitOf, load, pinLoadGenerator, pinning, repoRoot, round, serveFlags, startServer, stopServer, untilIdle, writeResult, type LoadResult, type Server } from './lib.js';

const contacts = Number(process.env.BENCH_CONTACTS ?? 100_000);
const errorLogs = Number(process.env.BENCH_ERROR_LOGS ?? 1_000_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const seed = Number(process.env.BENCH_SEED ?? 42);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const warmupRequests = Number(process.env.BENCH_WARMUP_REQUESTS ?? 3000);
const repeats = Math.max(1, Number(process.env.BENCH_REPEATS ?? 1));
const only = process.env.BENCH_CASES ?? '';
const beforeDir = process.env.BENCH_BEFORE_DIR ? resolve(process.env.BENCH_BEFORE_DIR) : null;
const tsx = process.env.BENCH_TSX === '1';
// The case (by index) where the before checkout goes first, then every other one. A run of one case
// (BENCH_CASES) always has the same order; flipping it pairs that run with one in the other order,
// so that whatever the order does (a machine warming up or slowing down) is not read as the change's.
const beforeFirstFrom = process.env.BENCH_BEFORE_FIRST === '1' ? 0 : 1;
const dataDir = join(import.meta.dirname, 'data');
mkdirSync(dataDir, { recursive: true });

pinLoadGenerator();


const afterMode = tsx ? 'tsx (BENCH_TSX=1)' : build(repoRoot);
let beforeMode: string | null = null;
if (beforeDir) {
  try {
    beforeMode = tsx ? 'tsx (BENCH_TSX=1)' : build(beforeDir);
  } catch {
    beforeMode = 'tsx (its compilation failed)';
  }
}

const dataset = await ensureDataset({ databaseUrl: process.env.BENCH_DATABASE_URL, contacts, errorLogs, seed });
const engine = dataset.engine;
const auth = { authorization: `Bearer ${dataset.token}` };
const sampleContactId = String(Math.floor(contacts / 2));

const apiServer = (name: string, dir: string, mode: string) => {
  const underTsx = mode.startsWith('tsx');
  return startServer({ name, cwd: dir, script: underTsx ? 'src/server.ts' : 'dist/src/server.js', tsx: underTsx, nodeFlags: serveFlags(dir), env: apiServerEnv(dataset.databaseUrl), logFile: join(dataDir, `server-${name}-${engine}.log`) });
};

const servers: Server[] = [];
const started = async (s: Promise<Server>) => {
  const server = await s;
  servers.push(server);
  return server;
};
const stopAll = () => Promise.all(servers.map(stopServer));
process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

/** One repeat of a case: each server's load, measured one after another. */
interface Round {
  after: LoadResult;
  before?: LoadResult;
  bare?: LoadResult;
  peer?: LoadResult;
}

/** A case's repeats, and for each server the repeat of median throughput (what the tables show). */
interface Measured {
  case: Case;
  statements: number | null;
  rounds: Round[];
  after: LoadResult;
  before?: LoadResult;
  bare?: LoadResult;
  peer?: LoadResult;
}

/** The run of median throughput (the lower middle one of an even count), or undefined when there is none. */
function medianRun(runs: (LoadResult | undefined)[]): LoadResult | undefined {
  const measured = runs.filter((r): r is LoadResult => r !== undefined).sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return measured[Math.floor((measured.length - 1) / 2)];
}

/**
 * A ratio of two servers' throughput: within each repeat (two loads close in time, so a machine
 * that slows down for a while moves both), then the median over the repeats.
 */
function pairedRatio(m: Measured | undefined, top: keyof Round, bottom: keyof Round): number | undefined {
  const ratios = (m?.rounds ?? [])
    .map((r) => ratio(r[top]?.requestsPerSecond, r[bottom]?.requestsPerSecond))
    .filter((v): v is number => v !== undefined)
    .sort((a, b) => a - b);
  if (ratios.length === 0) return undefined;
  const mid = (ratios.length - 1) / 2;
  return round((ratios[Math.floor(mid)]! + ratios[Math.ceil(mid)]!) / 2, 2);
}

const failures: string[] = [];
const notes: string[] = [];
const results: Measured[] = [];

try {
  const after = await started(apiServer('after', repoRoot, afterMode));
  const before = beforeDir && beforeMode ? await started(apiServer('before', beforeDir, beforeMode)) : null;
  const bare = await started(
    startServer({ name: 'bare', cwd: repoRoot, script: 'bench/baseline-server.ts', tsx: true, env: { DATABASE_URL: dataset.databaseUrl, BENCH_WORKSPACE_ID: String(dataset.workspaceId), BENCH_PUBLIC_BASE_URL }, logFile: join(dataDir, `server-bare-${engine}.log`) }),
  );

  const getJson = (url: string, init: RequestInit = {}) => fetchJson(url, init);
  // The peer reads PostgreSQL only: on SQLite no case names it.
  const workspaceId = engine === 'postgres' ? dataset.workspaceId : undefined;
  const cases = (await benchCases({ apiUrl: after.url, auth, sampleContactId, workspaceId })).filter((c) => `${c.name} @${c.connections}`.includes(only));
  if (cases.length === 0) throw new Error(`BENCH_CASES=${only} matches no case`);
  if (engine === 'sqlite') notes.push('PostGraphile (the peer of the nested page): not run, it reads PostgreSQL only');
  // The API's node flags, so that neither server has a heap or GC setting the other has not.
  const peer = cases.some((c) => c.peer)
    ? await started(startServer({ name: 'peer', cwd: repoRoot, script: 'bench/peer-postgraphile.ts', tsx: true, nodeFlags: serveFlags(repoRoot), env: { DATABASE_URL: dataset.databaseUrl }, logFile: join(dataDir, `server-peer-${engine}.log`) }))
    : null;

  const apiInit = (c: Case): RequestInit => apiRequest(c, auth);
  const peerInit = (p: NonNullable<Case['peer']>) => ({ method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: p.body });
  /** Which request a server gets for a case: the API's, the bare handler's or the peer's, each for the same answer. */
  type Kind = 'api' | 'bare' | 'peer';
  const kindOf = (server: Server): Kind => (server === bare ? 'bare' : server === peer ? 'peer' : 'api');
  const loadOf = (c: Case, server: Server, kind: Kind) => ({
    url: server.url + (kind === 'bare' ? c.bare!.path : kind === 'peer' ? c.peer!.path : c.path),
    opts: {
      ...(kind === 'bare' ? bareRequest(c.bare!) : kind === 'peer' ? peerInit(c.peer!) : apiRequest(c, auth)),
      connections: c.connections,
      requests: c.requests?.map((path) => ({ method: 'GET' as const, path })),
    },
  });
  // The requests still in flight when a load stops finish before anything else is measured (lib.ts).
  const untilServerIdle = (server: Server) => untilIdle(server.pid, engine === 'postgres');

  // Parity first: the bare handler must answer what the API answers, or comparing speeds means nothing.
  for (const c of cases) {
    if (!c.bare || !c.parity) continue;
    const api = (await getJson(after.url + c.path, apiInit(c))).body;
    const floor = (await getJson(bare.url + c.bare.path, bareRequest(c.bare))).body;
    const difference = c.parity === 'exact' ? firstDifference(api, floor) : idsDifference(api, floor);
    if (difference) failures.push(`parity: ${c.name}: the bare answer differs from the API's (${c.parity}): ${difference}`);
  }
  // The peer's answer has its own shape: both reduce to the contacts' ids in order and, for each,
  // its fields and the ids of its relations' rows (graphql.cases.ts).
  for (const c of cases) {
    if (!c.peer || !peer) continue;
    const api = (await getJson(after.url + c.path, apiInit(c))).body;
    const other = (await getJson(peer.url + c.peer.path, peerInit(c.peer))).body;
    if (other.errors) {
      failures.push(`parity: ${c.name}: PostGraphile answered errors: ${JSON.stringify(other.errors).slice(0, 500)}`);
      continue;
    }
    const difference = firstDifference(apiPageShape(api), peerPageShape(other), '$', 'PostGraphile');
    if (difference) failures.push(`parity: ${c.name}: PostGraphile's answer differs from the API's: ${difference}`);
  }
  if (failures.length > 0) throw new Error(failures.join('\n'));
  console.error(`parity: ${cases.filter((c) => c.bare && c.parity).map((c) => `${c.name} (${c.parity})`).join(', ')}: the bare answers match the API's`);
  if (peer) console.error(`parity: ${cases.filter((c) => c.peer).map((c) => c.name).join(', ')}: PostGraphile's contacts, fields and relation ids match the API's`);

  // A server's first seconds compile its request path (V8's tiers, on background threads whose CPU
  // counts) and size its heap: with only the per-case second below, the first case measured that
  // too (PostgreSQL, GET /v1/tags @10 at 0.259 ms of CPU against 0.18 at 64 connections right
  // after). Every server gets WARMUP_SECONDS of the first case's load before anything is measured.
  const warmup = cases[0]!;
  for (const server of [after, before, bare, peer]) {
    if (!server) continue;
    const kind = kindOf(server);
    // The peer answers only its own cases: it warms up on the first of them.
    const c = kind === 'peer' ? cases.find((k) => k.peer)! : warmup;
    if (kind === 'bare' && !c.bare) continue;
    const { url, opts } = loadOf(c, server, kind);
    await load('warm-up', url, { ...opts, seconds: warmupSeconds });
    await untilServerIdle(server);
  }

  for (const [i, c] of cases.entries()) {
    const label = `${c.name} @${c.connections}`;
    // Statements of one request after a token lookup (the token cache keeps it for a few seconds).
    const statementsOf = async (server: Server) => {
      if (c.requests) return null;
      await getJson(server.url + c.path, apiInit(c));
      const n = (await getJson(server.url + c.path, apiInit(c))).statements;
      return n === null ? null : Number(n);
    };
    const statements = await statementsOf(after);
    const run = async (server: Server, repeat: number) => {
      const { url, opts } = loadOf(c, server, kindOf(server));
      // The same load first, so that each server is measured warm: a second, and more up to
      // WARMUP_REQUESTS requests within 10 s. V8 optimises a function after so many calls, not so
      // many seconds: the nested page (about 250 pages a second) still cost 4.6, 4.3 and 3.9 ms of
      // CPU in its first three 3 s loads, and 3.4-3.6 from then on, so one second of warm-up left
      // most of its tiering inside the measured 8 s. Every server gets the same rule. A repeat
      // finds the path compiled: its second is only for what the other servers' loads displaced.
      const first = await load(label, url, { ...opts, seconds: 1 });
      const more = repeat > 0 ? 0 : Math.min(9, Math.ceil((warmupRequests - first.requests) / Math.max(1, first.requests)));
      if (more > 0) await load(label, url, { ...opts, seconds: more });
      await untilServerIdle(server);
      server.rss.caseMax();
      const result = await load(label, url, { ...opts, seconds, pid: server.pid, database: engine === 'postgres' });
      result.rssMaxMb = server.rss.caseMax();
      await untilServerIdle(server);
      // A statement slower than the run (the common error-log keyword) leaves nothing to measure: said, not failed.
      if (result.requests === 0) notes.push(`${label} on ${server.name}: no answer within ${seconds} s (raise BENCH_SECONDS)`);
      if (result.errors > 0 || result.non2xx > 0) failures.push(`${label} on ${server.name}: ${result.errors} errors, ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodes)}`);
      return result;
    };
    const rounds: Round[] = [];
    for (let repeat = 0; repeat < repeats; repeat++) {
      // This checkout and the before one take turns going first, case by case and repeat by
      // repeat, so neither always meets the warmer machine; the bare handler and the peer go last,
      // and first in every other repeat, so that a ratio's two sides are not always in the same order.
      const beforeFirst = (i + repeat) % 2 === beforeFirstFrom;
      const pair: (Server | null)[] = beforeFirst ? [before, after] : [after, before];
      const others = [c.bare ? bare : null, c.peer ? peer : null];
      const order = repeat % 2 === 0 ? [...pair, ...others] : [...others.reverse(), ...pair];
      const r = {} as Round;
      for (const server of order) {
        if (!server) continue;
        r[server.name as keyof Round] = await run(server, repeat);
      }
      rounds.push(r);
    }
    const m: Measured = { case: c, statements, rounds, after: medianRun(rounds.map((r) => r.after))!, before: medianRun(rounds.map((r) => r.before)), bare: medianRun(rounds.map((r) => r.bare)), peer: medianRun(rounds.map((r) => r.peer)) };
    results.push(m);
    const fmt = (r?: LoadResult) =>
      r ? `${r.requestsPerSecond} req/s p99 ${r.p99Ms} ms ${r.cpuMsPerRequest ?? '-'} CPU ms/req${r.databaseCpuMsPerRequest === null ? '' : ` + ${r.databaseCpuMsPerRequest} PostgreSQL`}` : '';
    console.error(`${label}: ${fmt(m.after)}${m.before ? `; before ${fmt(m.before)}` : ''}${m.bare ? `; bare ${fmt(m.bare)}` : ''}${m.peer ? `; PostGraphile ${fmt(m.peer)}` : ''}`);
  }
} finally {
  await stopAll();
}

function firstDifference(a: unknown, b: unknown, path = '$', other = 'bare'): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) return `${path}: ${a.length} items against ${b.length}`;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, other);
      if (d) return d;
    }
  }
  return `${path}: API ${JSON.stringify(a)?.slice(0, 300)} against ${other} ${JSON.stringify(b)?.slice(0, 300)}`;
}

function idsDifference(api: { data: { id: unknown }[]; pageCount?: number }, floor: { data: { id: unknown }[]; pageCount?: number }): string | null {
  const ids = (body: typeof api) => body.data.map((r) => String(r.id));
  if (!isDeepStrictEqual(ids(api), ids(floor))) return `ids: API ${ids(api).join(',').slice(0, 300)} against bare ${ids(floor).join(',').slice(0, 300)}`;
  if (api.pageCount !== floor.pageCount) return `pageCount: API ${api.pageCount} against bare ${floor.pageCount}`;
  return null;
}

// ---- Report.

const apiRss = servers.find((s) => s.name === 'after')?.rss.maxMb ?? NaN;
const beforeRss = servers.find((s) => s.name === 'before')?.rss.maxMb;
const find = (name: string, connections = 10) => results.find((r) => r.case.name === name && r.case.connections === connections);
const ratio = (a?: number, b?: number) => (a === undefined || b === undefined || !b ? undefined : round(a / b, 2));

interface Target {
  goal: string;
  measured: string;
  pass: boolean | null;
  /** What else the same run measured that bears on the goal. */
  note?: string;
}
const targets: Target[] = [];
const target = (goal: string, value: number | undefined, unit: string, pass: (v: number) => boolean, note?: string) =>
  targets.push({ goal, measured: value === undefined || Number.isNaN(value) ? 'not measured' : `${value}${unit}`, pass: value === undefined || Number.isNaN(value) ? null : pass(value), note });
for (const name of ['GET /v1/tags', 'GET /v1/contacts/{id}/custom-fields']) {
  const r = find(name);
  target(`${name} >= 0.5x the bare handler's req/s (10 connections)`, pairedRatio(r, 'after', 'bare'), 'x', (v) => v >= 0.5, spread(r, 'after', 'bare'));
}
for (const name of ['GET /v1/tags', 'GET /v1/contacts/{id}/custom-fields']) {
  const r = find(name, 64);
  target(`${name} p99 < 5 ms at 64 connections`, r?.after.p99Ms, ' ms', (v) => v < 5, r?.bare ? latencyBound(r.bare) : undefined);
}
const nestedCase = find('GraphQL contacts(first: 50), every relation');
target('GraphQL nested page >= 0.5x the bare nested page', pairedRatio(nestedCase, 'after', 'bare'), 'x', (v) => v >= 0.5, spread(nestedCase, 'after', 'bare'));
target('GraphQL nested page >= 3x before (BENCH_BEFORE_DIR)', pairedRatio(nestedCase, 'after', 'before'), 'x', (v) => v >= 3, spread(nestedCase, 'after', 'before'));
if (engine === 'postgres') target("GraphQL nested page >= 1x PostGraphile's (PostgreSQL)", pairedRatio(nestedCase, 'after', 'peer'), 'x', (v) => v >= 1, spread(nestedCase, 'after', 'peer'));
target('Server RSS < 250 MB through the whole bench', apiRss, ' MB', (v) => v < 250);
for (const name of ['GET /v1/tags', 'GET /v1/contacts/{id}/custom-fields']) target(`${name} p99.9 < 100 ms at 10 connections`, find(name)?.after.p999Ms, ' ms', (v) => v < 100);

/** Each repeat's own ratio, when there was more than one: how far the machine moved them. */
function spread(m: Measured | undefined, top: keyof Round, bottom: keyof Round): string | undefined {
  if (!m || m.rounds.length < 2) return undefined;
  return `per repeat: ${m.rounds.map((r) => ratio(r[top]?.requestsPerSecond, r[bottom]?.requestsPerSecond) ?? '-').join(', ')}`;
}

/**
 * What the bare handler says of the p99 goal under the bench's closed load. With `connections`
 * requests always in flight, a request's mean time is about connections / throughput (Little's
 * law). The API runs the bare handler's statements and more on the same core, so its throughput
 * is at most the bare handler's and its mean at least the bare handler's; and a p99 is never below
 * the mean. When the bare handler's own mean is over the goal, no server doing this work on this
 * machine's one core can meet it.
 */
function latencyBound(bare: LoadResult, goalMs = 5) {
  const verdict =
    bare.meanMs >= goalMs
      ? ': out of reach here for any server running these statements on one core'
      : bare.p99Ms >= goalMs
        ? ': the bare handler itself misses it'
        : '';
  return `bare handler at ${bare.requestsPerSecond.toLocaleString('en')} req/s: mean ${bare.meanMs} ms, p99 ${bare.p99Ms} ms${verdict}`;
}

// PostgreSQL shares the two cores with the server under test: its CPU per request is part of the cost.
const postgresCpu = results.some((r) => r.after.databaseCpuMsPerRequest !== null);
/** The PostgreSQL CPU columns' cells (` | cell` each), or nothing when the run had no PostgreSQL. */
const pgCells = (...cells: string[]) => (postgresCpu ? cells.map((c) => ` | ${c}`).join('') : '');
const pgAligns = (n: number) => (postgresCpu ? '---:|'.repeat(n) : '');
const cell = (v: number | null | undefined) => (v === null || v === undefined ? '-' : v.toLocaleString('en'));
const seeded = dataset.seconds;
const peerResults = results.filter((r) => r.peer);
const postgraphileVersion = engine === 'postgres' ? (JSON.parse(readFileSync(join(repoRoot, 'node_modules/postgraphile/package.json'), 'utf8')) as { version: string }).version : '';
const header = [
  `${new Date().toISOString()} · Node ${process.version} · ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} · ${contacts.toLocaleString('en')} contacts, ${errorLogs.toLocaleString('en')} error logs, seed ${seed} (built by \`cli seed\` in ${round(seeded.seed, 1)} s, error logs in ${round(seeded.errorLogs, 1)} s)`,
  `autocannon in the bench process, ${repeats > 1 ? `${repeats} repeats of ` : ''}${seconds} s per case and server after a warm-up of 1 s, or up to ${warmupRequests} requests within 10 s (and ${warmupSeconds} s of the first case per server before any) · pinning: ${pinning.why}`,
  `server: ${afterMode === 'tsx (BENCH_TSX=1)' ? 'src/server.ts under tsx' : 'dist/src/server.js (npm run build)'}, NODE_ENV=production, LOG_LEVEL=info (access log to bench/data/server-*.log), rate limits on (budgets 10^9), RUN_WORKERS=false, EXPOSE_DB_STATEMENTS=true · bare handler: bench/baseline-server.ts under tsx (${engine === 'sqlite' ? 'better-sqlite3' : 'pg.Pool, named statements, as the API\'s prepared ones'})`,
  beforeDir
    ? `before: ${beforeDir} (${commitOf(beforeDir)}), ${beforeMode}; after: ${commitOf(repoRoot)}; the before server goes first in the ${beforeFirstFrom === 0 ? '1st, 3rd, 5th' : '2nd, 4th, 6th'}... case${repeats > 1 ? ", the other one in the next repeat; the bare handler last, and first in every other repeat" : ''}`
    : 'before: not run (set BENCH_BEFORE_DIR)',
  engine === 'postgres'
    ? `peer: PostGraphile ${postgraphileVersion} (bench/peer-postgraphile.ts under tsx, the API's node flags, pinned like the API), the public schema of the same database, no auth: the workspace is the query's condition`
    : 'peer: PostGraphile not run (PostgreSQL only)',
];
const report = [
  `# Benchmarks (${engine})`,
  '',
  ...header.map((l) => `${l}  `),
  '',
  failures.length ? `**FAILED**:\n\n${failures.map((f) => `- ${f}`).join('\n')}\n` : 'Every case: 0 errors, 0 non-2xx; parity checks passed.',
  ...(notes.length ? ['', ...notes.map((n) => `- ${n}`)] : []),
  '',
  '## Targets',
  '',
  '| goal | measured | pass | in the same run |',
  '|---|---:|---|---|',
  ...targets.map((t) => `| ${t.goal} | ${t.measured} | ${t.pass === null ? 'n/a' : t.pass ? 'pass' : 'FAIL'} | ${t.note ?? ''} |`),
  '',
  '## API beside the bare handler',
  '',
  `${repeats > 1 ? `Each server's median run of ${repeats} (by req/s); a ratio is the median of the ${repeats} ratios within a repeat. ` : ''}Latencies in ms (from every response time, not autocannon\'s whole-millisecond histogram); CPU: the server process\'s user + system time per request, from /proc${postgresCpu ? '; PG CPU: the local PostgreSQL server\'s (all its processes), per request, over the same seconds' : ''}; RSS: the server\'s peak VmRSS during the case (sampled every 250 ms).`,
  '',
  `| case | conns | API req/s | p50 | p99 | p99.9 | CPU ms/req${pgCells('PG CPU ms/req')} | SQL statements | RSS MB | bare req/s | bare p99 | bare CPU ms/req${pgCells('bare PG CPU ms/req')} | API / bare req/s | parity |`,
  `|---|---:|---:|---:|---:|---:|---:|${pgAligns(1)}---:|---:|---:|---:|---:|${pgAligns(1)}---:|---|`,
  ...results.map(
    (r) =>
      `| ${r.case.name} | ${r.case.connections} | ${cell(r.after.requestsPerSecond)} | ${r.after.p50Ms} | ${r.after.p99Ms} | ${r.after.p999Ms} | ${cell(r.after.cpuMsPerRequest)}${pgCells(cell(r.after.databaseCpuMsPerRequest))} | ${cell(r.statements)} | ${cell(r.after.rssMaxMb)} | ${cell(r.bare?.requestsPerSecond)} | ${cell(r.bare?.p99Ms)} | ${cell(r.bare?.cpuMsPerRequest)}${pgCells(cell(r.bare?.databaseCpuMsPerRequest))} | ${cell(pairedRatio(r, 'after', 'bare'))} | ${r.case.bare && r.case.parity ? r.case.parity : '-'} |`,
  ),
  '',
  `Server peak RSS over the whole bench: ${apiRss} MB${beforeRss !== undefined ? ` (before: ${beforeRss} MB)` : ''}.`,
  '',
  ...(peerResults.length
    ? [
        '## API beside PostGraphile',
        '',
        `The same page asked of PostGraphile ${postgraphileVersion} over the same tables (bench/peer-postgraphile.ts; its contacts, fields and relations' ids checked against the API's before the load). PostGraphile has no token, rate limit or access log: it does less per page than the API. CPU: the server process's per page, from /proc; PG CPU: PostgreSQL's (all its processes) per page.`,
        '',
        `| case | conns | API req/s | PostGraphile req/s | API / PostGraphile req/s | API p99 | PostGraphile p99 | API CPU ms/page | PostGraphile CPU ms/page | API PG CPU ms/page | PostGraphile PG CPU ms/page | API RSS MB | PostGraphile RSS MB |`,
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
        ...peerResults.map(
          (r) =>
            `| ${r.case.name} | ${r.case.connections} | ${cell(r.after.requestsPerSecond)} | ${cell(r.peer?.requestsPerSecond)} | ${cell(pairedRatio(r, 'after', 'peer'))} | ${r.after.p99Ms} | ${cell(r.peer?.p99Ms)} | ${cell(r.after.cpuMsPerRequest)} | ${cell(r.peer?.cpuMsPerRequest)} | ${cell(r.after.databaseCpuMsPerRequest)} | ${cell(r.peer?.databaseCpuMsPerRequest)} | ${cell(r.after.rssMaxMb)} | ${cell(r.peer?.rssMaxMb)} |`,
        ),
        '',
      ]
    : []),
  ...(beforeDir
    ? [
        '## Before / after',
        '',
        `| case | conns | before req/s | after req/s | after / before | before p99 | after p99 | before CPU ms/req | after CPU ms/req | CPU after / before${pgCells('before PG CPU ms/req', 'after PG CPU ms/req')} | before RSS MB | after RSS MB |`,
        `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|${pgAligns(2)}---:|---:|`,
        ...results.map(
          (r) =>
            `| ${r.case.name} | ${r.case.connections} | ${cell(r.before?.requestsPerSecond)} | ${cell(r.after.requestsPerSecond)} | ${cell(pairedRatio(r, 'after', 'before'))} | ${cell(r.before?.p99Ms)} | ${r.after.p99Ms} | ${cell(r.before?.cpuMsPerRequest)} | ${cell(r.after.cpuMsPerRequest)} | ${cell(ratio(r.after.cpuMsPerRequest ?? undefined, r.before?.cpuMsPerRequest ?? undefined))}${pgCells(cell(r.before?.databaseCpuMsPerRequest), cell(r.after.databaseCpuMsPerRequest))} | ${cell(r.before?.rssMaxMb)} | ${cell(r.after.rssMaxMb)} |`,
        ),
        '',
      ]
    : []),
].join('\n');

writeResult(`latest-${engine}.md`, report);
writeResult(
  `latest-${engine}.json`,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, engine, contacts, errorLogs, seed, seconds, pinning: pinning.why, afterMode, beforeDir, beforeMode, dataset: { seconds: dataset.seconds }, rssMaxMb: { after: apiRss, before: beforeRss }, targets, failures, notes, results }, null, 2),
);
console.log(report);
if (failures.length > 0) process.exit(1);
