// `npm run bench`: REST and GraphQL benchmarks on a seeded 100,000-contact workspace.
// Options: BENCH_CONTACTS (100000), BENCH_ERROR_LOGS (1000000), BENCH_SECONDS (8), BENCH_SEED (42).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataset } from './dataset.js';
import { load, startProcess, stopProcess, table, type LoadResult } from './lib.js';
import { graphqlCases } from './graphql.cases.js';

const contacts = Number(process.env.BENCH_CONTACTS ?? 100_000);
const errorLogs = Number(process.env.BENCH_ERROR_LOGS ?? 1_000_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const seed = Number(process.env.BENCH_SEED ?? 42);

const dataset = await ensureDataset({ contacts, errorLogs, seed });
const auth = { authorization: `Bearer ${dataset.token}` };
const sampleContactId = String(Math.floor(contacts / 2));

const api = await startProcess('src/server.ts', {
  DATABASE_URL: dataset.databaseUrl,
  PORT: '0',
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  EXPOSE_DB_STATEMENTS: 'true',
  RATE_LIMIT_IP_POINTS: '100000000',
  RATE_LIMIT_WORKSPACE_POINTS: '100000000',
});
const baseline = await startProcess('bench/baseline-server.ts', { DATABASE_URL: dataset.databaseUrl, BENCH_WORKSPACE_ID: String(dataset.workspaceId) });

// The search case's three conditions name rows of the dataset: its first tag and the number field.
const filterFields = (await (await fetch(`${api.url}/v1/contacts/filter-fields`, { headers: auth })).json()) as { data: { field: string; label: string }[] };
const ordersField = filterFields.data.find((f) => f.label === 'Order count')!.field;
const firstTag = ((await (await fetch(`${api.url}/v1/tags`, { headers: auth })).json()) as { data: { id: string }[] }).data[0].id;
const searchBody = JSON.stringify({
  filter: {
    and: [
      { field: 'tags', operator: 'hasAny', value: [firstTag] },
      { field: ordersField, operator: 'gte', value: 3 },
      { field: 'email', operator: 'isNotEmpty' },
    ],
  },
  perPage: 50,
});
const json = { 'content-type': 'application/json' };

const restCases: { name: string; api: string; baseline: string; method?: string; body?: string }[] = [
  { name: 'GET /v1/tags', api: '/v1/tags', baseline: '/tags' },
  { name: 'GET /v1/contacts/{id}/custom-fields', api: `/v1/contacts/${sampleContactId}/custom-fields`, baseline: `/contacts/${sampleContactId}/custom-fields` },
  { name: 'GET /v1/dynamic-images?name=promo', api: '/v1/dynamic-images?name=promo', baseline: '/dynamic-images?name=promo' },
  // A keyword found in one log of eight (125,000 matches) and one found in a handful.
  { name: 'GET /v1/error-logs?keyword=timed out', api: '/v1/error-logs?keyword=timed%20out', baseline: '/error-logs?keyword=timed%20out' },
  { name: 'GET /v1/error-logs?keyword=#12345', api: '/v1/error-logs?keyword=%2312345', baseline: '/error-logs?keyword=%2312345' },
  // A page of 50 with two relations embedded (one statement each), and a three-condition search.
  { name: 'GET /v1/contacts?include=tags,customFields', api: '/v1/contacts?include=tags,customFields', baseline: '/contacts?include=tags,customFields' },
  {
    name: 'POST /v1/contacts/search (tag, number >= 3, has email)',
    api: '/v1/contacts/search',
    baseline: `/contacts/search?tag=${firstTag}&field=${ordersField.split(':')[1]}`,
    method: 'POST',
    body: searchBody,
  },
];

const statementsOf = async (url: string, init: RequestInit = {}) => {
  const r = await fetch(url, init);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return Number(r.headers.get('x-db-statements'));
};

const rest: { api: LoadResult; baseline: LoadResult }[] = [];
let gql: Awaited<ReturnType<typeof graphqlCases>>;
try {
  for (const c of restCases) {
    // A request after a token lookup (the cache keeps a token for TOKEN_CACHE_SECONDS, shorter than
    // a case) counts the statements of the request itself.
    const init = { method: c.method ?? 'GET', headers: c.body ? { ...auth, ...json } : auth, body: c.body };
    await statementsOf(api.url + c.api, init);
    const statements = await statementsOf(api.url + c.api, init);
    const a = { ...(await load(c.name, api.url + c.api, { headers: init.headers, method: init.method, body: c.body, seconds })), statements };
    const b = await load(`${c.name} (bare node:http + better-sqlite3)`, baseline.url + c.baseline, { seconds });
    rest.push({ api: a, baseline: b });
    console.error(`${c.name}: ${a.requestsPerSecond} req/s p99 ${a.p99Ms} ms; bare ${b.requestsPerSecond} req/s p99 ${b.p99Ms} ms`);
  }
  gql = await graphqlCases({ apiUrl: api.url, auth, seconds, statementsOf, sampleContactId });
} finally {
  await stopProcess(api.child);
  await stopProcess(baseline.child);
}

const ratioRows = rest.map(
  ({ api: a, baseline: b }) => `| ${a.name} | ${a.requestsPerSecond} | ${a.p99Ms} | ${b.requestsPerSecond} | ${b.p99Ms} | ${(a.requestsPerSecond / b.requestsPerSecond).toFixed(2)} | ${a.statements} |`,
);
const report = [
  `# Benchmarks`,
  '',
  `${new Date().toISOString()} · Node ${process.version} · SQLite · ${contacts.toLocaleString('en')} contacts, ${errorLogs.toLocaleString('en')} error logs · seed ${seed} · autocannon, 10 connections, ${seconds} s per case · server NODE_ENV=production, LOG_LEVEL=warn`,
  '',
  '## REST beside a bare handler running the same SQL',
  '',
  '| endpoint | API req/s | API p99 ms | bare req/s | bare p99 ms | API / bare throughput | SQL statements |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...ratioRows,
  '',
  '## GraphQL',
  '',
  gql.markdown,
  '',
  '## Raw',
  '',
  table([...rest.flatMap((r) => [r.api, r.baseline]), ...gql.results]),
  '',
].join('\n');
writeFileSync(join(import.meta.dirname, 'results', 'latest.md'), report);
console.log(report);
