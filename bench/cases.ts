import { fanOutPaths, nestedBody, peerBody, searchBody } from './graphql.cases.js';

/** One load of the bench: a request to the API, and the bare handler's request for the same answer. */
export interface Case {
  name: string;
  group: 'REST' | 'GraphQL';
  connections: number;
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The bare handler's request for the same answer, if it has one. */
  bare?: { path: string; method?: 'GET' | 'POST'; body?: string };
  /** How the bare answer is checked against the API's: the whole JSON, or the ids of `data` and pageCount. */
  parity?: 'exact' | 'ids';
  /**
   * The peer's request for the same page (PostGraphile, bench/peer-postgraphile.ts; PostgreSQL
   * only), its answer checked against the API's by graphql.cases.ts's page shapes.
   */
  peer?: { path: string; body: string };
  /** Many requests per page (the REST fan-out). */
  requests?: string[];
  /** A cheap read whose targets are checked (bench/README.md). */
  cheap?: boolean;
}

/** The server's environment under the bench (run.ts) and the profiler (profile.ts). */
export const apiServerEnv = (databaseUrl: string): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  NODE_ENV: 'production',
  // The access log at info is part of what a request costs; stdout goes to a file, not a terminal.
  LOG_LEVEL: 'info',
  SEED_DEMO: 'false',
  EXPOSE_DB_STATEMENTS: 'true',
  // Both rate limits stay on, with budgets no bench run reaches.
  RATE_LIMIT_IP_POINTS: '1000000000',
  RATE_LIMIT_WORKSPACE_POINTS: '1000000000',
  // The job workers are not part of an HTTP request (production runs them as `serve:worker` too).
  RUN_WORKERS: 'false',
  SHUTDOWN_DRAIN_MS: '0',
  // Links in answers (a dynamic image's imageUrl) start with it; the bare handler writes the same.
  PUBLIC_BASE_URL: BENCH_PUBLIC_BASE_URL,
});

/** The address the API's links name under the bench, whatever port a server got. */
export const BENCH_PUBLIC_BASE_URL = 'http://bench.invalid';

export async function fetchJson(url: string, init: RequestInit = {}) {
  const r = await fetch(url, init);
  const text = await r.text();
  if (!r.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${r.status} ${text.slice(0, 500)}`);
  return { body: JSON.parse(text) as any, statements: r.headers.get('x-db-statements') };
}

/** Every case, with the rows of the data set they name read from the running API. */
export async function benchCases({ apiUrl, auth, sampleContactId, workspaceId }: { apiUrl: string; auth: Record<string, string>; sampleContactId: string; workspaceId?: number }): Promise<Case[]> {
  const json = { 'content-type': 'application/json' };
  // The search case's three conditions name rows of the data set: its first tag and the number field.
  const filterFields = (await fetchJson(`${apiUrl}/v1/contacts/filter-fields`, { headers: auth })).body as { data: { field: string; label: string }[] };
  const ordersField = filterFields.data.find((f) => f.label === 'Order count')!.field;
  const firstTag = ((await fetchJson(`${apiUrl}/v1/tags`, { headers: auth })).body as { data: { id: string }[] }).data[0].id;
  const searchFilter = JSON.stringify({
    filter: { and: [{ field: 'tags', operator: 'hasAny', value: [firstTag] }, { field: ordersField, operator: 'gte', value: 3 }, { field: 'email', operator: 'isNotEmpty' }] },
    perPage: 50,
  });
  const nested = await fetchJson(`${apiUrl}/graphql`, { method: 'POST', headers: { ...auth, ...json }, body: nestedBody(50) });
  if (nested.body.errors) throw new Error(`the nested GraphQL query failed: ${JSON.stringify(nested.body.errors)}`);
  const pageIds: string[] = nested.body.data.contacts.edges.map((e: { node: { rawId: string } }) => e.node.rawId);

  return [
    { name: 'GET /v1/tags', group: 'REST', connections: 10, path: '/v1/tags', bare: { path: '/tags' }, parity: 'exact', cheap: true },
    { name: 'GET /v1/tags', group: 'REST', connections: 64, path: '/v1/tags', bare: { path: '/tags' }, cheap: true },
    { name: 'GET /v1/contacts/{id}/custom-fields', group: 'REST', connections: 10, path: `/v1/contacts/${sampleContactId}/custom-fields`, bare: { path: `/contacts/${sampleContactId}/custom-fields` }, parity: 'exact', cheap: true },
    { name: 'GET /v1/contacts/{id}/custom-fields', group: 'REST', connections: 64, path: `/v1/contacts/${sampleContactId}/custom-fields`, bare: { path: `/contacts/${sampleContactId}/custom-fields` }, cheap: true },
    { name: 'GET /v1/dynamic-images?name=promo', group: 'REST', connections: 10, path: '/v1/dynamic-images?name=promo', bare: { path: '/dynamic-images?name=promo' }, parity: 'exact' },
    // A keyword found in one log of eight (125,000 matches) and one found in a handful.
    { name: 'GET /v1/error-logs?keyword=timed out', group: 'REST', connections: 10, path: '/v1/error-logs?keyword=timed%20out', bare: { path: '/error-logs?keyword=timed%20out' }, parity: 'ids' },
    { name: 'GET /v1/error-logs?keyword=#12345', group: 'REST', connections: 10, path: '/v1/error-logs?keyword=%2312345', bare: { path: '/error-logs?keyword=%2312345' }, parity: 'ids' },
    // A page of 50 with two relations embedded (one statement each), and a three-condition search.
    { name: 'GET /v1/contacts?include=tags,customFields', group: 'REST', connections: 10, path: '/v1/contacts?include=tags,customFields', bare: { path: '/contacts?include=tags,customFields' }, parity: 'exact' },
    {
      name: 'POST /v1/contacts/search (tag, number >= 3, has email)',
      group: 'REST',
      connections: 10,
      method: 'POST',
      path: '/v1/contacts/search',
      body: searchFilter,
      bare: { path: `/contacts/search?tag=${firstTag}&field=${ordersField.split(':')[1]}` },
      parity: 'ids',
    },
    {
      name: 'GraphQL contacts(first: 50), every relation',
      group: 'GraphQL',
      connections: 10,
      method: 'POST',
      path: '/graphql',
      body: nestedBody(50),
      bare: { path: '/graphql', method: 'POST', body: nestedBody(50) },
      parity: 'exact',
      peer: workspaceId === undefined ? undefined : { path: '/graphql', body: peerBody(50, workspaceId) },
    },
    { name: `REST fan-out of that page (${fanOutPaths(pageIds).length} requests per page)`, group: 'GraphQL', connections: 10, path: '/', requests: fanOutPaths(pageIds) },
    { name: 'GraphQL contacts(first: 20, keyword: "0004242")', group: 'GraphQL', connections: 10, method: 'POST', path: '/graphql', body: searchBody('0004242') },
    { name: 'GraphQL contacts(first: 20, keyword: "smith")', group: 'GraphQL', connections: 10, method: 'POST', path: '/graphql', body: searchBody('smith') },
  ];
}

/** A case's request to the bare handler, for the same answer (it needs no token). */
export const bareRequest = (bare: NonNullable<Case['bare']>) => ({
  method: bare.method ?? 'GET',
  headers: { 'content-type': 'application/json' },
  body: bare.body,
});

/** A case's request to the API, with the bench workspace's token. */
export const apiRequest = (c: Case, auth: Record<string, string>) => ({
  method: c.method ?? 'GET',
  headers: c.body ? { ...auth, 'content-type': 'application/json' } : auth,
  body: c.body,
});
