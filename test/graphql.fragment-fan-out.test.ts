import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureDocument } from '../src/graphql/document-limits.js';
import { unlimited } from './support/endpoints.js';
import { testEngine } from './support/engine.js';
import { documentError, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A document whose fragments spread the next one twice asks for 2^n fields in a few hundred
 * tokens. It is measured without being spread out and refused before validation, compilation or
 * any resolver: quickly, and without holding up the requests around it.
 */

/** `fragment F0 on Tag { id ...F1 ...F1 }` down to F{n-1}, spread by `root`. */
function fanOut(n: number, root = '{ tags { ...F0 } }', wrap = (spreads: string) => spreads): string {
  const lines = [root];
  for (let i = 0; i < n - 1; i++) lines.push(`fragment F${i} on Tag { id ${wrap(`...F${i + 1} ...F${i + 1}`)} }`);
  lines.push(`fragment F${n - 1} on Tag { id }`);
  return lines.join('\n');
}

/** The same fan-out nested inside inline fragments: `... on Tag { ...F1 ...F1 }` in every fragment. */
const inlineFanOut = (n: number) => fanOut(n, '{ tags { ... on Tag { ... on Tag { ...F0 } } } }', (spreads) => `... on Tag { ${spreads} }`);
/** The same fan-out under a mutation's field: refused, the mutation never runs. */
const mutationFanOut = (n: number) => fanOut(n, 'mutation { createTag(input: { name: "Never made" }) { ...F0 } }');

const limitError = (issue: string, message: string) => documentError(issue, {}, ['query'], message);
const fieldLimit = (found: string) => limitError(`Query field count limit of 1000 exceeded, found ${found}.`, `Query field count ${found} exceeds the limit of 1000`);
const spreadLimit = (found: number) => limitError(`Fragment spreads limit of 100 exceeded, found ${found}.`, `Query fragment spread count ${found} exceeds the limit of 100`);
/**
 * The errors of n chained fragments (whatever their root): 50 ask for 2^50 fields in 99 spreads;
 * 500 write 999 spreads and ask for more fields than a safe integer counts.
 */
const refusalOf = (n: 50 | 500) => (n === 50 ? [fieldLimit(String(2 ** 50))] : [spreadLimit(999), fieldLimit(`at least ${Number.MAX_SAFE_INTEGER}`)]);

/**
 * What a refused document answers, by the client's Accept (docs/graphql.md, HTTP statuses): 200
 * under application/json (the GraphQL-over-HTTP spec's status for a well-formed request), 422
 * under application/graphql-response+json; the same errors either way.
 */
const refusedStatuses = [
  ['application/json', 200],
  ['application/graphql-response+json', 422],
] as const;

describe(`fragment fan-out is refused before it is spread out (${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // Tokens raised so that 500 fragments reach the measure (the default refuses them at parsing).
    t = await createTestApp({ ...unlimited, GRAPHQL_MAX_TOKENS: '100000' });
    ws = await t.workspace({ name: 'Fan-out' });
    await t.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: 'Only tag' } });
    server = createServer(t.app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const send = (query: string, accept?: string) => t.graphql(query, undefined, { token: ws.developerToken, headers: accept ? { accept } : {} });

  /** Sends a document under each Accept of refusedStatuses: refused with `errors` at that status, before any SQL. */
  const expectRefused = async (query: string, errors: unknown[]) => {
    for (const [accept, status] of refusedStatuses) {
      const res = await send(query, accept);
      expect({ accept, status: res.status, body: res.body, statements: statementsOf(res) }).toEqual({ accept, status, body: { errors }, statements: 0 });
    }
  };

  // How long the measure takes is a figure of bench/ (the machine's load is not the code's); what
  // makes it fast is that it looks at each selection written once: 3n for n chained fragments
  // (the root's field and spread, each fragment's id and two spreads, the last one's id), 4n + 1
  // nested in inline fragments (the root's two inline fragments, and one in each fragment).
  it('measures 50 and 500 chained fragments looking at each written selection once, without spreading them', () => {
    const visited = (document: string) => measureDocument(parse(document, { maxTokens: 100_000 })).visited;
    for (const n of [50, 500]) {
      expect(visited(fanOut(n))).toBe(3 * n);
      expect(visited(inlineFanOut(n))).toBe(4 * n + 1);
      expect(visited(mutationFanOut(n))).toBe(3 * n);
    }
    expect(measureDocument(parse(fanOut(50)))).toEqual({ fields: 2 ** 50, depth: 2, aliases: 0, directives: 0, spreads: 99, fieldDirectives: 0, visited: 150 });
  });

  it.each([50, 500] as const)('%i fragments: refused with the figures of the limits they break, before any SQL', async (n) => {
    await expectRefused(fanOut(n), refusalOf(n));
  });

  it('500 fragments with the default token limit: refused while parsing', async () => {
    const strict = await createTestApp(unlimited);
    try {
      const other = await strict.workspace({ name: 'Default tokens' });
      const parsed = await strict.graphql(fanOut(500), undefined, { token: other.developerToken, headers: { accept: 'application/graphql-response+json' } });
      expect(parsed.status).toBe(422);
      expect(parsed.body).toEqual({ errors: [limitError('Token limit of 2000 exceeded.', 'Query token count exceeds the limit of 2000')] });
    } finally {
      await strict.close();
    }
  });

  it.each([50, 500] as const)('%i fragments nested inside inline fragments: refused the same way', async (n) => {
    await expectRefused(inlineFanOut(n), refusalOf(n));
  });

  it.each([50, 500] as const)('%i fragments under a mutation: refused the same way, nothing written', async (n) => {
    await expectRefused(mutationFanOut(n), refusalOf(n));
    const tags = await t.request('GET', '/v1/tags', { token: ws.developerToken });
    expect(tags.body.data.map((tag: { name: string }) => tag.name)).toEqual(['Only tag']);
  });

  // Were a refusal to spread the fragments out, the event loop would be held for hours and
  // /healthz would never answer (the test's timeout); answering at all is the behaviour.
  it('/healthz answers while fan-out documents are being refused, over a socket', async () => {
    const post = (accept: string) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.developerToken}`, 'content-type': 'application/json', accept },
        body: JSON.stringify({ query: fanOut(500) }),
      }).then(async (r) => ({ accept, status: r.status, body: await r.json() }));
    await post('application/json');
    const refusals = Array.from({ length: 6 }, (_, i) => post(refusedStatuses[i % 2]![0]));
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const answers = await Promise.all(refusals);
    expect(answers).toEqual(Array.from({ length: 6 }, (_, i) => ({ accept: refusedStatuses[i % 2]![0], status: refusedStatuses[i % 2]![1], body: { errors: refusalOf(500) } })));
  });

  it('a document within the limits still answers, through its fragments', async () => {
    const res = await send(fanOut(6));
    expect(res.body).toEqual({ data: { tags: [{ id: expect.any(String) }] } });
  });
});

describe(`documents too large to compile quickly run on graphql-js (${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ ...unlimited, GRAPHQL_JIT_MAX_FIELDS: '40' });
    ws = await t.workspace({ name: 'Executors' });
    await t.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: 'Tagged' } });
  });
  afterAll(() => t.close());

  /** graphql_executions_total by executor, from /metrics. */
  const executions = async () => {
    const text = (await t.request('GET', '/metrics')).text;
    const count = (executor: string) => Number(new RegExp(`^graphql_executions_total\\{executor="${executor}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { jit: count('jit'), js: count('graphql-js') };
  };

  it('over GRAPHQL_JIT_MAX_FIELDS, the same answer comes from graphql-js', async () => {
    const small = fanOut(4); // 15 fields
    const large = fanOut(6); // 63 fields
    const before = await executions();
    const a = await t.graphql(small, undefined, { token: ws.developerToken });
    const b = await t.graphql(large, undefined, { token: ws.developerToken });
    expect(a.body).toEqual({ data: { tags: [{ id: expect.any(String) }] } });
    expect(b.body).toEqual(a.body);
    const after = await executions();
    expect({ jit: after.jit - before.jit, js: after.js - before.js }).toEqual({ jit: 1, js: 1 });
  });
});
