// `npm run bench:profile -- <case>`: a V8 CPU profile of the compiled server under one bench case,
// and its top functions by self and inclusive time, so the next change starts from a measurement.
// <case>: a substring of a case name and its connections as run.ts names them ("tags", "tags @64",
// "every relation"); the first match is loaded. Options as run.ts: BENCH_DATABASE_URL, BENCH_SECONDS
// (10 here), BENCH_PIN, BENCH_TSX; BENCH_TOP (30 functions per list). The profile stays in
// bench/data/profiles/ for Chrome DevTools or `npx tsx bench/top-functions.ts <file>`.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { apiServerEnv, benchCases } from './cases.js';
import { ensureDataset } from './dataset.js';
import { build, load, pinLoadGenerator, pinning, repoRoot, scriptArgs, serveFlags, startServer, stopServer } from './lib.js';
import { topFunctions } from './top-functions.js';

const wanted = scriptArgs[0] ?? 'tags';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const contacts = Number(process.env.BENCH_CONTACTS ?? 100_000);
const tsx = process.env.BENCH_TSX === '1';

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
const server = await startServer({
  name: 'profiled',
  cwd: repoRoot,
  script: tsx ? 'src/server.ts' : 'dist/src/server.js',
  tsx,
  nodeFlags: [...serveFlags(repoRoot), '--cpu-prof', '--cpu-prof-dir', dir],
  env: apiServerEnv(dataset.databaseUrl),
  logFile: join(import.meta.dirname, 'data', `server-profiled-${dataset.engine}.log`),
});
const auth = { authorization: `Bearer ${dataset.token}` };
let name = '';
try {
  const cases = await benchCases({ apiUrl: server.url, auth, sampleContactId: String(Math.floor(contacts / 2)) });
  const c = cases.find((x) => `${x.name} @${x.connections}`.includes(wanted));
  if (!c) throw new Error(`no case matches "${wanted}"; cases: ${cases.map((x) => `${x.name} @${x.connections}`).join('; ')}`);
  name = `${c.name} @${c.connections}`;
  console.error(`profiling ${name} for ${seconds} s (${dataset.engine}; pinning ${pinning.enabled ? 'on' : 'off'})`);
  const result = await load(name, server.url + c.path, {
    method: c.method,
    body: c.body,
    headers: c.body ? { ...auth, 'content-type': 'application/json' } : auth,
    connections: c.connections,
    seconds,
    pid: server.pid,
    requests: c.requests?.map((path) => ({ method: 'GET' as const, path })),
  });
  console.log(`${name}: ${result.requestsPerSecond} req/s, p99 ${result.p99Ms} ms, ${result.cpuMsPerRequest} CPU ms/request, ${result.errors + result.non2xx} errors or non-2xx`);
} finally {
  // SIGTERM: the server closes and exits by itself, and V8 writes the profile on the way out.
  await stopServer(server);
}
const written = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(dir, f))
  .filter((f) => statSync(f).mtimeMs >= startedAt)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!written) throw new Error(`the server wrote no profile to ${dir} (its exit code: ${server.child.exitCode}); see ${server.logFile}`);
console.log(`profile: ${written} (the whole process life, start-up included)`);
console.log(topFunctions(written, Number(process.env.BENCH_TOP ?? 30)));
