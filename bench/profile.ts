// `npm run bench:profile -- <case>`: a V8 CPU profile of the compiled server under one bench case:
// its CPU per request by area of the code, and its top functions by self and inclusive time, so the
// next change starts from a measurement. <case>: a substring of a case name and its connections as
// run.ts names them ("tags", "tags @64", "every relation"); the first match is loaded, after
// BENCH_WARMUP seconds (3) of the same load; the reports count only the measured load's samples.
// BENCH_PROFILE_SERVER=bare profiles the bare handler on the case's bare request instead, for the
// same report of the hand-written page. Options as run.ts: BENCH_DATABASE_URL, BENCH_SECONDS (10
// here), BENCH_PIN, BENCH_TSX; BENCH_TOP (30 functions per list). The profile stays in
// bench/data/profiles/ for Chrome DevTools or `npx tsx bench/top-functions.ts <file>`.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { apiServerEnv, BENCH_PUBLIC_BASE_URL, benchCases, type Case } from './cases.js';
import { ensureDataset } from './dataset.js';
import { build, load, pinLoadGenerator, pinning, repoRoot, scriptArgs, serveFlags, startServer, stopServer, type Server } from './lib.js';
import { areaReport, topFunctions, type ProfileWindow } from './top-functions.js';

const wanted = scriptArgs[0] ?? 'tags';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const contacts = Number(process.env.BENCH_CONTACTS ?? 100_000);
const tsx = process.env.BENCH_TSX === '1';
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 3);
const bare = process.env.BENCH_PROFILE_SERVER === 'bare';
if (!bare && (process.env.BENCH_PROFILE_SERVER ?? 'api') !== 'api') throw new Error(`BENCH_PROFILE_SERVER is api or bare (got ${process.env.BENCH_PROFILE_SERVER})`);

pinLoadGenerator();
if (!tsx) build(repoRoot);
const dataset = await ensureDataset({
  databaseUrl: process.env.BENCH_DATABASE_URL,
  contacts,
  errorLogs: Number(process.env.BENCH_ERROR_LOGS ?? 1_000_000),
  seed: Number(process.env.BENCH_SEED ?? 42),
});
const dir = join(import.meta.dirname, 'data', 'profiles');
mkdirSync(dir, { recursive: true });
const startedAt = Date.now();
const apiServer = (name: string, nodeFlags: string[], logFile: string) =>
  startServer({ name, cwd: repoRoot, script: tsx ? 'src/server.ts' : 'dist/src/server.js', tsx, nodeFlags, env: apiServerEnv(dataset.databaseUrl), logFile });
const logFile = (name: string) => join(import.meta.dirname, 'data', `server-${name}-${dataset.engine}.log`);
const auth = { authorization: `Bearer ${dataset.token}` };
const casesFrom = (api: Server) => benchCases({ apiUrl: api.url, auth, sampleContactId: String(Math.floor(contacts / 2)) });
// The cases are made from the API's answers (a page's ids, the filter fields): for the bare
// handler, an API server that is not profiled answers them first.
let cases: Case[] | null = null;
if (bare) {
  const api = await apiServer('cases', serveFlags(repoRoot), logFile('cases'));
  try {
    cases = await casesFrom(api);
  } finally {
    await stopServer(api);
  }
}
const flags = [...serveFlags(repoRoot), '--cpu-prof', '--cpu-prof-dir', dir];
const server = bare
  ? // The bare handler as run.ts starts it (under tsx), with the API's node flags.
    await startServer({ name: 'profiled-bare', cwd: repoRoot, script: 'bench/baseline-server.ts', tsx: true, nodeFlags: flags, env: { DATABASE_URL: dataset.databaseUrl, BENCH_WORKSPACE_ID: String(dataset.workspaceId), BENCH_PUBLIC_BASE_URL }, logFile: logFile('profiled-bare') })
  : await apiServer('profiled', flags, logFile('profiled'));
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
let measured: { requests: number; window: ProfileWindow } | null = null;
try {
  cases ??= await casesFrom(server);
  const c = cases.find((x) => `${x.name} @${x.connections}`.includes(wanted));
  if (!c) throw new Error(`no case matches "${wanted}"; cases: ${cases.map((x) => `${x.name} @${x.connections}`).join('; ')}`);
  if (bare && !c.bare) throw new Error(`${c.name} has no bare request`);
  const name = `${c.name} @${c.connections}${bare ? ' (bare handler)' : ''}`;
  const request = bare
    ? { url: server.url + c.bare!.path, method: c.bare!.method, body: c.bare!.body, headers: { 'content-type': 'application/json' } }
    : { url: server.url + c.path, method: c.method, body: c.body, headers: c.body ? { ...auth, 'content-type': 'application/json' } : auth };
  const run = (secs: number) =>
    load(name, request.url, { ...request, connections: c.connections, seconds: secs, pid: server.pid, requests: c.requests?.map((path) => ({ method: 'GET' as const, path })) });
  console.error(`profiling ${name} for ${seconds} s after ${warmupSeconds} s of warm-up (${dataset.engine}; pinning ${pinning.enabled ? 'on' : 'off'})`);
  if (warmupSeconds > 0) await run(warmupSeconds);
  const fromUs = monotonicUs();
  const result = await run(seconds);
  measured = { requests: result.requests, window: { fromUs, toUs: monotonicUs() } };
  console.log(`${name}: ${result.requestsPerSecond} req/s, p99 ${result.p99Ms} ms, ${result.cpuMsPerRequest} CPU ms/request, ${result.errors + result.non2xx} errors or non-2xx`);
} finally {
  // SIGTERM: the server closes and exits by itself, and V8 writes the profile on the way out.
  await stopServer(server);
}
// The main thread's profile (thread 0): under tsx, its loader thread writes one of its own.
const written = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${server.pid}.0.`))
  .map((f) => join(dir, f))
  .filter((f) => statSync(f).mtimeMs >= startedAt)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!written) throw new Error(`the server wrote no profile to ${dir} (its exit code: ${server.child.exitCode}); see ${server.logFile}`);
console.log(`profile: ${written} (the whole process life; the reports below count the measured load only)`);
if (measured) {
  const byArea = areaReport(written, measured.requests, measured.window);
  const width = Math.max(...byArea.map(({ area }) => area.length));
  console.log(`\nCPU per request by area (us, ${measured.requests} requests; idle is time the profiler found the thread waiting)`);
  for (const { area, usPerRequest } of byArea) console.log(`${area.padEnd(width)}  ${String(usPerRequest).padStart(6)}`);
  console.log(`${'all'.padEnd(width)}  ${String(byArea.reduce((sum, a) => sum + a.usPerRequest, 0)).padStart(6)}`);
}
console.log(topFunctions(written, Number(process.env.BENCH_TOP ?? 30), measured?.window));
