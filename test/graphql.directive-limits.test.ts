import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { testEngine } from './support/engine.js';
import { documentError, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * GRAPHQL_MAX_DIRECTIVES (directives of an operation, fragments spread out; default 50) and
 * GRAPHQL_MAX_DIRECTIVES_PER_FIELD (directives on one field, fragment spread or inline fragment;
 * default 4). A document at a limit is answered; one over it is refused with a 422 document error
 * that names the limit, its maximum and what was found, before validation: it runs no SQL and
 * no resolver.
 */

const on = '@include(if: true)';
const off = '@skip(if: false)';
/** `n` directives, alternating `@include(if: true)` and `@skip(if: false)`. */
const directives = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? on : off)).join(' ');

const totalLimit = (max: number, found: number) =>
  documentError(`Directives limit of ${max} exceeded, found ${found}.`, {}, ['query'], `Query directive count ${found} exceeds the limit of ${max}`);
const perFieldLimit = (max: number, found: number) =>
  documentError(`Directives per field limit of ${max} exceeded, found ${found}.`, {}, ['query'], `Query directive count on one field ${found} exceeds the limit of ${max}`);

/** `{ tags { ...D ...D ... } }` with `spreads` spreads of a fragment whose field carries two directives. */
const spreadDirectives = (spreads: number, extra = '') =>
  `{ tags { ${extra} ${Array.from({ length: spreads }, () => '...D').join(' ')} } }\nfragment D on Tag { id ${on} ${off} }`;

const oneTag = { data: { tags: [{ id: expect.any(String) }] } };

describe(`directive limits (defaults, ${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Directives' });
    await t.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: 'Only tag' } });
    await send('{ tags { id } }'); // the token lookup, cached from here on
  });
  afterAll(() => t.close());

  const send = (query: string, accept?: string) => t.graphql(query, undefined, { token: ws.developerToken, headers: accept ? { accept } : {} });

  it('50 directives once fragments are spread out (25 spreads of two): answered', async () => {
    const res = await send(spreadDirectives(25));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(oneTag);
    expect(statementsOf(res)).toBeGreaterThan(0);
  });

  it('51: refused naming GRAPHQL_MAX_DIRECTIVES and the count, 200 under application/json, 422 under application/graphql-response+json, before any SQL', async () => {
    const json = await send(spreadDirectives(25, `__typename ${on}`), 'application/json');
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ errors: [totalLimit(50, 51)] });
    expect(json.body.errors[0].extensions).toEqual(expect.objectContaining({ code: 'invalidRequestData', status: 422 }));
    expect(statementsOf(json)).toBe(0);

    const strict = await send(spreadDirectives(25, `__typename ${on}`), 'application/graphql-response+json');
    expect(strict.status).toBe(422);
    expect(strict.body).toEqual(json.body);
    expect(statementsOf(strict)).toBe(0);
  });

  it('counted spread out: six directives written, 63 once chained fragments spread each other twice', async () => {
    const lines = ['{ tags { ...F0 } }'];
    for (let i = 0; i < 5; i++) lines.push(`fragment F${i} on Tag { id ${on} ...F${i + 1} ...F${i + 1} }`);
    lines.push(`fragment F5 on Tag { id ${on} }`);
    const res = await send(lines.join('\n'));
    expect(res.body).toEqual({ errors: [totalLimit(50, 63)] });
    expect(statementsOf(res)).toBe(0);
  });

  it.each([
    ['a field', (d: string) => `{ tags { id ${d} } }`],
    ['a fragment spread', (d: string) => `{ tags { ...T ${d} } }\nfragment T on Tag { id }`],
    ['an inline fragment', (d: string) => `{ tags { ... on Tag ${d} { id } } }`],
  ])('5 directives on %s: refused naming GRAPHQL_MAX_DIRECTIVES_PER_FIELD and the count, before any SQL', async (_, write) => {
    const res = await send(write(directives(5)));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ errors: [perFieldLimit(4, 5)] });
    expect(statementsOf(res)).toBe(0);
  });

  it('4 directives on one field pass the limit: what answers is validation (the schema has two field directives, each once per location)', async () => {
    const res = await send(`{ tags { id ${directives(4)} } }`);
    expect(res.body).toEqual({
      errors: [
        documentError('The directive "@include" can only be used once at this location.', { locations: expect.any(Array) }),
        documentError('The directive "@skip" can only be used once at this location.', { locations: expect.any(Array) }),
      ],
    });
    expect(statementsOf(res)).toBe(0);
  });

  it('a mutation over the per-field limit writes nothing', async () => {
    const res = await send(`mutation { createTag(input: { name: "Never made" }) ${directives(5)} { id } }`, 'application/graphql-response+json');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: [perFieldLimit(4, 5)] });
    expect(statementsOf(res)).toBe(0);
    const tags = await t.request('GET', '/v1/tags', { token: ws.developerToken });
    expect(tags.body.data.map((tag: { name: string }) => tag.name)).toEqual(['Only tag']);
  });
});

describe(`directive limits (configured, ${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ ...unlimited, GRAPHQL_MAX_DIRECTIVES_PER_FIELD: '2', GRAPHQL_MAX_DIRECTIVES: '6' });
    ws = await t.workspace({ name: 'Few directives' });
    await t.request('POST', '/v1/tags', { token: ws.developerToken, body: { name: 'Only tag' } });
  });
  afterAll(() => t.close());

  const send = (query: string) => t.graphql(query, undefined, { token: ws.developerToken });

  it('GRAPHQL_MAX_DIRECTIVES_PER_FIELD=2: two directives on a field are answered, three refused', async () => {
    const at = await send(`{ tags { id ${directives(2)} } }`);
    expect(at.body).toEqual(oneTag);
    const over = await send(`{ tags { id ${directives(3)} } }`);
    expect(over.body).toEqual({ errors: [perFieldLimit(2, 3)] });
    expect(statementsOf(over)).toBe(0);
  });

  it('GRAPHQL_MAX_DIRECTIVES=6: three spreads of two directives are answered, four refused', async () => {
    const at = await send(spreadDirectives(3));
    expect(at.body).toEqual(oneTag);
    const over = await send(spreadDirectives(4));
    expect(over.body).toEqual({ errors: [totalLimit(6, 8)] });
    expect(statementsOf(over)).toBe(0);
  });

  it('over both: one error per limit, the total first', async () => {
    const res = await send(`{ tags { id ${directives(3)} ...D ...D } }\nfragment D on Tag { id ${on} ${off} }`);
    expect(res.body).toEqual({ errors: [totalLimit(6, 7), perFieldLimit(2, 3)] });
    expect(statementsOf(res)).toBe(0);
  });
});
