// `npm run bench:instructions -- [case ...]`: the instructions each server executes per request of
// a bench case, counted by valgrind's callgrind, which counts instructions, not seconds: the figure
// does not move with what else the machine runs, where req/s and CPU time here moved 2x between
// minutes (counts of one server still differ by about a tenth, with where its collections fall).
// Use it to read a before/after ratio that a noisy machine leaves in doubt.
// Each server (this checkout; BENCH_BEFORE_DIR's; the bare handler) runs under callgrind. Per case:
// INSTR_WARMUP requests (200) so that V8 has optimised the path, then INSTR_REPEATS (3) times:
// counters zeroed, requests one after another for about INSTR_BUDGET instructions (2e9), counters
// dumped (callgrind_control). Every instruction of the process counts, V8's compiler and GC threads
// included. Cases: substrings of a case name with its connections as run.ts names them (default:
// the cheap reads at 10 connections and the nested page); the REST fan-out has no single request
// and is left out. Options as run.ts: BENCH_DATABASE_URL, BENCH_CONTACTS, BENCH_ERROR_LOGS, BENCH_SEED.
// Results: printed; with --save also bench/results/instructions-<engine>.md and .json, otherwise only
// the ignored bench/results/instructions-<engine>.*.tmp.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { apiRequest, apiServerEnv, bareRequest, benchCases, type Case } from './cases.js';
import { ensureDataset } from './dataset.js';
import { build, commitOf, repoRoot, round, scriptArgs, serveFlags, serverHost, startServer, stopServer, writeResult, type Server } from './lib.js';

const wanted = scriptArgs.length > 0 ? scriptArgs : ['tags @10', 'custom-fields @10', 'every relation'];
const warmup = Number(process.env.INSTR_WARMUP ?? 200);
const budget = Number(process.env.INSTR_BUDGET ?? 2e9);
const repeats = Number(process.env.INSTR_REPEATS ?? 3);
const contacts = Number(process.env.BENCH_CONTACTS ?? 100_000);
const beforeDir = process.env.BENCH_BEFORE_DIR ? resolve(process.env.BENCH_BEFORE_DIR) : null;

const dataDir = join(import.meta.dirname, 'data');
const outDir = join(dataDir, 'callgrind');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

build(repoRoot);
if (beforeDir) build(beforeDir);
const dataset = await ensureDataset({
  databaseUrl: process.env.BENCH_DATABASE_URL,
  contacts,
  errorLogs: Number(process.env.BENCH_ERROR_LOGS ?? 1_000_000),
  seed: Number(process.env.BENCH_SEED ?? 42),
});
const auth = { authorization: `Bearer ${dataset.token}` };

/** A server under callgrind, counting from start; callgrind_control zeroes and dumps its counters. */
const underCallgrind = (name: string, opts: { cwd: string; script: string; tsx: boolean; nodeFlags: string[]; env: Record<string, string> }) =>
  startServer({
    name,
    ...opts,
    logFile: join(dataDir, `server-${name}-callgrind-${dataset.engine}.log`),
    wrapper: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${join(outDir, `${name}.%p`)}`],
    startupSeconds: 600,
  });

/** callgrind_control (vgdb) finds the process by files named after its HOST. */
const control = (server: Server, command: '-z' | '-d') =>
  execFileSync('callgrind_control', [command, String(server.pid)], { env: { ...process.env, HOST: serverHost }, stdio: 'pipe' });

/** The newest dump's instruction count (its `summary:` line). */
function lastDump(server: Server): number {
  const prefix = `${server.name}.${server.pid}.`;
  const dumps = readdirSync(outDir)
    .filter((f) => f.startsWith(prefix))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
  const text = readFileSync(join(outDir, dumps.at(-1)!), 'utf8');
  return Number(/^summary: (\d+)$/m.exec(text)![1]);
}

async function send(server: Server, c: Case, bare: boolean, n: number) {
  const init = bare ? bareRequest(c.bare!) : apiRequest(c, auth);
  const url = server.url + (bare ? c.bare!.path : c.path);
  for (let i = 0; i < n; i++) {
    const r = await fetch(url, init);
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`${server.name}: ${c.name}: HTTP ${r.status}`);
  }
}

/** The instructions of `n` requests. */
async function instructions(server: Server, c: Case, bare: boolean, n: number): Promise<number> {
  control(server, '-z');
  await send(server, c, bare, n);
  control(server, '-d');
  return lastDump(server);
}

/**
 * Millions of instructions per request, each of the repeats. A count spans `budget` instructions
 * (so many requests as a probe of 10 says), so that each holds many young-generation collections
 * and one falling inside or outside it moves the figure little: in counts of 50 requests, a cheap
 * read measured 0.97 to 2.24 M. One count's worth of requests more of warm-up comes first.
 */
async function count(server: Server, c: Case, bare = false): Promise<{ requests: number; millions: number[] }> {
  await send(server, c, bare, warmup);
  const n = Math.min(5000, Math.max(10, Math.ceil(budget / ((await instructions(server, c, bare, 10)) / 10))));
  await send(server, c, bare, n);
  const millions: number[] = [];
  for (let i = 0; i < repeats; i++) millions.push(round((await instructions(server, c, bare, n)) / n / 1e6, 2));
  return { requests: n, millions };
}

// The mean, not the median: the counts follow one another, and a collection of the old generation
// falls into one of them. It is part of what the requests cost (a median of three left it out).
const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / xs.length, 2);
const apiServer = (name: string, dir: string) =>
  underCallgrind(name, { cwd: dir, script: 'dist/src/server.js', tsx: false, nodeFlags: serveFlags(dir), env: apiServerEnv(dataset.databaseUrl) });

type Counted = Awaited<ReturnType<typeof count>>;
const rows: { case: string; after: Counted; before?: Counted; bare?: Counted }[] = [];
const after = await apiServer('after', repoRoot);
let cases: Case[];
try {
  cases = (await benchCases({ apiUrl: after.url, auth, sampleContactId: String(Math.floor(contacts / 2)) })).filter(
    (c) => !c.requests && wanted.some((w) => `${c.name} @${c.connections}`.includes(w)),
  );
  if (cases.length === 0) throw new Error(`no case matches ${wanted.join(', ')}`);
  for (const c of cases) rows.push({ case: c.name, after: await count(after, c) });
} finally {
  await stopServer(after);
}
// One server at a time: callgrind runs a program 50 to 100 times slower, on one core.
if (beforeDir) {
  const before = await apiServer('before', beforeDir);
  try {
    for (const [i, c] of cases.entries()) rows[i]!.before = await count(before, c);
  } finally {
    await stopServer(before);
  }
}
const bare = await underCallgrind('bare', {
  cwd: repoRoot,
  script: 'bench/baseline-server.ts',
  tsx: true,
  nodeFlags: [],
  env: { DATABASE_URL: dataset.databaseUrl, BENCH_WORKSPACE_ID: String(dataset.workspaceId) },
});
try {
  for (const [i, c] of cases.entries()) if (c.bare) rows[i]!.bare = await count(bare, c, true);
} finally {
  await stopServer(bare);
}

/** `a`'s throughput as a multiple of `b`'s on one core, from their instructions per request (`b`'s over `a`'s): read as the bench's req/s ratios. */
const times = (a?: Counted, b?: Counted) => (a && b ? `${round(mean(b.millions) / mean(a.millions), 2)}x` : '-');
const cell = (x?: Counted) => (x ? `${mean(x.millions)} (${x.millions.join(', ')}; ${x.requests} requests each)` : '-');
const report = [
  `# Instructions per request (${dataset.engine})`,
  '',
  `${new Date().toISOString()} · Node ${process.version} · valgrind callgrind, every thread of the server process · ${warmup} requests of warm-up per case, then ${repeats} counts of about ${budget / 1e9} G instructions each, requests one at a time · after: ${commitOf(repoRoot)}${beforeDir ? ` · before: ${beforeDir} (${commitOf(beforeDir)})` : ''}`,
  '',
  'Millions of instructions per request: all counts together (their mean, as they hold the same number of requests), each count in brackets.',
  '',
  '| case | after | before | bare | after, x before | after, x bare |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.case} | ${cell(r.after)} | ${cell(r.before)} | ${cell(r.bare)} | ${times(r.after, r.before)} | ${times(r.after, r.bare)} |`),
  '',
].join('\n');
writeResult(`instructions-${dataset.engine}.md`, report);
writeResult(`instructions-${dataset.engine}.json`, JSON.stringify({ date: new Date().toISOString(), warmup, budget, repeats, rows }, null, 2));
console.log(report);
