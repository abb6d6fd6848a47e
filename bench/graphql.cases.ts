import autocannon from 'autocannon';
import type { LoadResult } from './lib.js';
import { load } from './lib.js';

/** The nested query a frontend sends for a contact list page: every relation of every contact. */
export const nestedContactsQuery = `query BenchContacts($first: Int!) {
  contacts(first: $first) {
    edges { node {
      id rawId fullName email phoneNumber createdAt
      customFields { rawId name value type }
      sequences { sequenceId sequenceName }
      tags { id name }
      notes { id text createdAt }
      inboxes { id channel inbox { id name channel status } }
      conversations { id followed lastActivityAt inbox { id name } assignedUser { id name email } assignedInboxTeam { id name } }
    } }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface Args {
  apiUrl: string;
  auth: Record<string, string>;
  seconds: number;
  sampleContactId: string;
  statementsOf: (url: string, init?: RequestInit) => Promise<number>;
}

/**
 * GraphQL nested page of 50 contacts, beside the same data fetched through REST (one request per
 * contact and relation the REST contract offers: custom fields and sequences) and beside a
 * single-contact REST read.
 */
export async function graphqlCases({ apiUrl, auth, seconds, sampleContactId, statementsOf }: Args) {
  const headers = { ...auth, 'content-type': 'application/json' };
  const bodyFor = (first: number) => JSON.stringify({ query: nestedContactsQuery, variables: { first } });
  const statements: Record<number, number> = {};
  // The first request with a token looks it up (then it is cached): warm it, or size 1 pays for it.
  await statementsOf(`${apiUrl}/graphql`, { method: 'POST', headers, body: bodyFor(1) });
  for (const size of [1, 10, 50]) statements[size] = await statementsOf(`${apiUrl}/graphql`, { method: 'POST', headers, body: bodyFor(size) });

  const first = await fetch(`${apiUrl}/graphql`, { method: 'POST', headers, body: bodyFor(50) }).then((r) => r.json() as Promise<any>);
  if (first.errors) throw new Error(`GraphQL bench query failed: ${JSON.stringify(first.errors)}`);
  const ids: string[] = first.data.contacts.edges.map((e: any) => e.node.rawId);

  const nested = { ...(await load('GraphQL contacts(first: 50), every relation', `${apiUrl}/graphql`, { method: 'POST', headers, body: bodyFor(50), seconds })), statements: statements[50] };

  // REST fan-out: each connection walks the 100 requests of one page over and over.
  const paths = ids.flatMap((id) => [`/v1/contacts/${id}/custom-fields`, `/v1/contacts/${id}/sequences`]);
  const fan = await autocannon({ url: apiUrl, connections: 10, duration: seconds, headers: auth, requests: paths.map((path) => ({ method: 'GET', path })) });
  const fanOut: LoadResult = {
    name: `REST fan-out (${paths.length} requests per page of ${ids.length})`,
    requestsPerSecond: Math.round(fan.requests.average),
    p50Ms: fan.latency.p50,
    p99Ms: fan.latency.p99,
    errors: fan.errors,
    non2xx: fan.non2xx,
  };
  const single = await load('REST single contact: GET /v1/contacts/{id}/custom-fields', `${apiUrl}/v1/contacts/${sampleContactId}/custom-fields`, { headers: auth, seconds });

  // Contact search: a keyword a handful of contacts hold (served by the trigram matches) and one
  // thousands hold (served by walking the newest-first index).
  const searchQuery = 'query BenchSearch($keyword: String!) { contacts(first: 20, keyword: $keyword) { edges { node { id fullName email } } } }';
  const search = async (keyword: string) => {
    const body = JSON.stringify({ query: searchQuery, variables: { keyword } });
    await statementsOf(`${apiUrl}/graphql`, { method: 'POST', headers, body });
    const statementCount = await statementsOf(`${apiUrl}/graphql`, { method: 'POST', headers, body });
    return { ...(await load(`GraphQL contacts(first: 20, keyword: "${keyword}")`, `${apiUrl}/graphql`, { method: 'POST', headers, body, seconds })), statements: statementCount };
  };
  const rareSearch = await search('0004242');
  const commonSearch = await search('smith');

  const pagesPerSecondRest = fanOut.requestsPerSecond / paths.length;
  const markdown = [
    `SQL statements for the nested query: ${[1, 10, 50].map((s) => `first ${s}: ${statements[s]}`).join(', ')}.`,
    '',
    '| case | req/s | pages of 50 contacts/s | p99 ms |',
    '|---|---:|---:|---:|',
    `| GraphQL nested query (one request per page) | ${nested.requestsPerSecond} | ${nested.requestsPerSecond} | ${nested.p99Ms} |`,
    `| REST fan-out (${paths.length} requests per page, custom fields + sequences only) | ${fanOut.requestsPerSecond} | ${pagesPerSecondRest.toFixed(1)} | ${fanOut.p99Ms} (per request) |`,
    `| REST single-contact read | ${single.requestsPerSecond} | | ${single.p99Ms} |`,
    `| ${rareSearch.name} | ${rareSearch.requestsPerSecond} | | ${rareSearch.p99Ms} |`,
    `| ${commonSearch.name} | ${commonSearch.requestsPerSecond} | | ${commonSearch.p99Ms} |`,
    '',
    `GraphQL delivers a page of 50 fully nested contacts ${(nested.requestsPerSecond / pagesPerSecondRest).toFixed(1)}x as often as the REST fan-out delivers the (smaller) same page; ` +
      `one nested GraphQL request costs ${(single.requestsPerSecond / nested.requestsPerSecond).toFixed(1)}x a single-contact REST read.`,
  ].join('\n');
  return { results: [nested, fanOut, single, rareSearch, commonSearch], statements, markdown };
}
