import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';

export const repoRoot = join(import.meta.dirname, '..');
/** Every server under test listens here (its HOST); callgrind_control finds a server by it too. */
export const serverHost = '127.0.0.1';

/**
 * The tracked reports under bench/results/ change only when a run is asked to keep its results:
 * `--save` on the command line (`npm run bench -- --save`). Without it a report is printed and
 * written beside its tracked file as `<name>.tmp` (git ignores bench/results/*.tmp), so trying a
 * change never rewrites the results a reader compares against.
 */
export const saveResults = process.argv.slice(2).includes('--save');
/** The script's own arguments (case or configuration names), without `--save`. */
export const scriptArgs = process.argv.slice(2).filter((arg) => arg !== '--save');

/** Writes one report file under bench/results/ (`<name>.tmp` unless --save) and says where on stderr. */
export function writeResult(name: string, text: string): string {
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, saveResults ? name : `${name}.tmp`);
  writeFileSync(file, text);
  console.error(saveResults ? `saved ${file}` : `wrote ${file} (not saved: add --save to update bench/results/${name})`);
  return file;
}

/** A checkout's commit, for the reports' headers. */
export const commitOf = (dir: string) => execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h'], { encoding: 'utf8' }).trim();

/** Compiles a checkout's server to dist/ with its tsconfig.build.json, or this repo's copied in when it has none; says which. */
export function build(dir: string): string {
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  let how = 'compiled with its tsconfig.build.json';
  if (!existsSync(join(dir, 'tsconfig.build.json'))) {
    copyFileSync(join(repoRoot, 'tsconfig.build.json'), join(dir, 'tsconfig.build.json'));
    how = "compiled with this repo's tsconfig.build.json (it has none)";
  }
  console.error(`building ${dir}`);
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  return how;
}

/** Node's arguments to run TypeScript: tsx's loader (its thread holds about 100 MB), or none for compiled JavaScript. */
export const nodeArgs = (tsx: boolean) => (tsx ? ['--import', 'tsx'] : []);

export interface LoadResult {
  name: string;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  /** The mean response time: with a closed load, about connections / throughput (Little's law). */
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  errors: number;
  non2xx: number;
  /** Status codes other than 2xx, by code: what a failing case saw. */
  statusCodes: Record<string, number>;
  /** The server's CPU time (user + system) per request, from /proc: steadier than req/s on a shared machine. */
  cpuMsPerRequest: number | null;
  /** The local PostgreSQL server's CPU time per request (every `postgres` process), when asked: its share of the same cores. */
  databaseCpuMsPerRequest: number | null;
  statements?: number;
  rssMaxMb?: number;
}

/**
 * Pinning: the server under test on CPU 0, the load generator (this process, autocannon runs in
 * it) on CPU 1, so they do not take turns on one core. Linux with taskset and two cores or more;
 * BENCH_PIN=0 turns it off.
 */
export const pinning = (() => {
  if (process.env.BENCH_PIN === '0') return { enabled: false, why: 'off (BENCH_PIN=0)' };
  if (process.platform !== 'linux') return { enabled: false, why: `off (${process.platform})` };
  if (availableParallelism() < 2) return { enabled: false, why: 'off (one CPU)' };
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
  } catch {
    return { enabled: false, why: 'off (no taskset)' };
  }
  return { enabled: true, why: 'server under test (and the bare handler, run at other times) on CPU 0, autocannon (the bench process) on CPU 1' };
})();

/** Moves every thread of this process (autocannon's, libuv's) to CPU 1. */
export function pinLoadGenerator() {
  if (pinning.enabled) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
}

/** Load one URL for `seconds` with `connections` (10 unless told), measuring the server `pid`'s CPU meanwhile. */
export async function load(
  name: string,
  url: string,
  opts: { headers?: Record<string, string>; seconds?: number; method?: string; body?: string; connections?: number; pid?: number; requests?: autocannon.Request[]; database?: boolean } = {},
): Promise<LoadResult> {
  const connections = opts.connections ?? 10;
  const cpuBefore = cpuMs(opts.pid);
  const databaseBefore = opts.database ? postgresCpuMs() : null;
  // autocannon's histogram keeps whole milliseconds; a p99 target of 5 ms needs the fractions, so
  // every response time is kept here and the percentiles taken from them.
  const times: number[] = [];
  const statusCodes: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration: opts.seconds ?? 8, headers: opts.headers, method: (opts.method ?? 'GET') as 'GET', body: opts.body, requests: opts.requests },
      (err, done) => (err ? reject(err as Error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
      else statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    });
  });
  const cpuAfter = cpuMs(opts.pid);
  const databaseAfter = opts.database ? postgresCpuMs() : null;
  times.sort((a, b) => a - b);
  const at = (p: number) => round(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] ?? NaN, 2);
  const total = result.requests.total;
  return {
    name,
    connections,
    requests: total,
    requestsPerSecond: Math.round(total / result.duration),
    meanMs: round(times.reduce((sum, t) => sum + t, 0) / times.length, 2),
    p50Ms: at(50),
    p99Ms: at(99),
    p999Ms: at(99.9),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    cpuMsPerRequest: cpuBefore === null || cpuAfter === null || total === 0 ? null : round((cpuAfter - cpuBefore) / total, 3),
    databaseCpuMsPerRequest: databaseOf(databaseBefore, databaseAfter, total),
  };
}

const databaseOf = (before: Map<number, number> | null, after: Map<number, number> | null, requests: number) => {
  const ms = before && after && requests > 0 ? postgresCpuBetween(before, after) : null;
  return ms === null ? null : round(ms / requests, 3);
};

export const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The nearest-rank percentile `p` (0-100] of values sorted ascending; NaN when there are none. */
export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  rss: RssSampler;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/**
 * The node flags a checkout's `npm run serve` starts its server with (the heap limit, docs/operations.md
 * "Memory"), so that the bench runs each server as production does.
 */
export function serveFlags(dir: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const flags = /\bnode\s+(.*?)\s*dist\//.exec(scripts.serve ?? '')?.[1] ?? '';
  return flags.split(/\s+/).filter((flag) => flag.startsWith('--'));
}

/**
 * Starts a server script (compiled JavaScript, or TypeScript with `tsx`) pinned to CPU 0 when
 * pinning is on, its stdout and stderr in `logFile` (the access log is part of what is measured,
 * and must not cost a terminal's speed), and waits until it answers HTTP on PORT.
 */
export async function startServer(opts: {
  name: string;
  script: string;
  cwd: string;
  env: Record<string, string>;
  logFile: string;
  tsx?: boolean;
  nodeFlags?: string[];
  /** A command node runs under instead of taskset (valgrind, for bench/instructions.ts). */
  wrapper?: string[];
  startupSeconds?: number;
  /** false: not pinned to CPU 0 even when pinning is on (a server whose own threads need both cores). */
  pin?: boolean;
}): Promise<Server> {
  const port = await freePort();
  const argv = [...(opts.nodeFlags ?? []), ...nodeArgs(opts.tsx ?? false), opts.script];
  const [command, args] = opts.wrapper
    ? [opts.wrapper[0]!, [...opts.wrapper.slice(1), process.execPath, ...argv]]
    : pinning.enabled && opts.pin !== false
      ? ['taskset', ['-c', '0', process.execPath, ...argv]]
      : [process.execPath, argv];
  const log = openSync(opts.logFile, 'w');
  // taskset execs node, and valgrind runs it in its own process: either way the child's pid is the server's, for /proc.
  const child = spawn(command, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env, PORT: String(port), HOST: serverHost }, stdio: ['ignore', log, log] });
  closeSync(log);
  const url = `http://${serverHost}:${port}`;
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${opts.name} exited with ${code} before answering; its log (${opts.logFile}):\n${tail(opts.logFile)}`);
  });
  const startupSeconds = opts.startupSeconds ?? 120;
  const deadline = Date.now() + startupSeconds * 1000;
  for (;;) {
    // Any HTTP answer will do: the server listens only once migrated and built.
    const up = await Promise.race([fetch(`${url}/readyz`).then(() => true, () => false), exited]);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} did not answer within ${startupSeconds} s; its log:\n${tail(opts.logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  exited.catch(() => {});
  return { name: opts.name, url, child, pid: child.pid!, logFile: opts.logFile, rss: new RssSampler(child.pid!) };
}

const tail = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
};

export async function stopServer(server: Server) {
  server.rss.stop();
  await stopProcess(server.child);
}

export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The server's resident memory (VmRSS) every 250 ms for as long as it runs: the peak of the whole
 * run, and the peak since the last `caseMax()` (one case's).
 */
export class RssSampler {
  maxMb = 0;
  private sinceMark = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 250);
    this.timer.unref();
    this.sample();
  }
  sample() {
    const mb = rssMb(this.pid);
    if (mb === null) return;
    this.maxMb = Math.max(this.maxMb, mb);
    this.sinceMark = Math.max(this.sinceMark, mb);
  }
  /** The peak since the previous call (the current value counts too), then starts a new period. */
  caseMax(): number {
    this.sample();
    const peak = this.sinceMark;
    this.sinceMark = 0;
    return peak;
  }
  stop() {
    this.sample();
    clearInterval(this.timer);
  }
}

export function rssMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : round(Number(kb) / 1024, 1);
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; null elsewhere): the
 * server's CPU per event or request is steadier than its throughput on a machine shared with the
 * load generator and with neighbours.
 */
export function cpuMs(pid: number | undefined, thread: 'process' | 'main' = 'process'): number | null {
  if (pid === undefined) return null;
  try {
    // The main thread's own line (task/<pid>) leaves out the GC and libuv threads.
    return cpuMsOfStat(readFileSync(thread === 'main' ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}
const ticksPerSecond = 100;

/**
 * Waits until the server `pid` (and, with `database`, the local PostgreSQL server) has gone idle:
 * under 10 ms of CPU in a 250 ms window. When a load stops, the requests still in flight go on
 * (a slow search's ten can hold a core for seconds), and every server is pinned to the same core:
 * the next load would share it with them, and measure fewer requests at the same CPU per request.
 */
export async function untilIdle(pid: number, database = false, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let server = cpuMs(pid) ?? 0;
  let postgres = database ? postgresCpuMs() : null;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const serverNow = cpuMs(pid) ?? 0;
    const postgresNow = database ? postgresCpuMs() : null;
    const spent = serverNow - server + (postgres && postgresNow ? (postgresCpuBetween(postgres, postgresNow) ?? 0) : 0);
    if (spent < 10) return;
    server = serverNow;
    postgres = postgresNow;
  }
}

/** utime + stime (ms) of a /proc stat line: fields 14 and 15 of the line, 12 and 13 after the command name. */
function cpuMsOfStat(line: string): number {
  const fields = line.replace(/^.*\) /s, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/**
 * CPU time (ms) of each process of the local PostgreSQL server (its backends, the bench's
 * connections among them, and its background workers) so far, by pid. The bench's PostgreSQL runs
 * on the same two cores as the server under test: a statement that costs PostgreSQL more leaves
 * the server less, which the server's own CPU does not show.
 */
export function postgresCpuMs(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const line = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!line.includes(' (postgres) ')) continue;
      byPid.set(Number(entry), cpuMsOfStat(line));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return byPid;
}

/**
 * PostgreSQL's CPU between two snapshots, or null where there was no PostgreSQL to see. By
 * process: a backend that ends meanwhile (the previous server's connections closing) must not
 * take its whole life's CPU off the total, and one that starts meanwhile counts from zero.
 */
export function postgresCpuBetween(before: Map<number, number>, after: Map<number, number>): number | null {
  if (after.size === 0) return null;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * Starts a TypeScript script with tsx (the engine and saturation benches' servers, which print a
 * "listening on" line), its stdout read for the URL.
 */
export async function startProcess(script: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  // BENCH_CPU_PROF_DIR: the server writes a V8 CPU profile there when it exits (bench/top-functions.ts reads it).
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF_DIR] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/i.exec(output);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
  return { url, child };
}

/**
 * The server a bench runs: src/server.ts under tsx (`tsx`), or compiled to bench/data/<name>-dist,
 * an output directory of the bench's own, so a build of dist/ by someone else meanwhile cannot
 * change what runs. `mode` says which, for the report.
 */
export function benchServerScript(name: string, tsx: boolean): { mode: string; script: string } {
  if (tsx) return { mode: 'src/server.ts under tsx (BENCH_TSX=1)', script: 'src/server.ts' };
  const outDir = join(repoRoot, 'bench/data', `${name}-dist`);
  console.error(`compiling the server to ${outDir}`);
  execFileSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: repoRoot, stdio: 'inherit' });
  return { mode: `compiled (tsconfig.build.json to bench/data/${name}-dist), node ${serveFlags(repoRoot).join(' ')}`, script: join(outDir, 'src/server.js') };
}

/**
 * A migrated database of a bench's own: a SQLite file in a new temporary folder, or on the
 * PostgreSQL of `requestedUrl` the schemas `schema` (its data) and `workerSchema` (its jobs),
 * dropped and made again (the database may be the tests': their schemas and the shared pg_trgm
 * in public stay as they are; the extension goes to public, as the tests install it, so that it
 * never belongs to a schema a bench drops). Answers its URL and an open handle.
 */
export async function benchDatabase(name: string, requestedUrl: string | undefined, schema: string, workerSchema: string): Promise<{ url: string; setup: Database }> {
  let url = join(mkdtempSync(join(tmpdir(), `${name}-bench-`)), `${name}.db`);
  if (requestedUrl?.startsWith('postgres')) {
    const pg = new URL(requestedUrl);
    pg.searchParams.set('options', `-c search_path=${schema},public`);
    url = pg.toString();
  }
  const setup = createDatabase(url);
  if (setup.engine === 'postgres') {
    await sql`create extension if not exists pg_trgm with schema public`.execute(setup.db).catch(() => {});
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(setup.db);
    await sql`drop schema if exists ${sql.id(workerSchema)} cascade`.execute(setup.db);
    await sql`create schema ${sql.id(schema)}`.execute(setup.db);
  }
  await migrateToLatest(setup.db);
  return { url, setup };
}

/** The environment of a bench's server that runs its own jobs, with rate limits that never bite. */
export const jobServerEnv = (url: string, workerSchema: string): Record<string, string> => ({
  DATABASE_URL: url,
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  SEED_DEMO: 'false',
  RUN_WORKERS: 'true',
  WORKER_SCHEMA: workerSchema,
  RATE_LIMIT_IP_POINTS: '1000000000',
  RATE_LIMIT_WORKSPACE_POINTS: '1000000000',
});
