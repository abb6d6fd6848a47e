import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { testEngine } from './support/engine.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData } from './support/rest.js';

/**
 * JSON nested deeper than JSON_MAX_DEPTH (64 by default) is refused with 422 naming the limit,
 * before anything parses or coerces it: variables nested 20,000 levels deep in 120 KB used to
 * overflow GraphQL's variable coercion (a 200 with INTERNAL_SERVER_ERROR).
 */
describe(`JSON nesting limit (${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Deep' });
  });
  afterAll(() => t.close());

  /** `{"a":{"a":...{"a":1}}}`, `levels` objects deep. */
  const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
  const depthIssue = (found: number, path: string) => ({ message: `JSON nesting depth ${found} exceeds the limit of 64`, path: [path] });

  it('GraphQL variables 20,000 levels deep: 422 naming the limit, nothing created', async () => {
    const body = `{"query":"mutation ($i: CreateContactInput!) { createContact(input: $i) { id } }","variables":{"i":${nested(20_000)}}}`;
    expect(body.length).toBeGreaterThan(100_000);
    const res = await t.request('POST', '/graphql', { token: ws.developerToken, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      errors: [{ message: 'body: JSON nesting depth 20002 exceeds the limit of 64', extensions: { ...invalidRequestData([depthIssue(20_002, 'body')]), message: undefined } }],
    });
    expect(await t.db.selectFrom('contacts').select('id').where('workspace_id', '=', ws.id).execute()).toEqual([]);
  });

  it('GET /graphql with deep variables: 422 at the variables parameter', async () => {
    const variables = encodeURIComponent(nested(100));
    const res = await t.request('GET', `/graphql?query=${encodeURIComponent('{ tags { id } }')}&variables=${variables}`, { token: ws.developerToken });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.data).toEqual({ issues: [depthIssue(100, 'variables')] });
  });

  it('a REST body nested too deeply: the envelope, 422 at body', async () => {
    const res = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: `{"email":"deep@example.com","firstName":${nested(65)}}` });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalidRequestData([depthIssue(66, 'body')]));
  });

  it('64 levels are taken (and judged by the route as usual); brackets inside strings do not count', async () => {
    const deep = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: `{"email":"edge@example.com","firstName":${nested(63)}}` });
    expect(deep.status).toBe(422);
    expect(deep.body.data.issues.map((i: { path: unknown[] }) => i.path)).toEqual([['body', 'firstName']]);
    const name = '"' + '[{'.repeat(100);
    const text = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'brackets@example.com', firstName: name } });
    expect([text.status, text.body.firstName]).toEqual([200, name]);
  });
});
