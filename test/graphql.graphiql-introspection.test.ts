import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntrospectionDocument } from './graphql/generated/graphql.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { documentError, gql } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * GraphiQL (served to a browser's GET without a token) and introspection are on by default outside
 * production and switched off by GRAPHIQL=false and INTROSPECTION=false. GraphiQL opens with an
 * example nested contact query that runs against the schema, and says how to pass the token.
 */
const page = (t: TestApp) => t.request('GET', '/graphql', { headers: { accept: 'text/html' } });

/** The options the page hands GraphiQL: the JSON argument of the last renderYogaGraphiQL call. */
const graphiqlOptionsOf = (html: string) => {
  const call = html.slice(html.lastIndexOf('YogaGraphiQL.renderYogaGraphiQL('));
  return JSON.parse(/^[^\n]*\n\s*window\.document\.querySelector\('#root'\),\s*\n\s*(\{.*\}),\s*\n/.exec(call)![1]);
};

describe('GraphiQL and introspection on (the default outside production)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Explorer' });
  });
  afterAll(() => t.close());

  it('serves the GraphiQL page, whose example query says how to pass the token and runs without errors', async () => {
    const res = await page(t);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<title>Messaging API · GraphiQL</title>');
    const { defaultQuery, headers: headersJson, shouldPersistHeaders } = graphiqlOptionsOf(res.text);
    const headers = JSON.parse(headersJson);
    expect(shouldPersistHeaders).toBe(false);
    expect(defaultQuery).toMatch(/Authorization header/);
    expect(headers).toEqual({ Authorization: 'Bearer <paste a token here: npm start prints the demo tokens>' });
    expect(defaultQuery).toMatch(/npm start +prints the demo workspace's two tokens/);
    expect(defaultQuery).toContain('npm run --silent cli -- token create');

    const f = fixtures(t.db, ws.id);
    const contact = await f.contact({ email: 'demo@example.com', firstName: 'Demo' });
    await f.tagContact(contact, await f.tag('vip'));
    await f.conversation({ contactId: contact, inboxId: await f.inbox('Chat'), userId: await f.user('Ann', 'ann@example.com'), teamId: await f.team('Sales') });
    const run = await t.graphql(defaultQuery, undefined, { token: ws.developerToken });
    expect(run.body.errors).toBeUndefined();
    const [edge] = run.body.data.contacts.edges;
    expect(edge.node).toMatchObject({
      email: 'demo@example.com',
      tags: [{ name: 'vip' }],
      conversations: [{ followed: true, inbox: { name: 'Chat' }, assignedUser: { name: 'Ann' }, assignedInboxTeam: { name: 'Sales' } }],
    });
  });

  it('answers introspection', async () => {
    const res = await gql(t, IntrospectionDocument, {}, { token: ws.developerToken });
    expect(res.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });
});

describe('GraphiQL and introspection switched off', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ ...unlimited, GRAPHIQL: 'false', INTROSPECTION: 'false' });
    ws = await t.workspace({ name: 'Locked' });
  });
  afterAll(() => t.close());

  it('GRAPHIQL=false: a browser gets 406 notAcceptable saying GraphiQL is disabled, token or not', async () => {
    const disabled = {
      errors: [
        {
          message: 'GraphiQL is disabled on this server (GRAPHIQL=false): send GraphQL requests to /graphql as application/json',
          extensions: { defined: false, code: 'notAcceptable', status: 406 },
        },
      ],
    };
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const options of [{ headers: { accept: 'text/html' } }, { headers: { accept: browserAccept } }, { headers: { accept: 'text/html' }, token: ws.developerToken }]) {
      const res = await t.request('GET', '/graphql', options);
      expect([res.status, res.headers.get('content-type'), res.body]).toEqual([406, 'application/json; charset=utf-8', disabled]);
    }
    // A query from the browser still runs, answered as JSON.
    const query = await t.request('GET', `/graphql?query=${encodeURIComponent('{ tags { id } }')}`, { headers: { accept: 'text/html' }, token: ws.developerToken });
    expect([query.status, query.body]).toEqual([200, { data: { tags: [] } }]);
  });

  it('INTROSPECTION=false: introspection is refused as invalid input, and field suggestions are hidden', async () => {
    const res = await gql(t, IntrospectionDocument, {}, { token: ws.developerToken });
    const refused = (field: string) =>
      documentError(`GraphQL introspection has been disabled, but the requested query contained the field "${field}".`, { locations: expect.any(Array) });
    expect(res.body).toEqual({ errors: [refused('__schema'), refused('queryType')] });
    const typo = await t.graphql('{ tagz { id } }', undefined, { token: ws.developerToken });
    expect(typo.body).toEqual({ errors: [documentError('Cannot query field "tagz" on type "Query". [Suggestion hidden]', { locations: [{ line: 1, column: 3 }] })] });
  });
});
