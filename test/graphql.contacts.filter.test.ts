import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * The GraphQL side of list, count and search: `contacts` takes the list filters and `filter` (the
 * search tree), `contactsCount` the filters; both answer what REST answers, with the same checks,
 * whose issues carry GraphQL argument paths.
 */
describe('GraphQL contacts filters', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const c: Record<string, number> = {};
  let vip: number;
  let orders: number;

  const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T08:00:00.000Z`;

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    c.ada = await f.contact({ email: 'ada@example.com', firstName: 'Ada', createdAt: day(1) });
    c.grace = await f.contact({ email: 'grace@example.com', firstName: 'Grace', createdAt: day(2) });
    c.alan = await f.contact({ phone: '+4420700001', firstName: 'Alan', createdAt: day(3) });
    vip = await f.tag('vip');
    await f.tagContact(c.ada, vip);
    await f.tagContact(c.grace, vip);
    orders = await f.customField('Orders', 'number');
    await f.fieldValue(c.ada, orders, '12');
    await f.fieldValue(c.grace, orders, '3');
  });
  afterAll(() => t.close());

  const query = `query Contacts($filter: ContactFilterInput, $tagIds: [ID!], $first: Int, $after: String) {
    contacts(filter: $filter, tagIds: $tagIds, first: $first, after: $after) { edges { node { rawId } } pageInfo { hasNextPage endCursor } }
    contactsCount(tagIds: $tagIds)
  }`;
  const run = async (variables: Record<string, unknown>) => {
    const res = await t.graphql(query, variables, { token: ws.developerToken });
    expect(res.status).toBe(200);
    return res.body;
  };
  const ids = (body: any) => body.data.contacts.edges.map((e: { node: { rawId: string } }) => Number(e.node.rawId));

  it('filters with the search tree and the list filters, as REST does', async () => {
    const tree = { and: [{ field: `customField:${orders}`, operator: 'gte', value: 3 }, { field: 'firstName', operator: 'startsWith', value: 'g' }] };
    expect(ids(await run({ filter: tree }))).toEqual([c.grace]);
    const both = await run({ tagIds: [String(vip)] });
    expect(ids(both)).toEqual([c.grace, c.ada]);
    expect(both.data.contactsCount).toBe(2);
    // A tag's global id (its `id` field) names it as well as its plain id.
    expect(await run({ tagIds: [Buffer.from(`Tag:${vip}`).toString('base64')] })).toEqual(both);
    const rest = await t.request('POST', '/v1/contacts/search', { token: ws.developerToken, body: { filter: tree } });
    expect(rest.body.data.map((x: { id: string }) => Number(x.id))).toEqual([c.grace]);
  });

  it('pages a filtered list with cursors', async () => {
    const first = await run({ filter: { field: 'email', operator: 'isNotEmpty' }, first: 1 });
    expect(ids(first)).toEqual([c.grace]);
    expect(first.data.contacts.pageInfo.hasNextPage).toBe(true);
    const second = await run({ filter: { field: 'email', operator: 'isNotEmpty' }, first: 1, after: first.data.contacts.pageInfo.endCursor });
    expect(ids(second)).toEqual([c.ada]);
    expect(second.data.contacts.pageInfo.hasNextPage).toBe(false);
  });

  it('refuses a bad tree with the issue at its argument path, and an inline literal tree works too', async () => {
    const bad = await run({ filter: { or: [{ field: 'colour', operator: 'equals', value: 'red' }] } });
    expect(bad.data).toBeNull();
    expect(bad.errors[0].message).toBe('filter.or[0].field: Unknown field "colour": see GET /v1/contacts/filter-fields');
    expect(bad.errors[0].extensions).toMatchObject({
      code: 'invalidRequestData',
      status: 422,
      data: { issues: [{ message: 'Unknown field "colour": see GET /v1/contacts/filter-fields', path: ['filter', 'or', 0, 'field'] }] },
    });
    const literal = await t.graphql(`{ contacts(filter: {field: "tags", operator: "hasAll", value: ["${vip}"]}) { edges { node { rawId } } } }`, {}, { token: ws.developerToken });
    expect(ids(literal.body)).toEqual([c.grace, c.ada]);
  });

  it('refuses a variable inside a FilterValue literal, saying to send the whole value as one variable, which works', async () => {
    const inside = await t.graphql(
      'query ($tag: FilterValue) { contacts(filter: {field: "tags", operator: "hasAll", value: [$tag]}) { edges { node { rawId } } } }',
      { tag: String(vip) },
      { token: ws.developerToken },
    );
    const message = 'Expected value of type "FilterValue", found [$tag]; a FilterValue cannot hold a variable: send the whole value as one variable of type FilterValue';
    expect(inside.body).toEqual({
      errors: [
        {
          message,
          locations: [{ line: 1, column: 89 }],
          extensions: { defined: true, code: 'invalidRequestData', status: 422, data: { issues: [{ message, path: ['query'] }] } },
        },
      ],
    });
    const nested = await t.graphql(
      'query ($n: FilterValue) { contacts(filter: {field: "firstName", operator: "equals", value: {v: $n}}) { edges { node { rawId } } } }',
      { n: 'Ada' },
      { token: ws.developerToken },
    );
    expect(nested.body.errors[0].message).toContain('a FilterValue cannot hold a variable');
    const whole = await t.graphql(
      'query ($tags: FilterValue) { contacts(filter: {field: "tags", operator: "hasAll", value: $tags}) { edges { node { rawId } } } }',
      { tags: [String(vip)] },
      { token: ws.developerToken },
    );
    expect(ids(whole.body)).toEqual([c.grace, c.ada]);
  });

  it('lists the filter fields and names filter values', async () => {
    const res = await t.graphql(
      `query { contactFilterFields { field kind operators } contactFilterValueLabels(values: [{field: "tags", value: "${vip}"}, {field: "gender", value: "male"}]) { field value label } }`,
      {},
      { token: ws.developerToken },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.contactFilterFields.at(-1)).toEqual({ field: `customField:${orders}`, kind: 'number', operators: ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'isEmpty', 'isNotEmpty'] });
    expect(res.body.data.contactFilterValueLabels).toEqual([
      { field: 'tags', value: String(vip), label: 'vip' },
      { field: 'gender', value: 'male', label: 'Male' },
    ]);
  });
});
