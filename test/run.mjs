#!/usr/bin/env node
// `npm test`: the whole suite. Always on SQLite (temp files, nothing to install), with in-memory
// rate limits as on a fresh clone. Again on PostgreSQL when DATABASE_URL is a postgres:// URL.
// With REDIS_URL, rate limits go through Redis in the last suite that runs (PostgreSQL when it
// runs, otherwise SQLite). Services named in the environment must answer: an unreachable one is a
// failure, not a skip. Says plainly which suites did not run. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';

const args = process.argv.slice(2);
const pgUrl = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined;
const redisUrl = process.env.REDIS_URL || undefined;
const masked = (url) => url.replace(/^([a-z][\w+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');

const suites = [{ name: 'sqlite', env: { TEST_ENGINE: 'sqlite' }, redis: false }];
if (pgUrl) suites.push({ name: 'postgres', env: { TEST_ENGINE: 'postgres', TEST_POSTGRES_URL: pgUrl }, redis: false });
if (redisUrl) suites[suites.length - 1].redis = true;

/** Fails loudly when a service the caller asked for does not answer. */
async function reachable() {
  const problems = [];
  if (pgUrl) {
    const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('select 1');
    } catch (err) {
      problems.push(`PostgreSQL at ${masked(pgUrl)} does not answer: ${err.message}`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (redisUrl) {
    const { hostname, port } = new URL(redisUrl);
    const ok = await new Promise((resolve) => {
      const socket = createConnection({ host: hostname || '127.0.0.1', port: Number(port || 6379), timeout: 5000 });
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (d) => {
        socket.destroy();
        resolve(/^(\+PONG|-NOAUTH)/.test(String(d)));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (!ok) problems.push(`Redis at ${masked(redisUrl)} does not answer`);
  }
  return problems;
}

const problems = await reachable();
if (problems.length) {
  for (const p of problems) console.error(`FAILED before testing: ${p}`);
  process.exit(1);
}

const outDir = mkdtempSync(join(tmpdir(), 'msgapi-vitest-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
const lines = [];
const failures = [];

for (const suite of suites) {
  const report = join(outDir, `${suite.name}.json`);
  const limits = suite.redis ? 'rate limits in Redis' : 'rate limits in memory';
  console.log(`\n=== ${suite.name} suite (${limits}) ===`);
  const env = { ...process.env, ...suite.env, TEST_REDIS_URL: suite.redis ? redisUrl : '' };
  // The app under test must not pick up the caller's DATABASE_URL/REDIS_URL directly.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const run = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    stdio: 'inherit',
    env,
  });
  if (run.status !== 0) exitCode = 1;
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const pending = r.numPendingTests + (r.numTodoTests ?? 0);
    // A file can fail with no failed test: an import or a beforeAll hook threw (its tests show
    // as skipped). Those count as failures too.
    const broken = r.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'));
    const brokenFiles = broken.length;
    // Named again at the end, where a long log's tail (all a CI page may keep) still shows them.
    for (const f of r.testResults) {
      for (const a of f.assertionResults) if (a.status === 'failed') failures.push(`${suite.name}: ${relative(process.cwd(), f.name)} > ${a.fullName}`);
    }
    for (const f of broken) failures.push(`${suite.name}: ${relative(process.cwd(), f.name)} (failed outside its tests: ${(f.message || 'no message').split('\n')[0]})`);
    passed += r.numPassedTests;
    failed += r.numFailedTests + brokenFiles;
    skipped += pending;
    lines.push(`${suite.name} (${limits}): ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${brokenFiles} files failed outside their tests, ${pending} skipped`);
  } catch {
    lines.push(`${suite.name}: no report (vitest exited with ${run.status})`);
    exitCode = 1;
  }
}
rmSync(outDir, { recursive: true, force: true });

console.log('\n=== summary ===');
for (const f of failures) console.log(`FAILED ${f}`);
for (const l of lines) console.log(l);
if (!pgUrl) console.log('NOT RUN: PostgreSQL suite (set DATABASE_URL=postgres://user@host:5432/db to run it)');
if (!redisUrl) console.log('NOT RUN: Redis-backed rate limits (set REDIS_URL=redis://127.0.0.1:6379 to run them)');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exitCode);
