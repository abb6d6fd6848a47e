import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXACT_PAGE_COUNT_UP_TO } from '../src/domain/contacts/contact-search.service.js';
import { testEngine } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A search with more matches than its count is exact for (docs/rest.md, "A filtered contact list
 * or search counts exactly up to 1,000 matches"): every page is the matches newest first, read
 * live, on SQLite's two plans (a page near the front walks the list in order; the last pages start
 * from the tag); the count past the bound is remembered for 15 s for the same filter, and a count
 * below it never is.
 */
describe('POST /v1/contacts/search with more than 1,000 matches', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let vip: number;
  let orders: number;
  /** Each contact of the workspace, as generated. */
  const untag = async (ids: number[]) => {
    await t.db.deleteFrom('contact_tags').where('tag_id', '=', vip).where('contact_id', 'in', ids).execute();
    for (const c of contacts) if (ids.includes(c.id)) c.tagged = false;
  };
  let contacts: { id: number; createdAt: string; tagged: boolean; orders: number; email: string | null }[];
  const minute = (i: number) => new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();

  const filter = () => ({
    and: [
      { field: 'tags', operator: 'hasAny', value: [String(vip)] },
      { field: `customField:${orders}`, operator: 'gte', value: 1 },
      { field: 'email', operator: 'isNotEmpty' },
    ],
  });
  const search = (page: number, perPage = 50) =>
    t.request('POST', '/v1/contacts/search', { token: ws.developerToken, body: { filter: filter(), page, perPage } });
  /** The ids a search must answer, newest first (creation time, then id), from the generated rows. */
  const expected = () =>
    contacts
      .filter((c) => c.tagged && c.orders >= 1 && c.email !== null)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
      .map((c) => String(c.id));
  const idsOf = (body: { data: { id: string }[] }) => body.data.map((c) => c.id);

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace();
    const other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    vip = await f.tag('vip');
    orders = await f.customField('Orders', 'number');
    // 2,000 contacts, three to a creation minute (ties ordered by id); 9 in 10 tagged, 7 in 8 with
    // at least one order, 12 in 13 with an email: 1,432 matches. 300 more in another workspace,
    // with its own tag and field, match there and never here.
    const generated = Array.from({ length: 2000 }, (_, i) => ({
      createdAt: minute(Math.floor(i / 3)),
      tagged: i % 10 !== 9,
      orders: i % 8,
      email: i % 13 === 0 ? null : `c${i}@example.com`,
    }));
    const ids: number[] = [];
    for (let i = 0; i < generated.length; i += 500) {
      const rows = generated.slice(i, i + 500).map((g) => ({
        workspace_id: ws.id,
        email: g.email,
        gender: 'unknown' as const,
        email_verified: 0,
        email_opt_in: 0,
        created_at: g.createdAt,
        updated_at: g.createdAt,
      }));
      const inserted = await t.db.insertInto('contacts').values(rows).returning('id').execute();
      ids.push(...inserted.map((r) => r.id));
    }
    contacts = generated.map((g, i) => ({ ...g, id: ids[i] }));
    const now = minute(0);
    for (let i = 0; i < contacts.length; i += 500) {
      const batch = contacts.slice(i, i + 500);
      const tagged = batch.filter((c) => c.tagged).map((c) => ({ workspace_id: ws.id, contact_id: c.id, tag_id: vip, created_at: now }));
      await t.db.insertInto('contact_tags').values(tagged).execute();
      await t.db
        .insertInto('contact_custom_fields')
        .values(batch.map((c) => ({ workspace_id: ws.id, contact_id: c.id, custom_field_id: orders, value: String(c.orders), created_at: now, updated_at: now })))
        .execute();
    }
    const theirs = fixtures(t.db, other.id);
    const theirTag = await theirs.tag('vip');
    const theirField = await theirs.customField('Orders', 'number');
    for (let i = 0; i < 300; i++) {
      const id = await theirs.contact({ email: `o${i}@example.com`, createdAt: minute(i) });
      await theirs.tagContact(id, theirTag);
      await theirs.fieldValue(id, theirField, '5');
    }
    if (testEngine === 'postgres') await sql`vacuum analyze`.execute(t.db);
  });
  afterAll(() => t.close());

  it('serves every page of the matches, newest first, with their exact count', async () => {
    expect(EXACT_PAGE_COUNT_UP_TO).toBe(1000);
    const all = expected();
    expect(all).toHaveLength(1432);
    const first = await search(1);
    expect(first.status).toBe(200);
    expect(first.body.pageCount).toBe(29);
    expect(idsOf(first.body)).toEqual(all.slice(0, 50));
    for (const page of [2, 15, 28, 29]) {
      const res = await search(page);
      expect(res.body.pageCount).toBe(29);
      expect(idsOf(res.body)).toEqual(all.slice((page - 1) * 50, page * 50));
    }
    expect((await search(29)).body.data).toHaveLength(32);
    expect(await search(30)).toMatchObject({ status: 200, body: { data: [], pageCount: 29 } });
    // Pages of 7: the same remembered count, divided by the page size asked.
    const sevens = await search(205, 7);
    expect(sevens.body.pageCount).toBe(205);
    expect(idsOf(sevens.body)).toEqual(all.slice(204 * 7));
  });

  it('remembers a count above the bound for 15 s, reads the pages live, and counts again after', async () => {
    // 500 matches lose their tag: 932 are left, under the bound.
    await untag(expected().slice(100, 600).map(Number));
    const left = expected();
    expect(left).toHaveLength(932);

    const remembered = await search(2);
    expect(remembered.body.pageCount).toBe(29);
    expect(idsOf(remembered.body)).toEqual(left.slice(50, 100));
    expect(await search(20)).toMatchObject({ body: { data: [], pageCount: 29 } });

    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 15_001);
    try {
      const counted = await search(19);
      expect(counted.body.pageCount).toBe(19);
      expect(idsOf(counted.body)).toEqual(left.slice(900));
      // Below the bound nothing is remembered: one more contact gone is one less match at once.
      expect((await search(1, 1)).body.pageCount).toBe(932);
      await untag([Number(left[0])]);
      expect((await search(1, 1)).body.pageCount).toBe(931);
      expect(idsOf((await search(19)).body)).toEqual(left.slice(901));
    } finally {
      clock.mockRestore();
    }
  });

  it('remembers the count of a filtered list the same way, and GET /v1/contacts/count always counts', async () => {
    const tagged = () => contacts.filter((c) => c.tagged).length;
    const list = () => t.request('GET', `/v1/contacts?tagId=${vip}&perPage=50`, { token: ws.developerToken });
    const count = () => t.request('GET', `/v1/contacts/count?tagId=${vip}`, { token: ws.developerToken });
    expect(tagged()).toBe(1299);
    expect((await list()).body.pageCount).toBe(26);
    expect((await count()).body).toEqual({ count: 1299 });
    await untag(contacts.filter((c) => c.tagged).slice(0, 100).map((c) => c.id));
    expect((await list()).body.pageCount).toBe(26);
    expect((await count()).body).toEqual({ count: 1199 });
  });
});
