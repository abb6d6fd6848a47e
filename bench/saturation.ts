// `npx tsx bench/saturation.ts`: the server past its capacity. autocannon holds 1,000 connections,
// each sending GET /v1/tags back to back; meanwhile a separate client process opens a NEW
// connection every 200 ms and times its first answer (and what it is: 200 or 503). Run for each
// configuration below and for the bare node:http handler (bench/baseline-server.ts), each twice.
// Everything goes to 127.0.0.1. Results: printed; with --save also bench/results/saturation.md,
// otherwise only the ignored bench/results/saturation.md.tmp.
// Optional: configuration names as arguments run only those (e.g. `npx tsx bench/saturation.ts cap-128`).
import autocannon from 'autocannon';
import { execFile, spawn } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { ensureDataset } from './dataset.js';
import { scriptArgs, startProcess, stopProcess, writeResult } from './lib.js';

const CONNECTIONS = 1000; // autocannon's connections, each sending back to back
const WARMUP_MS = 5_000; // autocannon opens its connections and the queues fill before probing starts
const PROBES = 100; // new connections, one every PROBE_EVERY_MS, whatever the earlier ones are doing
const PROBE_EVERY_MS = 200;
const PROBE_TIMEOUT_MS = 30_000; // a probe with no answer by then counts as "none"
const RUNS = 2;

interface Probe {
  connectMs: number | null; // TCP handshake done (the kernel accepted it into the listen queue)
  firstAnswerMs: number | null; // first byte of the response, from the start of connect
  status: string; // HTTP status, 'timeout' or the socket error code
}

// ---- The probe client: a child process, so autocannon's event loop does not delay its timings.
if (process.argv[2] === '--probe') {
  const [, , , host, port, path, token] = process.argv;
  const probeOnce = () =>
    new Promise<Probe>((resolve) => {
      const started = performance.now();
      const result: Probe = { connectMs: null, firstAnswerMs: null, status: 'timeout' };
      const socket = connect({ host, port: Number(port), noDelay: true });
      const done = (status: string) => {
        result.status = status;
        clearTimeout(timer);
        socket.destroy();
        resolve(result);
      };
      const timer = setTimeout(() => done('timeout'), PROBE_TIMEOUT_MS);
      socket.once('connect', () => (result.connectMs = performance.now() - started));
      socket.once('data', (chunk) => {
        result.firstAnswerMs = performance.now() - started;
        done(/^HTTP\/1\.[01] (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'garbled');
      });
      socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? 'error'));
      socket.once('end', () => result.firstAnswerMs === null && done('closed'));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
    });
  const pending: Promise<Probe>[] = [];
  for (let i = 0; i < PROBES; i++) {
    pending.push(probeOnce());
    await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
  }
  process.stdout.write(JSON.stringify(await Promise.all(pending)));
  process.exit(0);
}

// ---- The bench.
interface Config {
  name: string;
  label: string;
  script: string;
  path: string;
  env: Record<string, string>;
}
interface Run {
  config: Config;
  seconds: number;
  ok200PerSecond: number;
  requestsPerSecond: number;
  p99Ms: number;
  count503: number;
  errors: number; // socket errors + autocannon's 10 s request time-outs
  probes: Probe[];
  accepted: number[]; // per-second samples: sockets the server processes hold, beyond those they hold idle
  queued: number[]; // per-second samples: listen queue length
  refusedMetric: number | null; // http_connections_refused_total at the end (one process only)
}

const dataset = await ensureDataset({ contacts: 1_000, errorLogs: 0, seed: 42 });
const api = (name: string, label: string, env: Record<string, string>): Config => ({
  name,
  label,
  script: 'src/server.ts',
  path: '/v1/tags',
  env: {
    DATABASE_URL: dataset.databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    RATE_LIMIT_IP_POINTS: '100000000',
    RATE_LIMIT_WORKSPACE_POINTS: '100000000',
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  },
});
const configs: Config[] = [
  api('unbounded', 'API, MAX_CONNECTIONS=100000 (no cap: the listen queue)', { MAX_CONNECTIONS: '100000' }),
  api('cap-512', 'API, MAX_CONNECTIONS=512 (default)', {}),
  api('cap-128', 'API, MAX_CONNECTIONS=128', { MAX_CONNECTIONS: '128' }),
  api('workers-2', 'API, WEB_CONCURRENCY=2, MAX_CONNECTIONS=512 each', { WEB_CONCURRENCY: '2' }),
  { name: 'bare', label: 'bare node:http + better-sqlite3 (no cap)', script: 'bench/baseline-server.ts', path: '/tags', env: { DATABASE_URL: dataset.databaseUrl, BENCH_WORKSPACE_ID: String(dataset.workspaceId) } },
];
const only = scriptArgs;
const selected = only.length ? configs.filter((c) => only.includes(c.name)) : configs;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const run = promisify(execFile);

/** Sockets the server processes hold (open socket descriptors of the process and its workers). */
async function socketsHeld(pid: number): Promise<number> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  let n = 0;
  for (const p of [pid, ...children.split(/\s+/).filter(Boolean).map(Number)]) {
    const fds = await readdir(`/proc/${p}/fd`).catch(() => [] as string[]);
    for (const fd of fds) if ((await readlink(`/proc/${p}/fd/${fd}`).catch(() => '')).startsWith('socket:')) n++;
  }
  return n;
}

/** The listener's accept queue: connections the kernel completed that the server has not accepted yet. */
async function listenQueue(port: number): Promise<number> {
  const { stdout } = await run('ss', ['-Hltn', `( sport = :${port} )`]);
  return stdout.split('\n').filter(Boolean).reduce((n, line) => n + Number(line.trim().split(/\s+/)[1]), 0);
}

async function measure(config: Config): Promise<Run> {
  const server = await startProcess(config.script, config.env);
  const url = new URL(server.url);
  try {
    const auth = { authorization: `Bearer ${dataset.token}` };
    const idleSockets = await socketsHeld(server.child.pid!);
    const check = await fetch(server.url + config.path, { headers: auth });
    if (check.status !== 200) throw new Error(`${config.name}: ${config.path} answered ${check.status}`);

    const started = performance.now();
    let stop: () => void = () => {};
    const load = new Promise<autocannon.Result>((resolve, reject) => {
      // The duration is only a bound: the load stops as soon as the last probe has its answer.
      const instance = autocannon({ url: server.url + config.path, connections: CONNECTIONS, duration: 120, headers: auth }, (err, result) => (err ? reject(err) : resolve(result)));
      stop = () => instance.stop();
    });
    await sleep(WARMUP_MS);

    const probeChild = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--probe', url.hostname, url.port, config.path, dataset.token], { stdio: ['ignore', 'pipe', 'inherit'] });
    let probeOutput = '';
    probeChild.stdout.on('data', (c: Buffer) => (probeOutput += c));
    const probesDone = new Promise<void>((resolve) => probeChild.once('exit', () => resolve()));
    const accepted: number[] = [];
    const queued: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [held, queue] = await Promise.all([socketsHeld(server.child.pid!), listenQueue(Number(url.port))]);
        accepted.push(held - idleSockets);
        queued.push(queue);
        await sleep(1000);
      }
    })();
    await probesDone;
    sampling = false;
    await sampler;
    stop();
    const result = await load;
    const seconds = (performance.now() - started) / 1000;

    let refusedMetric: number | null = null;
    if (config.script === 'src/server.ts' && !config.env.WEB_CONCURRENCY) {
      await sleep(1000); // let the closed connections go
      const text = await (await fetch(server.url.replace(/\/$/, '') + '/metrics')).text();
      refusedMetric = Number(/^http_connections_refused_total (\d+)/m.exec(text)?.[1] ?? NaN);
    }
    const codes = result.statusCodeStats as Record<string, { count: number }>;
    return {
      config,
      seconds,
      ok200PerSecond: Math.round((codes['200']?.count ?? 0) / seconds),
      requestsPerSecond: Math.round(result.requests.total / seconds),
      p99Ms: result.latency.p99,
      count503: codes['503']?.count ?? 0,
      errors: result.errors,
      probes: JSON.parse(probeOutput) as Probe[],
      accepted,
      queued,
      refusedMetric,
    };
  } finally {
    await stopProcess(server.child);
  }
}

// Nearest-rank percentile.
const pct = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const median = (values: number[]) => pct(values, 50);
const fmt = (n: number) => (Number.isNaN(n) ? '-' : n >= PROBE_TIMEOUT_MS ? `≥ ${PROBE_TIMEOUT_MS / 1000} s` : n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
const range = (values: number[], f: (n: number) => string = (n) => Math.round(n).toLocaleString('en')) => {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return f(lo) === f(hi) ? f(lo) : `${f(lo)}–${f(hi)}`;
};
const msRange = (values: number[]) => range(values, (n) => (Number.isNaN(n) ? '-' : n >= PROBE_TIMEOUT_MS ? `≥ ${PROBE_TIMEOUT_MS / 1000} s` : n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`));

function probeStats(probes: Probe[]) {
  const answered = probes.filter((p) => p.firstAnswerMs !== null).map((p) => p.firstAnswerMs!);
  // A probe with no answer within PROBE_TIMEOUT_MS waited at least that long.
  const waits = probes.map((p) => p.firstAnswerMs ?? PROBE_TIMEOUT_MS);
  const count = (s: string) => probes.filter((p) => p.status === s).length;
  return {
    p50: median(waits),
    p99: pct(waits, 99),
    max: Math.max(...waits),
    ok: count('200'),
    refused: count('503'),
    none: probes.length - count('200') - count('503'),
    connectP50: median(probes.map((p) => p.connectMs ?? PROBE_TIMEOUT_MS)),
    answered: answered.length,
    other: [...new Set(probes.filter((p) => p.status !== '200' && p.status !== '503').map((p) => p.status))],
  };
}

const runs: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  for (const config of selected) {
    const r = await measure(config);
    runs.push(r);
    const s = probeStats(r.probes);
    console.error(
      `${config.name} run ${i + 1}: ${r.ok200PerSecond} 200/s, ${r.requestsPerSecond} answers/s, p99 ${r.p99Ms} ms, ${r.count503} 503, ${r.errors} errors; ` +
        `new connection first answer p50 ${fmt(s.p50)} p99 ${fmt(s.p99)} max ${fmt(s.max)} (200: ${s.ok}, 503: ${s.refused}, none: ${s.none} ${s.other.join(',')}); ` +
        `connect p50 ${fmt(s.connectP50)}; accepted sockets ~${median(r.accepted)}, listen queue ~${median(r.queued)}; refused metric ${r.refusedMetric ?? '-'}`,
    );
  }
}

const rows = selected.map((config) => {
  const rs = runs.filter((r) => r.config === config);
  const ps = rs.map((r) => probeStats(r.probes));
  return [
    config.label,
    range(rs.map((r) => r.ok200PerSecond)),
    range(rs.map((r) => r.p99Ms), (n) => `${Math.round(n).toLocaleString('en')}`),
    range(rs.map((r) => r.count503)),
    range(rs.map((r) => r.errors)),
    msRange(ps.map((s) => s.p50)),
    msRange(ps.map((s) => s.p99)),
    msRange(ps.map((s) => s.max)),
    ps.map((s) => `${s.ok}/${s.refused}/${s.none}`).join(', '),
    range(rs.map((r) => median(r.accepted))),
    range(rs.map((r) => median(r.queued))),
  ];
});
const header = ['configuration', 'load: 200/s', 'load: p99 ms', 'load: 503s', 'load: errors', 'new conn.: first answer p50', 'p99', 'max', 'new conn.: 200/503/none per run', 'sockets held', 'listen queue'];
const markdown = [
  `| ${header.join(' | ')} |`,
  `|---|${header.slice(1).map(() => '---:').join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');

const report = [
  '# Saturation',
  '',
  `${new Date().toISOString()} · Node ${process.version} · ${(await import('node:os')).cpus().length} cores, shared with other work (numbers are noisy) · SQLite, ${dataset.contacts.toLocaleString('en')}-contact bench workspace (20 tags) · ` +
    `autocannon: ${CONNECTIONS.toLocaleString('en')} connections each sending \`GET /v1/tags\` back to back (10 s request time-out) · ` +
    `${PROBES} new connections from a separate process, one every ${PROBE_EVERY_MS} ms after ${WARMUP_MS / 1000} s of load, each sending one request; no answer within ${PROBE_TIMEOUT_MS / 1000} s counts as ${PROBE_TIMEOUT_MS / 1000} s · ${RUNS} runs per configuration, ranges are min–max over runs · ` +
    'server NODE_ENV=production, LOG_LEVEL=warn, rate limits raised out of the way',
  '',
  markdown,
  '',
  '`load`: autocannon over the whole run (load starts, probes, last probe answered); 200/s counts only 200 answers; p99 is over every answer, 503s included; errors are socket errors and 10 s time-outs. ' +
    '`new conn.`: time from opening the connection to the first byte of the answer (≥ 30 s: no answer within 30 s). `sockets held`: median of per-second samples of the socket descriptors the server process(es) hold beyond those held idle (connections accepted and not yet closed; with WEB_CONCURRENCY the primary\'s accepted connections waiting to be handed to a worker count too, so it can exceed 1,000); `listen queue`: median of the listener\'s accept queue (`ss` Recv-Q: connections the kernel completed and the server has not accepted yet; it holds at most 512, Node\'s default backlog 511 + 1).',
  '',
  '## Runs',
  '',
  ...runs.map((r) => {
    const s = probeStats(r.probes);
    return `- ${r.config.name}: ${r.seconds.toFixed(1)} s, ${r.ok200PerSecond} 200/s, ${r.requestsPerSecond} answers/s, load p99 ${r.p99Ms} ms, ${r.count503} 503s, ${r.errors} errors; new connections: first answer p50 ${fmt(s.p50)} / p99 ${fmt(s.p99)} / max ${fmt(s.max)}, connect p50 ${fmt(s.connectP50)}, ${s.ok} × 200, ${s.refused} × 503, ${s.none} none${s.other.length ? ` (${s.other.join(', ')})` : ''}; sockets held ${median(r.accepted)} (${Math.min(...r.accepted)}–${Math.max(...r.accepted)}), listen queue ${median(r.queued)}${r.refusedMetric !== null ? `; http_connections_refused_total ${r.refusedMetric}` : ''}`;
  }),
  '',
].join('\n');
writeResult('saturation.md', report);
console.log(report);
