import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactIdsDocument, CreateContactDocument } from './graphql/generated/graphql.js';
import { unlimited } from './support/endpoints.js';
import { testEngine } from './support/engine.js';
import { fixtures, T0 } from './support/fixtures.js';
import { gql } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * `contacts(keyword:)` finds exactly what the plain LIKE (ILIKE on PostgreSQL) over
 * "first last email phone" found before the trigram index: matches across first and last name,
 * in email and phone, case-insensitive for ASCII, `%` and `_` literal, 1-2 characters without
 * trigrams, never another workspace's contacts; the index follows inserts, updates and deletes;
 * a keyword matching more than a thousand contacts (read by walking the list instead) as well.
 */
describe('GraphQL contacts keyword', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: { token: string };
  const id: Record<string, string> = {};

  const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

  /** Every id the keyword finds, newest first, paging `first` at a time through the API. */
  async function search(keyword: string, first = 100): Promise<string[]> {
    const seen: string[] = [];
    let after: string | null | undefined;
    do {
      const res = await gql(t, ContactIdsDocument, { keyword, first, after }, token);
      expect(res.body.errors).toBeUndefined();
      const { edges, pageInfo } = res.body.data!.contacts;
      seen.push(...edges.map((e) => e.node.id));
      after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
    } while (after);
    return seen;
  }

  /** What the statement before the trigram index returned, run directly. */
  async function before(keyword: string): Promise<string[]> {
    const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = sql.raw(testEngine === 'postgres' ? 'ilike' : 'like');
    const { rows } = await sql<{ id: number }>`select id from contacts where workspace_id = ${ws.id}
      and (coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, '')) ${op} ${pattern} escape '\\'
      order by created_at desc, id desc`.execute(t.db);
    return rows.map((r) => String(r.id));
  }

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Search' });
    token = { token: ws.developerToken };
    const other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    id.ada = String(await f.contact({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+14155550100', createdAt: at(5) }));
    id.grace = String(await f.contact({ firstName: 'Grace', lastName: 'Hopper', email: 'grace.hopper@navy.mil', phone: '+14155550101', createdAt: at(4) }));
    id.alan = String(await f.contact({ firstName: 'Alan', lastName: 'Turing', phone: '+442071234567', createdAt: at(3) }));
    id.percent = String(await f.contact({ firstName: '100%', lastName: 'Sure', email: 'pct@example.com', createdAt: at(2) }));
    id.underscore = String(await f.contact({ email: 'under_score@example.com', createdAt: at(2) }));
    id.phoneOnly = String(await f.contact({ phone: '+15550001111', createdAt: at(1) }));
    id.emile = String(await f.contact({ firstName: 'Émile', lastName: 'Zola', email: 'emile@example.fr', createdAt: at(0) }));
    await fixtures(t.db, other.id).contact({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@other.example', phone: '+14155550100' });
    // Through the API, as a client creates contacts.
    const created = await gql(t, CreateContactDocument, { input: { email: 'Barbara.Liskov@MIT.edu', firstName: 'Barbara', lastName: 'Liskov' } }, token);
    id.barbara = created.body.data!.createContact.id;
  });
  afterAll(() => t.close());

  it('matches across first and last name, in email and phone, any ASCII case, newest first', async () => {
    expect(await search('a lov')).toEqual([id.ada]);
    expect(await search('ADA LOVELACE')).toEqual([id.ada]);
    expect(await search('lovelace ada@')).toEqual([id.ada]);
    expect(await search('NAVY.mil')).toEqual([id.grace]);
    expect(await search('liskov@mit')).toEqual([id.barbara]);
    expect(await search('+4420712')).toEqual([id.alan]);
    expect(await search('5550001111')).toEqual([id.phoneOnly]);
    expect(await search('4155550')).toEqual([id.ada, id.grace]);
    expect(await search('example.com', 1)).toEqual([id.ada, id.underscore, id.percent]); // equal creation times: higher id first
    expect(await search('nobody')).toEqual([]);
  });

  it('takes %, _, quotes and search syntax literally', async () => {
    expect(await search('100%')).toEqual([id.percent]);
    expect(await search('%')).toEqual([id.percent]);
    expect(await search('0% s')).toEqual([id.percent]);
    expect(await search('r_s')).toEqual([id.underscore]);
    expect(await search('_')).toEqual([id.underscore]);
    expect(await search('e_h')).toEqual([]); // "grace hopper" if _ were a wildcard
    expect(await search('a%l')).toEqual([]); // "ada lovelace" if % were a wildcard
    expect(await search('ada OR grace')).toEqual([]);
    expect(await search('"ada"')).toEqual([]);
    expect(await search('ada*')).toEqual([]);
  });

  it('answers keywords of 1 and 2 characters (no trigram) from the same rule', async () => {
    expect(await search('AD')).toEqual([id.ada]);
    expect(await search('zo')).toEqual([id.emile]);
    expect(await search('@')).toEqual([id.barbara, id.ada, id.grace, id.underscore, id.percent, id.emile]);
  });

  it('returns what the plain LIKE returned, for every keyword tried', async () => {
    const keywords = ['a', 'ad', 'ada', 'Ada L', 'a l', 'e ', ' h', 'ACE', 'ce ada', '@example', 'EXAMPLE.', '.com', '+1', '555', '0101', '%', '_', '\\', 'x\\y',
      'mile', 'MILE', 'émile', 'ÉMILE', 'zola emile', 'e@e', 'Sure pct', 'score@', '"', "'", 'OR', 'NEAR(a b)', 'a*', '^ada'];
    for (const keyword of keywords) expect([keyword, await search(keyword, 2)]).toEqual([keyword, await before(keyword)]);
  });

  it('finds a renamed contact by its new name only, and a deleted one no more', async () => {
    await t.db.updateTable('contacts').set({ last_name: 'Byron', email: 'countess@example.org' }).where('id', '=', Number(id.ada)).execute();
    expect(await search('lovelace')).toEqual([]);
    expect(await search('ada@example')).toEqual([]);
    expect(await search('a byron')).toEqual([id.ada]);
    expect(await search('countess@')).toEqual([id.ada]);
    expect(await search('4155550100')).toEqual([id.ada]);
    // An update of other columns leaves the search text as it was.
    await t.db.updateTable('contacts').set({ city: 'London' }).where('id', '=', Number(id.ada)).execute();
    expect(await search('ada byron')).toEqual([id.ada]);

    await t.db.deleteFrom('contacts').where('id', '=', Number(id.grace)).execute();
    expect(await search('hopper')).toEqual([]);
    expect(await search('4155550')).toEqual([id.ada]);
  });

  it('gives the same answers for a keyword more than a thousand contacts match', async () => {
    // 1,100 matches in another workspace make "commonword" a common keyword: it walks the list.
    const third = await t.workspace({ name: 'Many' });
    await t.db
      .insertInto('contacts')
      .values(
        Array.from({ length: 1100 }, (_, i) => ({
          workspace_id: third.id, first_name: 'Commonword', last_name: `N${i}`, email: `n${i}@many.example`, phone_number: null, gender: 'unknown' as const,
          email_verified: 0, email_opt_in: 0, created_at: T0, updated_at: T0,
        })),
      )
      .execute();
    const f = fixtures(t.db, ws.id);
    const mine = [String(await f.contact({ firstName: 'Commonword', lastName: 'Mine', createdAt: at(9) })), String(await f.contact({ lastName: 'COMMONWORD', createdAt: at(8) }))];
    expect(await search('commonword', 1)).toEqual(mine);
    expect(await search('commonword')).toEqual(await before('commonword'));
    expect(await search('Commonword N1')).toEqual([]);
  });
});
