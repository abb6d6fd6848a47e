import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactKeysBeyondListing, contactListingKeys } from '../src/domain/contacts/contact.schema.js';
import { fixtures } from './support/fixtures.js';
import { statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A page of contacts that selects only what a listing holds reads only a listing's columns
 * (contact-list.type.ts); a page that selects anything more reads whole contacts, in the same one
 * statement. Whichever it reads, every field answers what GET /v1/contacts/{id} answers. A field the
 * selection check missed would still answer right, through the contact loader, at the cost of a
 * second statement: so the statement counts below pin that the check saw the field.
 */
describe('GraphQL contacts: listings for a page that shows only a listing', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const CONTACTS = 30;
  /** Every contact as REST answers it, by plain id. */
  const truth = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    t = await createTestApp({}, { captureStatements: true });
    ws = await t.workspace({ name: 'Listings' });
    const f = fixtures(t.db, ws.id);
    const countries = ['DE', 'JP', null];
    for (let i = 0; i < CONTACTS; i++) {
      const id = await f.contact({ email: `l${i}@example.com`, phone: i % 4 ? `+4915100000${String(i).padStart(2, '0')}` : null, firstName: `First${i}`, lastName: i % 3 ? `Last${i}` : null });
      // Every column a listing lacks differs from contact to contact, nulls included.
      await t.db
        .updateTable('contacts')
        .set({
          avatar: i % 2 ? `https://cdn.example.com/${i}.png` : null,
          ref: `ref-${i}`,
          country: countries[i % 3],
          state: i % 5 ? `State ${i}` : null,
          city: `City ${i}`,
          location: i % 2 ? null : `Location ${i}`,
          locale: i % 2 ? 'de_DE' : 'en_US',
          timezone: i % 2 ? 'Europe/Berlin' : 'Asia/Tokyo',
          gender: (['male', 'female', 'unknown'] as const)[i % 3],
          email_verified: i % 2,
          email_opt_in: (i + 1) % 2,
          last_read_at: i % 3 ? `2026-11-0${1 + (i % 9)}T10:00:00.000Z` : null,
          subscribed_at: `2026-10-${String(10 + (i % 20)).padStart(2, '0')}T08:00:00.000Z`,
          broadcast_subscribed_at: i % 4 ? null : '2026-10-01T00:00:00.000Z',
          blocked_at: i % 7 ? null : '2026-11-20T12:00:00.000Z',
        })
        .where('id', '=', id)
        .execute();
      // Also looks the token up once, so the statement counts below hold only the queries' own.
      const res = await t.request('GET', `/v1/contacts/${id}`, { token: ws.developerToken });
      expect(res.status).toBe(200);
      truth.set(String(id), res.body);
    }
  });
  afterAll(() => t?.close());

  const listingFields = contactListingKeys.filter((key) => key !== 'id').join(' ');
  const everyField = [...contactListingKeys.filter((key) => key !== 'id'), ...contactKeysBeyondListing].join(' ');

  /** Runs a query for the whole list; answers its nodes and the statements it cost. */
  const list = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await t.graphql(query, variables, { token: ws.developerToken });
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.contacts.edges.map((e: { node: Record<string, unknown> }) => e.node) as Record<string, unknown>[];
    expect(nodes).toHaveLength(CONTACTS);
    return { nodes, statements: statementsOf(res) };
  };

  /** Every field a node holds equals REST's value of the field it names (`rawId` is REST's `id`). */
  const expectAsRest = (node: Record<string, unknown>, names: Record<string, string> = {}) => {
    const rest = truth.get(node.rawId as string)!;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'rawId') continue;
      expect({ [key]: value }).toEqual({ [key]: rest[names[key] ?? key] });
    }
  };

  /** The columns the statements of a request read from contacts, since `t.statements` was emptied. */
  const contactColumnsRead = () => t.statements.filter((sql) => sql.includes(' from "contacts"')).map((sql) => sql.slice('select '.length, sql.indexOf(' from "contacts"')));
  const listingColumns = '"id", "workspace_id", "avatar", "phone_number", "email", "first_name", "last_name", "created_at", "updated_at"';

  it('the listing fields of every contact are those of GET /v1/contacts/{id}, on the first page and the next, in one statement each', async () => {
    t.statements.length = 0;
    const first = await t.graphql(`{ contacts(first: 12) { edges { node { rawId ${listingFields} } } pageInfo { hasNextPage endCursor } } }`, {}, { token: ws.developerToken });
    expect(first.body.errors).toBeUndefined();
    expect(statementsOf(first)).toBe(1);
    const next = await t.graphql(`query ($after: String) { contacts(first: 50, after: $after) { edges { node { rawId ${listingFields} } } } }`, { after: first.body.data.contacts.pageInfo.endCursor }, { token: ws.developerToken });
    expect(next.body.errors).toBeUndefined();
    expect(statementsOf(next)).toBe(1);
    // Both read a listing's columns.
    expect(contactColumnsRead()).toEqual([listingColumns, listingColumns]);
    const nodes = [...first.body.data.contacts.edges, ...next.body.data.contacts.edges].map((e: { node: Record<string, unknown> }) => e.node);
    expect(nodes.map((n) => n.rawId).sort()).toEqual([...truth.keys()].sort());
    for (const node of nodes) {
      expect(Object.keys(node)).toHaveLength(contactListingKeys.length);
      expectAsRest(node);
    }
  });

  it('every field of every contact, listing and beyond, is that of GET /v1/contacts/{id}, in one statement', async () => {
    t.statements.length = 0;
    const { nodes, statements } = await list(`{ contacts(first: ${CONTACTS}) { edges { node { rawId ${everyField} } } } }`);
    expect(statements).toBe(1);
    expect(contactColumnsRead()).toHaveLength(1);
    expect(contactColumnsRead()[0]).toContain('"country"');
    for (const node of nodes) expectAsRest(node);
    // The fixtures gave the columns beyond a listing more than one value each.
    for (const key of contactKeysBeyondListing) expect(new Set(nodes.map((n) => JSON.stringify(n[key]))).size).toBeGreaterThan(1);
  });

  it.each([
    ['by name', '{ contacts(first: 30) { edges { node { rawId country } } } }', {}],
    ['under an alias', '{ contacts(first: 30) { edges { node { rawId where: country } } } }', { where: 'country' }],
    ['in a named fragment', '{ contacts(first: 30) { edges { node { rawId ...Place } } } } fragment Place on Contact { country }', {}],
    ['in a fragment inside an inline fragment', '{ contacts(first: 30) { edges { node { ... on Contact { rawId ...Place } } } } } fragment Place on Contact { country }', {}],
    ['in a fragment of the edge', '{ contacts(first: 30) { edges { ...Edge } } } fragment Edge on ContactEdge { node { rawId country } }', {}],
    ['in a second selection of the same list', '{ contacts(first: 30) { edges { node { rawId } } } contacts(first: 30) { edges { node { country } } } }', {}],
  ])('a field beyond a listing selected %s reads whole contacts, in one statement', async (_how, query, names) => {
    const { nodes, statements } = await list(query);
    expect(statements).toBe(1);
    for (const node of nodes) {
      expect(Object.keys(node)).toHaveLength(2);
      expectAsRest(node, names as Record<string, string>);
    }
  });

  it('a field beyond a listing left out by @include(if: false) is not answered; the list reads every column anyway', async () => {
    const { nodes, statements } = await list('query ($with: Boolean!) { contacts(first: 30) { edges { node { rawId fullName country @include(if: $with) } } } }', { with: false });
    expect(statements).toBe(1);
    for (const node of nodes) {
      expect(Object.keys(node).sort()).toEqual(['fullName', 'rawId']);
      expectAsRest(node);
    }
  });

  it('a fragment on the Node interface is part of a listing: one statement', async () => {
    const { nodes, statements } = await list('{ contacts(first: 30) { edges { node { rawId ... on Node { id } email } } } }');
    expect(statements).toBe(1);
    for (const { id, ...node } of nodes) {
      expect(atob(id as string)).toBe(`Contact:${node.rawId}`);
      expectAsRest(node);
    }
  });

  it('a keyword or a filter reads whole contacts, and answers every field as REST does', async () => {
    for (const [query, variables] of [
      ['{ contacts(first: 30, keyword: "example.com") { edges { node { rawId fullName gender } } } }', {}],
      ['query ($after: DateTime) { contacts(first: 30, createdAfter: $after) { edges { node { rawId email blockedAt } } } }', { after: '2000-01-01T00:00:00.000Z' }],
    ] as const) {
      const { nodes } = await list(query, variables);
      for (const node of nodes) expectAsRest(node);
    }
  });
});
