#!/usr/bin/env node
// `npm test`: the whole suite. Always on SQLite (temp files, nothing to install). Again on
// PostgreSQL when DATABASE_URL is a postgres:// URL, and with Redis-backed rate limiting when
// REDIS_URL is set. Says plainly which suites did not run. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const pgUrl = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined;
const redisUrl = process.env.REDIS_URL || undefined;

const suites = [{ name: 'sqlite', env: { TEST_ENGINE: 'sqlite' } }];
if (pgUrl) suites.push({ name: 'postgres', env: { TEST_ENGINE: 'postgres', TEST_POSTGRES_URL: pgUrl } });

const outDir = mkdtempSync(join(tmpdir(), 'msgapi-vitest-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
const lines = [];

for (const suite of suites) {
  const report = join(outDir, `${suite.name}.json`);
  console.log(`\n=== ${suite.name} suite${redisUrl ? ' (rate limits in Redis)' : ''} ===`);
  const env = { ...process.env, ...suite.env, TEST_REDIS_URL: redisUrl ?? '' };
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
    passed += r.numPassedTests;
    failed += r.numFailedTests + (r.numFailedTestSuites ?? 0);
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    lines.push(`${suite.name}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numFailedTestSuites ?? 0} files failed to load`);
  } catch {
    lines.push(`${suite.name}: no report (vitest exited with ${run.status})`);
    exitCode = 1;
  }
}
rmSync(outDir, { recursive: true, force: true });

console.log('\n=== summary ===');
for (const l of lines) console.log(l);
if (!pgUrl) console.log('NOT RUN: PostgreSQL suite (set DATABASE_URL=postgres://user@host:5432/db to run it)');
if (!redisUrl) console.log('NOT RUN: Redis-backed rate limiting (set REDIS_URL=redis://127.0.0.1:6379 to run it)');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exitCode);
