import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A DateTime argument written into the document (`createdAfter: "2026-11-02T08:00:00.000Z"`) means
 * what the same value sent as a variable means, and what REST's query parameter means, on the
 * compiled execution (graphql-jit) that runs such operations. Compiling the document writes nothing
 * outside the log: graphql-jit wrote a line to stderr for every document with a DateTime literal
 * while the scalar had graphql-js's two-argument default parseLiteral.
 */
describe('GraphQL DateTime arguments written as literals', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const ids: Record<string, string> = {};
  const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T08:00:00.000Z`;
  const stderrLines = vi.spyOn(console, 'error');

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    for (const [name, n] of [['ada', 1], ['grace', 2], ['alan', 3], ['edsger', 4], ['barbara', 5]] as const) {
      ids[name] = String(await f.contact({ email: `${name}@example.com`, firstName: name, createdAt: day(n) }));
    }
    stderrLines.mockClear();
  });
  afterEach(() => {
    const written = stderrLines.mock.calls.map((args) => args.join(' '));
    stderrLines.mockClear();
    expect(written).toEqual([]);
  });
  afterAll(async () => {
    stderrLines.mockRestore();
    await t.close();
  });

  const graphqlIds = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await t.graphql(query, variables, { token: ws.developerToken });
    expect(res.body.errors, JSON.stringify(res.body)).toBeUndefined();
    return (res.body.data.contacts.edges as { node: { rawId: string } }[]).map((e) => e.node.rawId);
  };
  const restIds = async (query: string) => {
    const res = await t.request('GET', `/v1/contacts${query}`, { token: ws.developerToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as { id: string }[]).map((c) => c.id);
  };

  it('a literal range selects what the same range as variables and as REST parameters selects', async () => {
    const literal = await graphqlIds(`{ contacts(first: 10, createdAfter: "${day(2)}", createdBefore: "${day(4)}") { edges { node { rawId } } } }`);
    expect(literal).toEqual([ids.alan, ids.grace]);
    expect(
      await graphqlIds('query ($a: DateTime, $b: DateTime) { contacts(first: 10, createdAfter: $a, createdBefore: $b) { edges { node { rawId } } } }', {
        a: day(2),
        b: day(4),
      }),
    ).toEqual(literal);
    expect(await restIds(`?createdAfter=${day(2)}&createdBefore=${day(4)}`)).toEqual(literal);
  });

  it('a literal with an offset is the instant it names', async () => {
    // 10:00+02:00 on the 3rd is 08:00Z, Alan's creation.
    const literal = await graphqlIds('{ contacts(first: 10, createdAfter: "2026-11-03T10:00:00+02:00") { edges { node { rawId } } } }');
    expect(literal).toEqual([ids.barbara, ids.edsger, ids.alan]);
    expect(await restIds(`?createdAfter=${encodeURIComponent('2026-11-03T10:00:00+02:00')}`)).toEqual(literal);
  });

  it('a literal that is no date-time is refused with the scalar’s message, as a variable is', async () => {
    for (const [literal, shown] of [['"yesterday"', '"yesterday"'], ['5', '5'], ['true', 'true']]) {
      const res = await t.graphql(`{ contacts(first: 1, createdAfter: ${literal}) { edges { node { rawId } } } }`, {}, { token: ws.developerToken });
      const message = `Expected value of type "DateTime", found ${shown}; DateTime must be an ISO 8601 string`;
      expect(res.body).toEqual({
        errors: [
          {
            message,
            locations: [{ line: 1, column: 36 }],
            extensions: { defined: true, code: 'invalidRequestData', status: 422, data: { issues: [{ message, path: ['query'] }] } },
          },
        ],
      });
    }
    const variable = await t.graphql('query ($a: DateTime) { contacts(first: 1, createdAfter: $a) { edges { node { rawId } } } }', { a: 'yesterday' }, { token: ws.developerToken });
    expect(variable.body.errors[0].extensions).toMatchObject({ code: 'invalidRequestData', status: 422, data: { issues: [{ path: ['variables', 'a'] }] } });
    expect(variable.body.errors[0].message).toContain('DateTime must be an ISO 8601 string');
  });
});
