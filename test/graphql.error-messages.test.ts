import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeError } from '../src/errors/describe.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Every GraphQL error's `message` says what happened (GraphiQL and clients show it), while
 * `extensions` keeps the REST envelope's code, status, defined and data unchanged (pinned in the
 * other graphql.* tests). One request per code path: the document, its limits, argument
 * validation, the domain's errors, access rules and plan gates, and the platform's refusals
 * before execution. REST keeps the contract's default messages (last test).
 */
describe('GraphQL error messages say what happened', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let full: { token: string };
  const messages = (body: { errors?: { message: string }[] }) => body.errors?.map((e) => e.message);
  const ask = async (query: string, variables?: Record<string, unknown>, options: { token?: string } = full) =>
    messages((await t.graphql(query, variables, options)).body);

  beforeAll(async () => {
    t = await createTestApp(
      { RATE_LIMIT_IP_POINTS: '1000000', RATE_LIMIT_WORKSPACE_POINTS: '1000000', GRAPHQL_MAX_DEPTH: '4', GRAPHQL_MAX_ALIASES: '2', GRAPHQL_MAX_TOKENS: '80', GRAPHQL_MAX_COST: '30', BODY_LIMIT_BYTES: '2000' },
      { captureLogs: true },
    );
    ws = await t.workspace({ name: 'Messages' });
    full = { token: ws.developerToken };
  });
  afterAll(() => t.close());

  it('document errors: GraphQL\'s own text', async () => {
    expect(await ask('{ tags { id colour } }')).toEqual(['Cannot query field "colour" on type "Tag".']);
    expect(await ask('{ tags { id ')).toEqual(['Syntax Error: Expected Name, found <EOF>.']);
    expect(await ask('query($first: Int) { contacts(first: $first) { pageInfo { hasNextPage } } }', { first: 'ten' })).toEqual([
      'Variable "$first" got invalid value "ten"; Int cannot represent non-integer value: "ten"',
    ]);
    expect(messages((await t.request('POST', '/graphql', { ...full, body: { query: 'query A { tags { id } } query B { tags { id } }' } })).body)).toEqual([
      'Could not determine what operation to execute.',
    ]);
  });

  it('document limits: found vs limit', async () => {
    expect(await ask('{ contacts { edges { node { conversations { id } } } } }')).toEqual(['Query depth 5 exceeds the limit of 4']);
    expect(await ask('{ a: tags { id } b: tags { id } c: tags { id } }')).toEqual(['Query alias count 3 exceeds the limit of 2']);
    expect(await ask(`{ tags { ${'id '.repeat(80)}} }`)).toEqual(['Query token count exceeds the limit of 80']);
    expect(await ask('{ contacts(first: 31) { edges { node { id } } } }')).toEqual(['Query cost 32 exceeds the limit of 30']);
  });

  it('argument validation: the first issue, its path when the issue does not name it, how many more', async () => {
    const create = 'mutation($input: CreateContactInput!) { createContact(input: $input) { id } }';
    expect(await ask(create, { input: { email: 'nope' } })).toEqual(['email must be a valid email address']);
    expect(await ask(create, { input: { email: 'nope', phoneNumber: '12', firstName: 'x'.repeat(256) } })).toEqual([
      'phoneNumber must be an optional + followed by 7 to 20 digits (and 2 more issues)',
    ]);
    expect(await ask(create, { input: { firstName: 'Ada' } })).toEqual(['input: Provide at least one of email or phoneNumber']);
    expect(await ask('{ contacts(first: 0) { pageInfo { hasNextPage } } }')).toEqual(['first must be at least 1']);
    expect(await ask('{ contact(identifier: "a\\u0000b") { id } }')).toEqual(['identifier: Must not contain NUL characters']);
  });

  it('the domain: notFound names the record, validation the duplicate field', async () => {
    expect(await ask('{ contact(identifier: "nobody@example.com") { id } }')).toEqual(['Contact not found']);
    expect(await ask('{ conversation(id: "999999") { id } }')).toEqual(['Conversation not found']);
    expect(await ask('mutation { deleteNetLeadAdAutomation(id: "999999") { success } }')).toEqual(['Lead-ad automation not found']);
    const create = 'mutation($input: CreateContactInput!) { createContact(input: $input) { id } }';
    expect(await ask(create, { input: { email: 'twice@example.com', phoneNumber: '+4915100000001' } })).toBeUndefined();
    expect(await ask(create, { input: { email: 'twice@example.com' } })).toEqual(['Another contact already has this email']);
    expect(await ask(create, { input: { phoneNumber: '+4915100000001' } })).toEqual(['Another contact already has this phone number']);
  });

  it('access rules: read-only, missing scope, token kind', async () => {
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    expect(await ask('mutation { followConversation(id: "1") { success } }', undefined, { token: readOnly })).toEqual([
      'This token is read-only: mutations need a full-permission token',
    ]);
    const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
    expect(await ask('{ contact(identifier: "a@example.com") { id } }', undefined, { token: tagsOnly })).toEqual(['This token lacks the "contacts" scope']);
    expect(await ask('{ workspace { name } }', undefined, { token: ws.userToken })).toEqual(['Only a workspace API token may do this: user access tokens cannot']);
  });

  it('plan gates: the trial end date, the MAC count and limit', async () => {
    const trialEndsAt = '2020-01-01T00:00:00.000Z';
    const expired = await t.workspace({ name: 'Expired', trialEndsAt });
    const follow = 'mutation { followConversation(id: "1") { success } }';
    expect(await ask(follow, undefined, { token: expired.developerToken })).toEqual([
      "The workspace's trial ended at 2020-01-01T00:00:00.000Z: writes are refused until the plan changes",
    ]);
    const capped = await t.workspace({ name: 'Capped', macLimit: 2 });
    const f = fixtures(t.db, capped.id);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await f.contact({ email, createdAt: new Date().toISOString() });
    expect(await ask(follow, undefined, { token: capped.developerToken })).toEqual([
      'The workspace has 3 monthly active contacts, its limit is 2: writes are refused',
    ]);
  });

  it('the platform, before execution: credentials, body, method, parameters', async () => {
    const none = await t.request('POST', '/graphql', { body: { query: '{ tags { id } }' } });
    expect([none.status, messages(none.body)]).toEqual([401, ['Authentication required: send a token as "Authorization: Bearer <token>"']]);
    const bad = await t.graphql('{ tags { id } }', undefined, { token: 'mdev_nope' });
    expect([bad.status, messages(bad.body)]).toEqual([401, ['The token is malformed, unknown or revoked (or a user access token sent in ?token=)']]);
    const large = await t.graphql(`{ tags { id } } # ${'x'.repeat(2000)}`, undefined, full);
    expect([large.status, messages(large.body)]).toEqual([413, ['The request body is larger than the limit of 2000 bytes']]);
    const text = await t.request('POST', '/graphql', { ...full, body: '{ tags { id } }', headers: { 'content-type': 'text/plain' } });
    expect([text.status, messages(text.body)]).toEqual([415, ['Request bodies must be sent as application/json']]);
    const put = await t.request('PUT', '/graphql', full);
    expect([put.status, messages(put.body)]).toEqual([405, ['PUT is not allowed here; use GET, POST']]);
    const noQuery = await t.request('POST', '/graphql', { ...full, body: { variables: {} } });
    expect([noQuery.status, messages(noQuery.body)?.[0]]).toEqual([400, expect.stringMatching(/query/i)]);
  });

  it('rate limits: which budget, and when to retry', async () => {
    const limited = await createTestApp({ RATE_LIMIT_IP_POINTS: '1000', RATE_LIMIT_WORKSPACE_POINTS: '1', RATE_LIMIT_WORKSPACE_WINDOW_SECONDS: '5' });
    try {
      const w = await limited.workspace({ name: 'Busy' });
      await limited.graphql('{ tags { id } }', undefined, { token: w.developerToken });
      const res = await limited.graphql('{ tags { id } }', undefined, { token: w.developerToken });
      expect([res.status, messages(res.body)]).toEqual([429, [expect.stringMatching(/^Too many requests for this workspace: retry in [1-5] seconds?$/)]]);
    } finally {
      await limited.close();
    }
  });

  it('anything unexpected stays generic', async () => {
    await fixtures(t.db, ws.id).errorLog('Timed out');
    await sql`alter table error_logs rename column created_at to logged_at`.execute(t.db);
    try {
      expect(await ask('{ errorLogs { data { id } } }')).toEqual(['An unexpected error occurred']);
    } finally {
      await sql`alter table error_logs rename column logged_at to created_at`.execute(t.db);
    }
  });

  it('REST keeps the contract\'s default messages', async () => {
    const res = await t.request('GET', '/v1/contacts/nobody@example.com/sequences', full);
    expect(res.body).toEqual({ defined: true, code: 'notFound', status: 404, message: 'Resource not found', data: { resource: 'Contact' } });
  });

  it('describeError: a long capped issue list counts the issues it left out', () => {
    const issues = [...Array.from({ length: 100 }, (_, i) => ({ message: 'Must not contain NUL characters', path: ['input', 'tags', i] })), { message: '150 more issues not shown', path: ['input'] }];
    expect(describeError({ code: 'invalidRequestData', message: 'Input validation failed', data: { issues } })).toBe(
      'input.tags[0]: Must not contain NUL characters (and 249 more issues)',
    );
  });
});
