// `npm run bench:web-app`: the contacts web app (examples/contacts-web, served at /app/) as a person
// opening it meets it. The API runs as `npm start` does (src/server.ts under tsx, a fresh SQLite
// file with the demo data, or BENCH_WEB_APP_DATABASE_URL); Debian's chromium, driven by
// playwright-core, opens /app/ BENCH_RUNS (15) times, each in a fresh profile (nothing cached)
// with the demo token already in sessionStorage, and measures, from the navigation's start:
// - the script and stylesheet loaded (their `responseEnd`),
// - the one GraphQL request of the first page sent (`requestStart`: the script has run) and
//   answered (`responseEnd`),
// - interactive: the 20 rows on screen with their links working (React has committed the page it
//   renders from the answer; the rows' handlers are live from that commit).
// The first run is a warm-up (the server compiles its statements and GraphQL plan) and not counted.
// Also the production bundle's sizes: raw, gzip (level 9) and brotli, as a server would send them.
// Results: printed; with --save also bench/results/web-app.md, otherwise only the ignored .tmp.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { launchChromium } from '../test/support/browser.js';
import { commitOf, percentile, repoRoot, round, startServer, stopServer, writeResult } from './lib.js';

const runs = Number(process.env.BENCH_RUNS ?? 15);
const dist = join(repoRoot, 'examples/contacts-web/dist');

function bundleSizes(): { file: string; raw: number; gzip: number; brotli: number }[] {
  const files = [...readdirSync(join(dist, 'assets')).map((f) => `assets/${f}`), 'index.html'];
  return files.map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length };
  });
}


async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-web-app-'));
  const databaseUrl = process.env.BENCH_WEB_APP_DATABASE_URL ?? join(dir, 'app.db');
  const server = await startServer({
    name: 'api',
    script: join(repoRoot, 'src/server.ts'),
    cwd: repoRoot,
    env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    logFile: join(dir, 'server.log'),
    tsx: true,
    pin: false,
  });
  const browser = await launchChromium();
  const chromiumVersion = browser.version();
  const timings: { assets: number; sent: number; query: number; interactive: number }[] = [];
  try {
    const token = /workspace API token: (mdev_\S+)/.exec(readFileSync(server.logFile, 'utf8'))?.[1];
    if (!token) throw new Error('the server printed no demo token (is the database empty?)');
    for (let run = 0; run <= runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await context.addInitScript((value) => sessionStorage.setItem('contacts-web.token', value), token);
      const page = await context.newPage();
      await page.goto(`${server.url}/app/`);
      // Checked on every animation frame in the page: the time is that frame's, not a poll's.
      const interactive = (await page.waitForFunction(() => document.querySelectorAll('.contact-row').length >= 20 && performance.now(), undefined, { polling: 'raf' })).jsonValue();
      const measured = await page.evaluate(async (interactiveAt) => {
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const assets = Math.max(...resources.filter((r) => r.name.includes('/app/assets/')).map((r) => r.responseEnd));
        const query = resources.find((r) => r.name.endsWith('/graphql') && r.initiatorType === 'fetch')!;
        return { assets, sent: query.requestStart, query: query.responseEnd, interactive: interactiveAt };
      }, (await interactive) as number);
      if (run > 0) timings.push(measured);
      await context.close();
    }
  } finally {
    await browser.close();
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }

  const sizes = bundleSizes();
  const total = sizes.reduce((sum, s) => ({ raw: sum.raw + s.raw, gzip: sum.gzip + s.gzip, brotli: sum.brotli + s.brotli }), { raw: 0, gzip: 0, brotli: 0 });
  const kb = (bytes: number) => `${round(bytes / 1024, 1)} KB`;
  const row = (name: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `| ${name} | ${round(percentile(sorted, 50), 0)} | ${round(percentile(sorted, 90), 0)} | ${round(sorted.at(-1)!, 0)} |`;
  };
  const report = [
    `# Web app: bundle and first page (commit ${commitOf(repoRoot)}, ${new Date().toISOString().slice(0, 10)})`,
    '',
    `Chromium ${chromiumVersion} headless, a fresh profile per run, ${runs} runs after one warm-up, demo data on SQLite.`,
    '',
    '| File | Raw | gzip | brotli |',
    '|---|---|---|---|',
    ...sizes.map((s) => `| ${s.file} | ${kb(s.raw)} | ${kb(s.gzip)} | ${kb(s.brotli)} |`),
    `| all | ${kb(total.raw)} | ${kb(total.gzip)} | ${kb(total.brotli)} |`,
    '',
    '| From navigation start (ms) | p50 | p90 | max |',
    '|---|---|---|---|',
    row('script and stylesheet loaded', timings.map((t) => t.assets)),
    row('first page query sent', timings.map((t) => t.sent)),
    row('first page query answered', timings.map((t) => t.query)),
    row('interactive (20 rows on screen)', timings.map((t) => t.interactive)),
    '',
  ].join('\n');
  console.log(report);
  writeResult('web-app.md', report);
}

await main();
