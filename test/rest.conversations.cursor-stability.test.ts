import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { minutesAfterT0 } from './support/conversation-bodies.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * GET /v1/conversations pages by keyset (last activity, then id), never by offset: rows inserted
 * or deleted while a client walks the list never make it repeat or skip a row that existed when it
 * read the first page. Rows inserted past its position show up where the order puts them.
 */
describe('GET /v1/conversations: cursors are stable under inserts and deletes', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;

  type Page = { data: { id: string }[]; nextCursor: string | null; prevCursor: string | null };
  const setUp = async (name: string) => {
    const ws = await t.workspace({ name });
    const f = fixtures(t.db, ws.id);
    const contact = await f.contact({ email: `${name.toLowerCase()}@example.com` });
    const at = (minutes: number) => f.conversation({ contactId: contact, lastActivityAt: minutesAfterT0(minutes) }).then(String);
    /** A page as ids, with whether each cursor is there (their text is opaque). */
    const page = async (query: string) => {
      const res = await api.request('GET', `/v1/conversations?${query}`, { token: ws.developerToken });
      expect(res.status, query).toBe(200);
      return res.body as Page;
    };
    return { at, page };
  };
  const shape = (p: Page) => ({ ids: p.data.map((c) => c.id), next: p.nextCursor !== null, prev: p.prevCursor !== null });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
  });
  afterAll(() => t.close());

  it('walks forward after inserts of newer, tied and older rows, every original row once; and back with prevCursor', async () => {
    const { at, page } = await setUp('Busy');
    // Twelve rows, activity times with ties (the higher id first) and out of id order.
    const r: string[] = [];
    for (const minutes of [50, 40, 40, 40, 30, 70, 20, 20, 60, 10, 10, 0]) r.push(await at(minutes));
    const original = [r[5], r[8], r[0], r[3], r[2], r[1], r[4], r[7], r[6], r[10], r[9], r[11]];
    expect(shape(await page('limit=50'))).toEqual({ ids: original, next: false, prev: false });

    const first = await page('limit=4');
    expect(shape(first)).toEqual({ ids: [r[5], r[8], r[0], r[3]], next: true, prev: false });

    // Meanwhile: two newer rows; a row tying page 1's r8 and one tying the cursor's own row r3
    // (a higher id sorts before them: they are on the read side); a row tying r7 and r6 (after
    // the cursor: it shows up just before them); two older rows (at the end).
    const newer = [await at(90), await at(80)];
    const tiedFirstPage = await at(60);
    const tiedCursor = await at(40);
    const tiedLater = await at(20);
    const older = [await at(-10), await at(-20)];

    const second = await page(`limit=4&cursor=${first.nextCursor}`);
    expect(shape(second)).toEqual({ ids: [r[2], r[1], r[4], tiedLater], next: true, prev: true });
    const third = await page(`limit=4&cursor=${second.nextCursor}`);
    expect(shape(third)).toEqual({ ids: [r[7], r[6], r[10], r[9]], next: true, prev: true });
    const fourth = await page(`limit=4&cursor=${third.nextCursor}`);
    expect(shape(fourth)).toEqual({ ids: [r[11], ...older], next: false, prev: true });
    const walked = [second, third, fourth].flatMap((p) => p.data.map((c) => c.id));
    expect(walked.filter((id) => original.includes(id))).toEqual(original.slice(4));
    expect(new Set(walked).size).toBe(walked.length);

    // Back: the same pages in reverse, then the rows newer than page 2 as the list is now.
    const back3 = await page(`limit=4&cursor=${fourth.prevCursor}`);
    expect(shape(back3)).toEqual({ ids: [r[7], r[6], r[10], r[9]], next: true, prev: true });
    const back2 = await page(`limit=4&cursor=${back3.prevCursor}`);
    expect(shape(back2)).toEqual({ ids: [r[2], r[1], r[4], tiedLater], next: true, prev: true });
    const back1 = await page(`limit=4&cursor=${back2.prevCursor}`);
    expect(shape(back1)).toEqual({ ids: [r[8], r[0], tiedCursor, r[3]], next: true, prev: true });
    const back0 = await page(`limit=4&cursor=${back1.prevCursor}`);
    expect(shape(back0)).toEqual({ ids: [...newer, r[5], tiedFirstPage], next: true, prev: false });
    // And forward again from there: no row twice, none left out.
    const again = await page(`limit=50&cursor=${back0.nextCursor}`);
    expect(shape(again).ids).toEqual([r[8], r[0], tiedCursor, r[3], ...walked]);
  });

  it("survives deletes: of the cursor's own row, and of every row past a cursor (an empty page that still leads back)", async () => {
    const { at, page } = await setUp('Churn');
    const d: string[] = [];
    for (const minutes of [5, 4, 3, 2, 1, 0]) d.push(await at(minutes));

    const first = await page('limit=2');
    expect(shape(first)).toEqual({ ids: [d[0], d[1]], next: true, prev: false });
    await t.db.deleteFrom('conversations').where('id', '=', Number(d[1])).execute();
    const second = await page(`limit=2&cursor=${first.nextCursor}`);
    expect(shape(second)).toEqual({ ids: [d[2], d[3]], next: true, prev: true });
    expect(shape(await page(`limit=2&cursor=${second.prevCursor}`))).toEqual({ ids: [d[0]], next: true, prev: false });

    await t.db.deleteFrom('conversations').where('id', 'in', [Number(d[4]), Number(d[5])]).execute();
    const emptied = await page(`limit=2&cursor=${second.nextCursor}`);
    expect(emptied).toEqual({ data: [], nextCursor: null, prevCursor: expect.any(String) });
    // Back from the empty page: the rows up to and including the cursor's own row.
    expect(shape(await page(`limit=2&cursor=${emptied.prevCursor}`))).toEqual({ ids: [d[2], d[3]], next: false, prev: true });
  });
});
