import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { documentError } from './support/graphql.js';
import { createTestApp, type TestApp, type TestResponse, type TestWorkspace } from './support/harness.js';
import { malformedJson } from './support/rest.js';

/**
 * The HTTP edges of /graphql answer in GraphQL's error shape with the envelope in `extensions`,
 * never an empty body, with statuses as the GraphQL-over-HTTP spec asks under application/json:
 * a request that is not a GraphQL request (bad JSON, a body that is not JSON, parameters that are
 * not GraphQL's) is 4xx; a well-formed one whose document fails is 200 with 422 invalidRequestData
 * in `extensions` (422 also as the HTTP status under application/graphql-response+json); a
 * mutation over GET is 405. The same mistake gets the same code as on REST.
 */
const error = (message: string, extensions: Record<string, unknown>) => ({ errors: [{ message, extensions }] });
const badRequest = (message: string) => error(message, { defined: false, code: 'badRequest', status: 400 });
const unsupportedMediaType = error('Request bodies must be sent as application/json', { defined: false, code: 'unsupportedMediaType', status: 415 });
const invalidOperation = documentError('Could not determine what operation to execute.', {}, ['operationName']);

function expectJson(res: TestResponse, status: number, body: unknown, type = 'application/json; charset=utf-8') {
  expect([res.status, res.headers.get('content-type'), res.body]).toEqual([status, type, body]);
}

describe('GraphQL HTTP errors in the envelope', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let auth: { token: string };
  const post = (body: string, headers: Record<string, string> = {}, options = auth) => t.request('POST', '/graphql', { ...options, body, headers });
  const get = (query: string, headers: Record<string, string> = {}) => t.request('GET', `/graphql?${query}`, { ...auth, headers });
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Edges' });
    auth = { token: ws.developerToken };
  });
  afterAll(() => t.close());

  it('malformed JSON: 400 malformedJson, as REST answers the same body', async () => {
    const body = '{"query": "{ tags { id } }",';
    const rest = await t.request('POST', '/v1/contacts', { ...auth, body });
    expect(rest.body).toEqual(malformedJson());
    const { message, ...extensions } = rest.body;
    expectJson(await post(body), 400, error(message, extensions));
  });

  it('a body that is not JSON: 415 unsupportedMediaType (text/plain, and GraphQL or form bodies, as on REST)', async () => {
    for (const type of ['text/plain', 'application/graphql', 'application/x-www-form-urlencoded']) {
      const res = await post(type === 'application/x-www-form-urlencoded' ? 'query=%7B%20tags%20%7B%20id%20%7D%20%7D' : '{ tags { id } }', { 'content-type': type });
      expectJson(res, 415, unsupportedMediaType);
      expect(res.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
    }
    // JSON with a charset, or a +json type, is JSON.
    const ok = await post(JSON.stringify({ query: '{ tags { id } }' }), { 'content-type': 'application/graphql+json; charset=utf-8' });
    expectJson(ok, 200, { data: { tags: [] } }, 'application/json; charset=utf-8');
  });

  it('parameters that are not a GraphQL request: 400 badRequest, without a stray Allow header', async () => {
    const cases: [string, string][] = [
      ['', 'POST /graphql needs a JSON body: {"query": "..."}'],
      ['null', 'Expected params to be an object but given null.'],
      ['{}', 'Must provide query string.'],
      ['{"query": 1}', 'Expected "query" param to be a string, but given number.'],
      ['{"query": "{ tags { id } }", "variables": "x"}', 'Expected "variables" param to be empty or an object, but given string.'],
      ['{"query": "{ tags { id } }", "foo": 1}', 'Unexpected parameter "foo" in the request body.'],
      ['[{"query": "{ tags { id } }"}]', 'Batching is not supported.'],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expectJson(res, 400, badRequest(message));
      expect(res.headers.get('allow')).toBeNull();
    }
    expectJson(await get('operationName=x', { accept: 'application/json' }), 400, badRequest('Must provide query string.'));
  });

  it('GET with variables that are not JSON: 400 malformedJson naming the parameter (was a 500)', async () => {
    const res = await get(`query=${encodeURIComponent('query ($first: Int) { contacts(first: $first) { edges { cursor } } }')}&variables=%7Bfirst`);
    expectJson(
      res,
      400,
      error('The variables parameter is not valid JSON', { defined: false, code: 'malformedJson', status: 400, data: { parameter: 'variables', reason: expect.any(String) } }),
    );
  });

  it('a mutation over GET: 405 methodNotAllowed with Allow: POST, and nothing changes', async () => {
    const f = fixtures(t.db, ws.id);
    const conversation = await f.conversation({ contactId: await f.contact({ email: 'get@example.com' }) });
    const res = await get(`query=${encodeURIComponent(`mutation { unfollowConversation(id: "${conversation}") { success } }`)}`);
    expectJson(res, 405, error('Can only perform a mutation operation from a POST request.', { defined: false, code: 'methodNotAllowed', status: 405 }));
    expect(res.headers.get('allow')).toBe('POST');
    const row = await t.db.selectFrom('conversations').select('followed').where('id', '=', conversation).executeTakeFirstOrThrow();
    expect(Boolean(row.followed)).toBe(true);
  });

  it('an operation that cannot be chosen is the document failing: 200 with 422 invalidRequestData at operationName', async () => {
    const unknown = await post(JSON.stringify({ query: 'query A { tags { id } }', operationName: 'B' }));
    expectJson(unknown, 200, { errors: [invalidOperation] });
    const unnamed = await post(JSON.stringify({ query: 'query A { tags { id } } query B { tags { name } }' }));
    expectJson(unnamed, 200, { errors: [invalidOperation] });
    const chosen = await post(JSON.stringify({ query: 'query A { tags { id } } query B { tags { name } }', operationName: 'B' }));
    expectJson(chosen, 200, { data: { tags: [] } });
  });

  it('a document that fails: 200 under application/json, 422 under application/graphql-response+json', async () => {
    const syntaxError = { errors: [documentError('Syntax Error: Expected Name, found <EOF>.', { locations: [{ line: 1, column: 13 }] })] };
    const body = JSON.stringify({ query: '{ tags { id ' });
    expectJson(await post(body), 200, syntaxError);
    expectJson(await post(body, { accept: 'application/json' }), 200, syntaxError);
    expectJson(await post(body, { accept: 'application/graphql-response+json' }), 422, syntaxError, 'application/graphql-response+json; charset=utf-8');
  });

  it('an Accept header that allows nothing GraphQL serves: the answer as application/json (never an empty 406)', async () => {
    const res = await get(`query=${encodeURIComponent('{ tags { id } }')}`, { accept: 'application/xml' });
    expectJson(res, 200, { data: { tags: [] } });
  });

  it('authentication still comes first: a malformed body without a token is 401', async () => {
    const res = await post('{"query": ', {}, {} as { token: string });
    expectJson(res, 401, error('Authentication required: send a token as "Authorization: Bearer <token>"', { defined: true, code: 'UNAUTHORIZED', status: 401 }));
  });
});
