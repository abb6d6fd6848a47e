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

const limitError = (issue: string, message: string) => documentError(issue, {}, ['query'], message);
const fieldLimit = (found: string) => limitError(`Query field count limit of 1000 exceeded, found ${found}.`, `Query field count ${found} exceeds the limit of 1000`);
const spreadLimit = (found: number) => limitError(`Fragment spreads limit of 100 exceeded, found ${found}.`, `Query fragment spread count ${found} exceeds the limit of 100`);

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

  const send = (query: string) => t.graphql(query, undefined, { token: ws.developerToken });

  // How long the measure takes is a figure of bench/ (the machine's load is not the code's); what
  // makes it fast is that it looks at each selection written once: 3n for n chained fragments
  // (the root's field and spread, each fragment's id and two spreads, the last one's id).
  it('measures 50 and 500 chained fragments looking at each written selection once, without spreading them', () => {
    for (const n of [50, 500]) expect(measureDocument(parse(fanOut(n), { maxTokens: 100_000 })).visited).toBe(3 * n);
    expect(measureDocument(parse(fanOut(50)))).toEqual({ fields: 2 ** 50, depth: 2, aliases: 0, directives: 0, spreads: 99, fieldDirectives: 0, visited: 150 });
  });

  it('50 fragments: refused with the field count, before any SQL', async () => {
    const res = await send(fanOut(50));
    expect(res.body).toEqual({ errors: [fieldLimit(String(2 ** 50))] });
    expect(statementsOf(res)).toBe(0);
  });

  it('500 fragments: refused with the spread and field counts; with the default token limit, while parsing', async () => {
    const res = await send(fanOut(500));
    expect(res.body).toEqual({ errors: [spreadLimit(999), fieldLimit(`at least ${Number.MAX_SAFE_INTEGER}`)] });
    expect(statementsOf(res)).toBe(0);

    const strict = await createTestApp(unlimited);
    try {
      const other = await strict.workspace({ name: 'Default tokens' });
      const parsed = await strict.graphql(fanOut(500), undefined, { token: other.developerToken });
      expect(parsed.body).toEqual({ errors: [limitError('Token limit of 2000 exceeded.', 'Query token count exceeds the limit of 2000')] });
    } finally {
      await strict.close();
    }
  });

  it('the same fan-out inside inline fragments, and in a mutation that writes nothing', async () => {
    const inline = fanOut(50, '{ tags { ... on Tag { ... on Tag { ...F0 } } } }', (spreads) => `... on Tag { ${spreads} }`);
    expect((await send(inline)).body).toEqual({ errors: [fieldLimit(String(2 ** 50))] });

    const mutation = fanOut(50, 'mutation { createTag(input: { name: "Never made" }) { ...F0 } }');
    const refused = await send(mutation);
    expect(refused.body).toEqual({ errors: [fieldLimit(String(2 ** 50))] });
    expect(statementsOf(refused)).toBe(0);
    const tags = await t.request('GET', '/v1/tags', { token: ws.developerToken });
    expect(tags.body.data.map((tag: { name: string }) => tag.name)).toEqual(['Only tag']);
  });

  // Were a refusal to spread the fragments out, the event loop would be held for hours and
  // /healthz would never answer (the test's timeout); answering at all is the behaviour.
  it('/healthz answers while fan-out documents are being refused, over a socket', async () => {
    const post = () =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.developerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: fanOut(500) }),
      }).then((r) => r.json());
    await post();
    const refusals = Array.from({ length: 5 }, post);
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    for (const body of await Promise.all(refusals)) expect(body).toEqual({ errors: [spreadLimit(999), fieldLimit(`at least ${Number.MAX_SAFE_INTEGER}`)] });
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
