// `npm run bench:transfers`: the CSV import and export of contacts through the real server
// (compiled, as `npm run serve` runs it, its jobs run by the server itself: RUN_WORKERS=true).
// Two CSV files are made by index (no randomness: every run imports the same bytes) under
// bench/data: BENCH_ROWS (100,000) contacts, header `First name,Last name,E-mail,Phone number,Company`,
// distinct emails and distinct valid US numbers in national form (`(415) 203-0042`), and a second
// file of the same rows continued up to BENCH_BIG_BYTES (20 MB, the most an upload takes).
// - baseline: the first file's rows written by a plain multi-row `insert into contacts` loop, 500
//   a statement, in this process with no server: the floor the import is compared to. It runs
//   first, into a workspace of its own, so that it meets the same empty table the first import does.
// - import: each file into a fresh workspace (an inbox, a `Company` custom field), through the
//   steps a client takes: upload address, PUT of the bytes (streamed from disk), headers, import,
//   then its progress every 100 ms until completed. Wall time from the import's POST, rows/s,
//   the final counts (every row created, none failed: anything else fails the run), the server's
//   CPU (and PostgreSQL's) and its peak RSS every 250 ms; the upload timed apart.
// - export: every contact of the first workspace (id, names, email, phone, Company), polled until
//   ready, then downloaded from its signed address; rows/s, peak RSS, the file's size and lines.
// The server is not pinned: the import's job, its GC threads and PostgreSQL share both cores.
// Options: BENCH_TRANSFERS_DATABASE_URL (a temp SQLite file; a postgres:// URL for PostgreSQL, where
// the bench works in schemas of its own, `bench_transfers` and `bench_transfers_worker`, dropped
// and made again on every run: nothing else in that database is touched), BENCH_ROWS,
// BENCH_BIG_BYTES (0 leaves the large file out), BENCH_TSX=1 (src/server.ts under tsx instead of
// compiling to bench/data/transfers-dist), BENCH_CPU_PROF_DIR (the server's V8 CPU profile, for
// bench/top-functions.ts), BENCH_NODE_FLAGS (more node flags for the server, e.g. --trace-gc),
// BENCH_KEEP_DATABASE=1 (keep the temp SQLite file and its files/, deleted otherwise).
// Results: printed; with --save also bench/results/transfers-<engine>.md, otherwise only the ignored .tmp.
import { closeSync, createReadStream, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { IMPORT_BATCH_ROWS } from '../src/domain/contact-transfers/contact-import.job.js';
import { MAX_IMPORT_BYTES } from '../src/domain/contact-transfers/contact-transfer.schema.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { benchDatabase, benchServerScript, jobServerEnv, commitOf, cpuMs, postgresCpuBetween, postgresCpuMs, repoRoot, round, rssMb, serveFlags, startServer, stopServer, untilIdle, writeResult } from './lib.js';

const rowCount = Number(process.env.BENCH_ROWS ?? 100_000);
const bigBytes = Number(process.env.BENCH_BIG_BYTES ?? MAX_IMPORT_BYTES);
const tsx = process.env.BENCH_TSX === '1';
const requestedUrl = process.env.BENCH_TRANSFERS_DATABASE_URL;
const engine = requestedUrl?.startsWith('postgres') ? 'postgres' : 'sqlite';
const dataDir = join(repoRoot, 'bench/data');
mkdirSync(dataDir, { recursive: true });

/** The goals of the transfers issue; the import's rate is set for SQLite. */
const GOALS = { importRowsPerSecond: 5_000, exportRowsPerSecond: 20_000, bigFileRssMb: 250 };
const BENCH_SCHEMA = 'bench_transfers';
const WORKER_SCHEMA = 'bench_transfers_worker';
const POLL_MS = 100;
/** An import or export not done by then is a hung job, not a slow one. */
const DEADLINE_MS = 30 * 60_000;
const fmt = (n: number) => n.toLocaleString('en-US');

if (bigBytes > MAX_IMPORT_BYTES) throw new Error(`BENCH_BIG_BYTES must be at most ${MAX_IMPORT_BYTES} (the upload limit)`);

// ---------------------------------------------------------------------------------------------
// The files, made by index.

const firstNames = ['Ava', 'Liam', 'Sofia', 'Noah', 'Mia', 'Lucas', 'Emma', 'Mateo', 'Olivia', 'Ethan', 'Chloe', 'Amir', 'Yuki', 'Lena', 'Omar', 'Priya', 'Diego', 'Hana', 'Jonas', 'Zoe', 'Grace', 'Kofi', 'Ines', 'Bjorn'];
const lastNames = ['Garcia', 'Smith', 'Muller', 'Rossi', 'Tanaka', 'Okafor', 'Dubois', 'Silva', 'Kowalski', 'Nguyen', 'Haddad', 'Larsen', 'Patel', 'Cohen', 'Ibrahim', 'Ostergaard', 'Pena', 'OBrien', 'Schmidt'];
const companyWords = ['Blue', 'Harbor', 'Summit', 'Pine', 'Atlas', 'Copper', 'Northwind', 'Maple', 'Vertex', 'Orchid', 'Granite', 'Lumen', 'Cedar'];
const companyKinds = ['Logistics', 'Bakery', 'Analytics', 'Dental', 'Studio', 'Foods', 'Robotics', 'Travel', 'Legal', 'Outfitters', 'Labs'];
// ", Inc." makes a quoted cell in a fifth of the rows, as spreadsheets write them.
const companySuffixes = [' LLC', ', Inc.', ' & Co', ' Ltd', ' Group'];
/** Area codes of New York and San Francisco; exchanges 200-999 are valid for all three. */
const areaCodes = ['415', '212', '646'];
const MAX_ROWS = areaCodes.length * 800 * 10_000;

/** Contact `i`: its cells as written in the file, and its number in E.164 (what the import stores). */
function contactAt(i: number) {
  const first = firstNames[i % firstNames.length]!;
  const last = lastNames[(i * 7 + Math.floor(i / firstNames.length)) % lastNames.length]!;
  const area = areaCodes[i % areaCodes.length]!;
  const j = Math.floor(i / areaCodes.length);
  const exchange = 200 + Math.floor(j / 10_000);
  const line = String(j % 10_000).padStart(4, '0');
  const company = `${companyWords[i % companyWords.length]} ${companyKinds[(i * 5) % companyKinds.length]}${companySuffixes[i % companySuffixes.length]}`;
  return {
    first,
    last,
    email: `${first.toLowerCase()}.${last.toLowerCase()}.${i}@bench.example`,
    phone: `(${area}) ${exchange}-${line}`,
    e164: `+1${area}${exchange}${line}`,
    company,
  };
}

const cell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const HEADER = 'First name,Last name,E-mail,Phone number,Company\r\n';
const lineAt = (i: number) => {
  const c = contactAt(i);
  return `${cell(c.first)},${cell(c.last)},${cell(c.email)},${cell(c.phone)},${cell(c.company)}\r\n`;
};

/**
 * Writes rows 0, 1, ... to `file` until `rows` of them or, with `maxBytes`, as many as fit in it
 * (ASCII only: a character is a byte). Answers the rows and bytes written.
 */
function writeCsv(file: string, opts: { rows?: number; maxBytes?: number }): { rows: number; bytes: number } {
  const fd = openSync(file, 'w');
  let bytes = 0;
  let rows = 0;
  let pending = HEADER;
  try {
    for (;;) {
      if (opts.rows !== undefined && rows >= opts.rows) break;
      const line = lineAt(rows);
      if (opts.maxBytes !== undefined && bytes + pending.length + line.length > opts.maxBytes) break;
      if (rows >= MAX_ROWS) throw new Error(`at most ${MAX_ROWS} distinct phone numbers are made`);
      pending += line;
      rows++;
      if (pending.length >= 1 << 20) {
        bytes += writeSync(fd, pending);
        pending = '';
      }
    }
    bytes += writeSync(fd, pending);
  } finally {
    closeSync(fd);
  }
  return { rows, bytes };
}

// The import drops a number libphonenumber does not call valid: check a sample here, so that a
// failed row says the generator is wrong, not the import (the run checks failedCount is 0 anyway).
for (let i = 0; i < Math.max(rowCount, 300_000); i += 997) {
  const c = contactAt(i);
  const parsed = parsePhoneNumberFromString(c.phone, { defaultCallingCode: '1' });
  if (!parsed?.isValid() || parsed.number !== c.e164) throw new Error(`row ${i}: ${c.phone} is not the valid number ${c.e164}`);
}

const mainFile = join(dataDir, `transfers-${rowCount}.csv`);
const main = writeCsv(mainFile, { rows: rowCount });
const bigFile = join(dataDir, `transfers-${bigBytes}-bytes.csv`);
const big = bigBytes > 0 ? writeCsv(bigFile, { maxBytes: bigBytes }) : null;
console.error(`wrote ${mainFile} (${fmt(main.rows)} rows, ${fmt(main.bytes)} bytes)${big ? ` and ${bigFile} (${fmt(big.rows)} rows, ${fmt(big.bytes)} bytes)` : ''}`);

// ---------------------------------------------------------------------------------------------
// The database, the baseline and the workspaces.

const { url, setup } = await benchDatabase('transfers', requestedUrl, BENCH_SCHEMA, WORKER_SCHEMA);

const baseline = await (async () => {
  const { workspace } = await createWorkspace(setup.db, { name: 'Transfers bench baseline' });
  const now = new Date().toISOString();
  const started = performance.now();
  for (let start = 0; start < rowCount; start += IMPORT_BATCH_ROWS) {
    const rows = Array.from({ length: Math.min(IMPORT_BATCH_ROWS, rowCount - start) }, (_, k) => {
      const c = contactAt(start + k);
      return { workspace_id: workspace.id, first_name: c.first, last_name: c.last, email: c.email, phone_number: c.e164, gender: 'unknown' as const, email_verified: 0, email_opt_in: 0, created_at: now, updated_at: now };
    });
    await setup.db.insertInto('contacts').values(rows).execute();
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds: round(seconds, 2), rowsPerSecond: Math.round(rowCount / seconds) };
})();
console.error(`baseline: ${fmt(rowCount)} rows in ${baseline.seconds} s (${fmt(baseline.rowsPerSecond)} rows/s)`);

/** A fresh workspace with the inbox every imported contact joins (no REST route makes inboxes). */
async function workspaceWithInbox(name: string) {
  const { workspace, tokens } = await createWorkspace(setup.db, { name });
  const now = new Date().toISOString();
  const inbox = await setup.db
    .insertInto('inboxes')
    .values({ workspace_id: workspace.id, name: 'Bench chat', channel: 'chat', source_id: `src-bench-${workspace.id}`, status: 'active', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { workspaceId: workspace.id, token: tokens.developer.token, inboxId: String(inbox.id) };
}
const first = await workspaceWithInbox('Transfers bench');
const second = big ? await workspaceWithInbox('Transfers bench, 20 MB') : null;

// ---------------------------------------------------------------------------------------------
// The server.

const { mode, script } = benchServerScript('transfers', tsx);

const logFile = join(dataDir, `server-transfers-${engine}.log`);
const server = await startServer({
  name: 'transfers',
  cwd: repoRoot,
  script,
  tsx,
  // BENCH_CPU_PROF_DIR: V8 CPU profiles of the server's threads, written when it exits (bench/top-functions.ts reads them).
  // BENCH_NODE_FLAGS: more flags for the server alone (--trace-gc, which NODE_OPTIONS refuses), its output in the log.
  nodeFlags: [
    ...serveFlags(repoRoot),
    ...(process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF_DIR] : []),
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
  ],
  pin: false,
  logFile,
  env: jobServerEnv(url, WORKER_SCHEMA),
});
const base = server.url;
const rssAtStart = rssMb(server.pid)!;
// A profiled server is never idle (the profiler samples): wait a little instead of for idleness.
const settle = () => (process.env.BENCH_CPU_PROF_DIR ? new Promise<void>((r) => setTimeout(r, 2_000)) : untilIdle(server.pid, engine === 'postgres'));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A JSON request to the API that must answer one of `expected`; its body, parsed. */
async function api<T>(token: string, method: string, path: string, body: unknown, expected: number[]): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A signed address of this server, sent to the address the server listens on (its links say localhost). */
function onServer(link: string): string {
  const u = new URL(link);
  if (u.port !== new URL(base).port) throw new Error(`the link ${link} does not name this server (${base})`);
  return `${base}${u.pathname}${u.search}`;
}

/** PUTs a file's bytes to its upload address, streamed from disk with its Content-Length. */
function putFile(link: string, file: string, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(onServer(link), { method: 'PUT', headers: { 'content-type': 'text/csv', 'content-length': String(size) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    createReadStream(file).on('error', reject).pipe(req);
  });
}

/** CPU time (ms) the whole machine has been busy, from /proc/stat (user, nice, system, irq, softirq, steal). */
function machineBusyMs(): number | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return ((user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU of the server (all threads, and the main thread alone) and of PostgreSQL from a mark, and
 * what the rest of the machine used meanwhile: on a shared machine, a slow run with much "other"
 * CPU says the cores were not the server's alone.
 */
function cpuMark() {
  const all = cpuMs(server.pid)!;
  const main = cpuMs(server.pid, 'main')!;
  const bench = cpuMs(process.pid)!;
  const database = engine === 'postgres' ? postgresCpuMs() : null;
  const busy = machineBusyMs();
  return () => {
    const serverMs = cpuMs(server.pid)! - all;
    const databaseMs = database ? postgresCpuBetween(database, postgresCpuMs()) : null;
    const busyNow = machineBusyMs();
    const otherMs = busy === null || busyNow === null ? null : Math.max(0, busyNow - busy - serverMs - (databaseMs ?? 0) - (cpuMs(process.pid)! - bench));
    return { serverMs, mainMs: cpuMs(server.pid, 'main')! - main, databaseMs, otherMs };
  };
}

interface ImportView {
  status: string;
  totalCount: number | null;
  processedCount: number;
  createdCount: number;
  updatedCount: number;
  skippedCount: number;
  failedCount: number;
  errorMessage: string | null;
  errorSample: { row: number; reason: string }[];
  createdAt: string;
  completedAt: string | null;
}

interface ImportRun {
  label: string;
  rows: number;
  bytes: number;
  uploadSeconds: number;
  uploadRssMb: number;
  rssBeforeMb: number;
  seconds: number;
  /** completedAt - createdAt as the server stored them: no polling interval in it. */
  serverSeconds: number;
  rowsPerSecond: number;
  /** Rows/s over the first and the second half of the rows, from the polls. */
  firstHalfRowsPerSecond: number;
  secondHalfRowsPerSecond: number;
  rssMaxMb: number;
  rssEndMb: number;
  cpu: { serverMs: number; mainMs: number; databaseMs: number | null; otherMs: number | null };
  final: ImportView;
}

async function runImport(label: string, ws: { workspaceId: number; token: string; inboxId: string }, companyId: string, file: string, rows: number): Promise<ImportRun> {
  const bytes = statSync(file).size;
  await settle();
  server.rss.caseMax();
  const upload = await api<{ fileId: string; presignedPostUrl: string }>(ws.token, 'POST', '/v1/contacts/imports/upload-url', { fileName: `bench-${rows}.csv`, mimeType: 'text/csv', fileSize: bytes }, [201]);
  const uploadStarted = performance.now();
  const put = await putFile(upload.presignedPostUrl, file, bytes);
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  if (put.status !== 200 || (JSON.parse(put.body) as { size: number }).size !== bytes) throw new Error(`the upload answered ${put.status}: ${put.body}`);
  const uploadRssMb = server.rss.caseMax();

  const headers = await api<{ headers: string[]; suggestedColumnMap: Record<string, string>; suggestedFieldMapping: { column: string; customFieldId: string }[] }>(
    ws.token,
    'GET',
    `/v1/contacts/imports/files/${upload.fileId}/headers`,
    undefined,
    [200],
  );
  const wanted = { firstName: 'First name', lastName: 'Last name', email: 'E-mail', phoneNumber: 'Phone number' };
  if (Object.entries(wanted).some(([k, v]) => headers.suggestedColumnMap[k] !== v)) {
    throw new Error(`unexpected suggested column map: ${JSON.stringify(headers.suggestedColumnMap)}`);
  }
  if (!headers.suggestedFieldMapping.some((m) => m.column === 'Company' && m.customFieldId === companyId)) throw new Error(`Company was not suggested for custom field ${companyId}: ${JSON.stringify(headers.suggestedFieldMapping)}`);

  await settle();
  const rssBeforeMb = rssMb(server.pid)!;
  server.rss.caseMax();
  const cpu = cpuMark();
  const started = performance.now();
  const { importId } = await api<{ importId: string }>(
    ws.token,
    'POST',
    '/v1/contacts/import',
    { fileId: upload.fileId, inboxId: ws.inboxId, countryCode: '+1', columnMap: headers.suggestedColumnMap, fieldMapping: [{ column: 'Company', customFieldId: companyId }] },
    [201],
  );
  let view: ImportView;
  let halfAt: number | null = null;
  for (;;) {
    view = await api<ImportView>(ws.token, 'GET', `/v1/contacts/imports/${importId}`, undefined, [200]);
    if (halfAt === null && view.processedCount >= rows / 2) halfAt = performance.now();
    if (view.status === 'completed' || view.status === 'failed') break;
    if (performance.now() - started > DEADLINE_MS) throw new Error(`${label}: not done after ${DEADLINE_MS / 60_000} minutes: ${JSON.stringify(view)}`);
    await sleep(POLL_MS);
  }
  const ended = performance.now();
  const spent = cpu();
  const rssMaxMb = server.rss.caseMax();
  const rssEndMb = rssMb(server.pid)!;
  const seconds = (ended - started) / 1000;

  const problems: string[] = [];
  if (view.status !== 'completed') problems.push(`status ${view.status} (${view.errorMessage})`);
  if (view.totalCount !== rows) problems.push(`totalCount ${view.totalCount}, expected ${rows}`);
  if (view.createdCount !== rows) problems.push(`createdCount ${view.createdCount}, expected ${rows}`);
  if (view.failedCount !== 0 || view.skippedCount !== 0 || view.updatedCount !== 0) problems.push(`failed ${view.failedCount}, skipped ${view.skippedCount}, updated ${view.updatedCount}, expected 0 each`);
  // What the counters say, checked against the rows themselves.
  const stored = await setup.db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws.workspaceId)
    .executeTakeFirstOrThrow();
  const values = await setup.db
    .selectFrom('contact_custom_fields')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws.workspaceId)
    .where('custom_field_id', '=', Number(companyId))
    .executeTakeFirstOrThrow();
  if (Number(stored.n) !== rows) problems.push(`${stored.n} contacts stored, expected ${rows}`);
  if (Number(values.n) !== rows) problems.push(`${values.n} Company values stored, expected ${rows}`);
  if (problems.length > 0) throw new Error(`${label}: ${problems.join('; ')}; first errors: ${JSON.stringify(view.errorSample.slice(0, 5))}`);

  const half = (halfAt ?? ended) - started;
  return {
    label,
    rows,
    bytes,
    uploadSeconds: round(uploadSeconds, 2),
    uploadRssMb,
    rssBeforeMb,
    seconds: round(seconds, 2),
    serverSeconds: round((Date.parse(view.completedAt!) - Date.parse(view.createdAt)) / 1000, 2),
    rowsPerSecond: Math.round(rows / seconds),
    firstHalfRowsPerSecond: Math.round(rows / 2 / (half / 1000)),
    secondHalfRowsPerSecond: Math.round(rows / 2 / ((ended - started - half) / 1000)),
    rssMaxMb,
    rssEndMb,
    cpu: spent,
    final: view,
  };
}

interface ExportRun {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  rssBeforeMb: number;
  rssMaxMb: number;
  cpu: { serverMs: number; mainMs: number; databaseMs: number | null; otherMs: number | null };
  bytes: number;
  lines: number;
  downloadSeconds: number;
  downloadRssMb: number;
}

async function runExport(ws: { token: string }, companyId: string, rows: number): Promise<ExportRun> {
  await settle();
  const rssBeforeMb = rssMb(server.pid)!;
  server.rss.caseMax();
  const cpu = cpuMark();
  const started = performance.now();
  const fields = ['sys:id', 'sys:firstName', 'sys:lastName', 'sys:email', 'sys:phoneNumber', `cf:${companyId}`];
  const { fileId } = await api<{ fileId: string }>(ws.token, 'POST', '/v1/contacts/export', { fields, exportAll: true }, [202]);
  let view: { status: string; rowCount: number | null; url: string | null; errorMessage: string | null };
  for (;;) {
    view = await api(ws.token, 'GET', `/v1/contacts/export-files/${fileId}`, undefined, [200]);
    if (view.status === 'ready' || view.status === 'failed') break;
    if (performance.now() - started > DEADLINE_MS) throw new Error(`export: not ready after ${DEADLINE_MS / 60_000} minutes: ${JSON.stringify(view)}`);
    await sleep(POLL_MS);
  }
  const seconds = (performance.now() - started) / 1000;
  const spent = cpu();
  const rssMaxMb = server.rss.caseMax();
  if (view.status !== 'ready') throw new Error(`export: ${view.status} (${view.errorMessage})`);
  if (view.rowCount !== rows) throw new Error(`export: rowCount ${view.rowCount}, expected ${rows}`);

  // The download, counted as it streams: the file is never held whole here either.
  const downloadStarted = performance.now();
  const res = await fetch(onServer(view.url!));
  if (res.status !== 200 || !res.body) throw new Error(`the download answered ${res.status}`);
  let bytes = 0;
  let newlines = 0;
  let head = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (head.length < 200) head += buf.subarray(0, 200).toString('utf8');
    bytes += buf.byteLength;
    for (let at = buf.indexOf(10); at !== -1; at = buf.indexOf(10, at + 1)) newlines++;
  }
  const downloadSeconds = (performance.now() - downloadStarted) / 1000;
  const downloadRssMb = server.rss.caseMax();
  const expectedHeader = '\ufeffContact ID,First Name,Last Name,Email,Phone Number,Company\r\n';
  if (!head.startsWith(expectedHeader)) throw new Error(`export: the file starts ${JSON.stringify(head.slice(0, 120))}`);
  if (newlines !== rows + 1) throw new Error(`export: ${newlines} lines downloaded, expected ${rows + 1}`);
  const declared = Number(res.headers.get('content-length'));
  if (declared !== bytes) throw new Error(`export: ${bytes} bytes downloaded, Content-Length ${declared}`);
  return { rows, seconds: round(seconds, 2), rowsPerSecond: Math.round(rows / seconds), rssBeforeMb, rssMaxMb, cpu: spent, bytes, lines: newlines, downloadSeconds: round(downloadSeconds, 2), downloadRssMb };
}

const lines: string[] = [];
try {
  const company = async (token: string) => (await api<{ id: string }>(token, 'POST', '/v1/custom-fields', { name: 'Company', type: 'shortText' }, [200, 201])).id;
  const firstCompany = await company(first.token);
  console.error(`importing ${fmt(main.rows)} rows`);
  const imported = await runImport(`${fmt(main.rows)} rows`, first, firstCompany, mainFile, main.rows);
  console.error(`import: ${imported.seconds} s, ${fmt(imported.rowsPerSecond)} rows/s, RSS at most ${imported.rssMaxMb} MB`);
  let bigRun: ImportRun | null = null;
  if (big && second) {
    console.error(`importing the ${fmt(big.bytes)}-byte file (${fmt(big.rows)} rows)`);
    bigRun = await runImport(`${fmt(big.bytes)} bytes`, second, await company(second.token), bigFile, big.rows);
    console.error(`import: ${bigRun.seconds} s, ${fmt(bigRun.rowsPerSecond)} rows/s, RSS at most ${bigRun.rssMaxMb} MB`);
  }
  console.error(`exporting ${fmt(main.rows)} contacts`);
  const exported = await runExport(first, firstCompany, main.rows);
  console.error(`export: ${exported.seconds} s, ${fmt(exported.rowsPerSecond)} rows/s, RSS at most ${exported.rssMaxMb} MB`);
  const rssWhole = server.rss.maxMb;

  const verdict = (ok: boolean) => (ok ? '**PASS**' : '**FAIL**');
  const ms = (v: number | null) => (v === null ? '-' : fmt(Math.round(v)));
  const cpuCells = (c: { serverMs: number; mainMs: number; databaseMs: number | null; otherMs: number | null }, rows: number) =>
    `${ms(c.serverMs)} (${ms(c.mainMs)}) | ${round((c.serverMs * 1000) / rows, 1)} | ${ms(c.databaseMs)} | ${ms(c.otherMs)}`;
  const importRow = (r: ImportRun) =>
    `| ${fmt(r.bytes)} bytes (${fmt(r.rows)} rows) | ${r.uploadSeconds} | ${r.seconds} (${r.serverSeconds}) | **${fmt(r.rowsPerSecond)}** | ${fmt(r.firstHalfRowsPerSecond)} / ${fmt(r.secondHalfRowsPerSecond)} | ${round(r.rowsPerSecond / baseline.rowsPerSecond, 2)}x | ${cpuCells(r.cpu, r.rows)} | ${r.uploadRssMb} | ${r.rssBeforeMb} | **${r.rssMaxMb}** | ${r.rssEndMb} | ${fmt(r.final.createdCount)} / ${r.final.updatedCount} / ${r.final.skippedCount} / ${r.final.failedCount} |`;
  const importGoal = imported.rowsPerSecond >= GOALS.importRowsPerSecond;
  lines.push(
    `# Contact CSV transfers bench (${new Date().toISOString()}, ${engine})`,
    '',
    `commit ${commitOf(repoRoot)} · server: ${mode}, NODE_ENV=production, LOG_LEVEL=info (access log to bench/data/server-transfers-${engine}.log), RUN_WORKERS=true (the server runs the jobs), rate limits on (budgets 10^9) · ${engine === 'sqlite' ? 'SQLite (a temp file; uploads and exports stored as files beside it)' : `PostgreSQL (schemas ${BENCH_SCHEMA}, ${WORKER_SCHEMA}; files stored in the database)`} · pinning: none (the job, its GC threads and ${engine === 'postgres' ? 'PostgreSQL' : 'the bench process'} share both cores) · progress polled every ${POLL_MS} ms, RSS sampled every 250 ms`,
    '',
    '## Goals',
    '',
    '| goal | measured | |',
    '|---|---:|---|',
    `| import >= ${fmt(GOALS.importRowsPerSecond)} rows/s (SQLite) | ${fmt(imported.rowsPerSecond)} rows/s (${fmt(main.rows)} rows) | ${verdict(importGoal)}${engine === 'sqlite' ? '' : ' (the goal is set for SQLite; for reference)'} |`,
    `| export >= ${fmt(GOALS.exportRowsPerSecond)} rows/s | ${fmt(exported.rowsPerSecond)} rows/s | ${verdict(exported.rowsPerSecond >= GOALS.exportRowsPerSecond)} |`,
    bigRun
      ? `| server RSS < ${GOALS.bigFileRssMb} MB importing a 20 MB file | ${bigRun.rssMaxMb} MB at most (${fmt(bigRun.bytes)} bytes, ${fmt(bigRun.rows)} rows) | ${verdict(bigRun.rssMaxMb < GOALS.bigFileRssMb)} |`
      : `| server RSS < ${GOALS.bigFileRssMb} MB importing a 20 MB file | not run (BENCH_BIG_BYTES=0) | |`,
    '',
    '## Import',
    '',
    `Each file into a fresh workspace (an inbox, a \`Company\` short-text field), columns as the headers step suggests, \`countryCode\` +1, batches of ${IMPORT_BATCH_ROWS} rows a transaction. Seconds from the import's POST to the poll that saw it completed (in brackets: completedAt - createdAt as stored). Baseline: the same ${fmt(rowCount)} rows by a plain \`insert into contacts\` of ${IMPORT_BATCH_ROWS} rows a statement in the bench's process, no server (contacts only: no custom-field values, inbox links, events or counters): ${baseline.seconds} s, **${fmt(baseline.rowsPerSecond)} rows/s**.`,
    '',
    '| file | upload s | import s | rows/s | rows/s first / second half of the rows | x baseline | server CPU ms (main thread) | server CPU us/row | PostgreSQL CPU ms | other processes CPU ms | RSS at upload MB | RSS before MB | RSS max MB | RSS at the end MB | created / updated / skipped / failed |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    importRow(imported),
    ...(bigRun ? [importRow(bigRun)] : []),
    '',
    '## Export',
    '',
    `Every contact of the first workspace, \`fields\` sys:id, firstName, lastName, email, phoneNumber and cf:Company, pages of 1,000. Seconds from the POST to the poll that saw it ready; then the file downloaded from its signed address.`,
    '',
    '| rows | export s | rows/s | server CPU ms (main thread) | server CPU us/row | PostgreSQL CPU ms | other processes CPU ms | RSS before MB | RSS max MB | file bytes | lines | download s | RSS at download MB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${fmt(exported.rows)} | ${exported.seconds} | **${fmt(exported.rowsPerSecond)}** | ${cpuCells(exported.cpu, exported.rows)} | ${exported.rssBeforeMb} | ${exported.rssMaxMb} | ${fmt(exported.bytes)} | ${fmt(exported.lines)} | ${exported.downloadSeconds} | ${exported.downloadRssMb} |`,
    '',
    `Server RSS when it started answering: ${rssAtStart} MB; over the whole run: ${rssWhole} MB at most.`,
    '',
  );
} finally {
  await stopServer(server);
  await setup.destroy();
  // A run leaves about 400 MB of SQLite and files behind: kept only when asked, for a look at its query plans.
  if (engine === 'sqlite' && process.env.BENCH_KEEP_DATABASE !== '1') rmSync(dirname(url), { recursive: true, force: true });
}

const report = lines.join('\n');
console.log(report);
writeResult(`transfers-${engine}.md`, report);
