import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContactIdsDocument,
  ContactsBackwardsDocument,
  ContactsWithEverythingDocument,
  CreateContactDocument,
  DynamicImagesDocument,
  ErrorLogsDocument,
  TagsDocument,
  TooDeepDocument,
  TooManyAliasesDocument,
  TwoExpensivePagesDocument,
} from './graphql/generated/graphql.js';
import { unlimited } from './support/endpoints.js';
import { documentError, gql, invalidInput, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Protection against expensive documents: depth, alias, token and cost limits (errors say which
 * limit, its maximum and what was found), `first` capped at 100 and page sizes at 50 as REST
 * (422, never clamped). A refused document runs no SQL and no resolver.
 */
describe('GraphQL document limits (defaults)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: { token: string };
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Limits' });
    token = { token: ws.developerToken };
    await gql(t, TagsDocument, {}, token); // the token lookup, cached from here on
  });
  afterAll(() => t.close());

  it('depth over 8: refused, naming the depth limit', async () => {
    const res = await gql(t, TooDeepDocument, {}, token);
    expect(res.body).toEqual({ errors: [documentError('Query depth limit of 8 exceeded, found 9.', {}, ['query'], 'Query depth 9 exceeds the limit of 8')] });
    expect(statementsOf(res)).toBe(0);
  });

  it('more than 30 aliases: refused, naming the alias limit', async () => {
    const res = await gql(t, TooManyAliasesDocument, {}, token);
    expect(res.body).toEqual({ errors: [documentError('Aliases limit of 30 exceeded, found 31.', {}, ['query'], 'Query alias count 31 exceeds the limit of 30')] });
    expect(statementsOf(res)).toBe(0);
  });

  it('cost over 5000: refused before any SQL, naming the cost limit and the cost found', async () => {
    // Each page: 1 + 100 contacts x (node 1 + conversations 1 + 10 x (contact, inbox, user: 3)).
    const res = await gql(t, TwoExpensivePagesDocument, {}, token);
    expect(res.body).toEqual({ errors: [documentError('Query cost limit of 5000 exceeded, found 6402.', {}, ['query'], 'Query cost 6402 exceeds the limit of 5000')] });
    expect(statementsOf(res)).toBe(0);
  });

  it('the nested contact page with every relation fits the default budget at first 50', async () => {
    const res = await gql(t, ContactsWithEverythingDocument, { first: 50 }, token);
    expect(res.body).toEqual({ data: { contacts: { edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } } } });
  });

  it('first over 100, or under 1: 422 at the field, never clamped', async () => {
    const over = await gql(t, ContactIdsDocument, { first: 101 }, token);
    expect(over.body).toEqual({ data: null, errors: [invalidInput(['contacts'], [{ message: 'first must be at most 100 (list-argument cap)', path: ['first'] }], 'first must be at most 100 (list-argument cap)')] });
    expect(statementsOf(over)).toBe(0);
    const zero = await gql(t, ContactIdsDocument, { first: 0 }, token);
    expect(zero.body).toEqual({ data: null, errors: [invalidInput(['contacts'], [{ message: 'first must be at least 1', path: ['first'] }], 'first must be at least 1')] });
  });

  it('last (backward pagination) is refused rather than ignored', async () => {
    const res = await gql(t, ContactsBackwardsDocument, { last: 5 }, token);
    expect(res.body).toEqual({
      data: null,
      errors: [invalidInput(['contacts'], [{ message: 'Only forward pagination is supported: use first and after', path: ['last'] }], 'last: Only forward pagination is supported: use first and after')],
    });
  });

  it('perPage 1 to 50 and page 1 to 9007199254740991, as REST', async () => {
    const bad = await gql(t, DynamicImagesDocument, { page: 0, perPage: 51 }, token);
    expect(bad.body).toEqual({
      data: null,
      errors: [
        invalidInput(
          ['dynamicImages'],
          [
            { message: 'page must be at least 1', path: ['page'] },
            { message: 'perPage must be at most 50', path: ['perPage'] },
          ],
          'page must be at least 1 (and 1 more issue)',
        ),
      ],
    });
    const last = await gql(t, ErrorLogsDocument, { page: Number.MAX_SAFE_INTEGER, perPage: 50 }, token);
    expect(last.body).toEqual({ data: { errorLogs: { pageCount: 0, data: [] } } });
    const beyond = await gql(t, ErrorLogsDocument, { page: Number.MAX_SAFE_INTEGER + 1 }, token);
    const issue = 'Variable "$page" got invalid value 9007199254740992; Expected type "SafeInt". SafeInt must be a whole number up to 9007199254740991';
    expect(beyond.body).toEqual({ errors: [documentError(issue, { locations: expect.any(Array) }, ['variables', 'page'])] });
  });
});

describe('GraphQL document limits (configured)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ ...unlimited, GRAPHQL_MAX_COST: '50', GRAPHQL_MAX_TOKENS: '60' });
    ws = await t.workspace({ name: 'Tight' });
  });
  afterAll(() => t.close());

  it('the cost grows with first: contacts(first: n) { edges { node { id } } pageInfo { ... } } costs 1 + n', async () => {
    const fits = await gql(t, ContactIdsDocument, { first: 49 }, { token: ws.developerToken });
    expect(fits.body.errors).toBeUndefined();
    const over = await gql(t, ContactIdsDocument, { first: 50 }, { token: ws.developerToken });
    expect(over.body).toEqual({ errors: [documentError('Query cost limit of 50 exceeded, found 51.', {}, ['query'], 'Query cost 51 exceeds the limit of 50')] });
    const farOver = await gql(t, ContactIdsDocument, { first: 100 }, { token: ws.developerToken });
    expect(farOver.body).toEqual({ errors: [documentError('Query cost limit of 50 exceeded, found 101.', {}, ['query'], 'Query cost 101 exceeds the limit of 50')] });
    // A document's cost is kept per variable set (yoga-options.ts): asked again, each answers as the first time.
    for (let round = 0; round < 2; round++) {
      expect((await gql(t, ContactIdsDocument, { first: 49 }, { token: ws.developerToken })).body.errors).toBeUndefined();
      expect((await gql(t, ContactIdsDocument, { first: 50 }, { token: ws.developerToken })).body).toEqual(over.body);
    }
  });

  it('an argument that fails validation fails every time, not only the first (a failed costing is not kept)', async () => {
    const first = await gql(t, ContactIdsDocument, { first: 101 }, { token: ws.developerToken });
    expect(first.body.data ?? null).toBeNull();
    expect(first.body.errors?.map((e) => e.extensions?.code)).toEqual(['invalidRequestData']);
    expect((await gql(t, ContactIdsDocument, { first: 101 }, { token: ws.developerToken })).body).toEqual(first.body);
  });

  it('more tokens than GRAPHQL_MAX_TOKENS: refused, naming the token limit', async () => {
    const res = await gql(t, ContactsWithEverythingDocument, { first: 1 }, { token: ws.developerToken });
    expect(res.body).toEqual({ errors: [documentError('Token limit of 60 exceeded.', {}, ['query'], 'Query token count exceeds the limit of 60')] });
  });
});

describe('GraphQL cost limit on mutations', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('an over-budget mutation is refused before it runs: nothing is written', async () => {
    t = await createTestApp({ ...unlimited, GRAPHQL_MAX_COST: '4' });
    const ws = await t.workspace({ name: 'Budget' });
    // createContact 1 + tags, notes, inboxes, customFields 1 each (their fields are scalars): 5.
    const res = await gql(t, CreateContactDocument, { input: { email: 'never@example.com' } }, { token: ws.developerToken });
    expect(res.body).toEqual({ errors: [documentError('Query cost limit of 4 exceeded, found 5.', {}, ['query'], 'Query cost 5 exceeds the limit of 4')] });
    expect(await t.db.selectFrom('contacts').select('id').where('email', '=', 'never@example.com').execute()).toEqual([]);
  });
});
