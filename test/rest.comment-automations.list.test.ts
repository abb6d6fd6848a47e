import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { day, storedAutomation } from './support/comment-automations.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData } from './support/rest.js';

/** GET /v1/photo-comments and GET /v1/net-comments: pages, newest first, filtered by name, isActive and folderId. */
describe('comment automation lists', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const ids: Record<string, number> = {};

  const list = (channel: 'photo' | 'net', query = '', token = ws.developerToken) => api.request('GET', `/v1/${channel}-comments${query}`, { token });

  /** The stored photo automations, as listed. */
  const photo = {
    giveaway: () => storedAutomation(ids.giveaway, 'Spring giveaway', 'photo', { createdAt: day(5), updatedAt: day(5) }),
    priceDm: () => storedAutomation(ids.priceDm, 'Price DM', 'photo', { createdAt: day(4), updatedAt: day(4), isActive: false, folderId: '12', type: 'photoNet' }),
    reels: () => storedAutomation(ids.reels, 'Reels price list', 'photo', { createdAt: day(3), updatedAt: day(3), folderId: '12' }),
    // Two created at the same instant: the newer id first.
    twinA: () => storedAutomation(ids.twinA, '100% off', 'photo', { createdAt: day(2), updatedAt: day(2) }),
    twinB: () => storedAutomation(ids.twinB, 'Under_score', 'photo', { createdAt: day(2), updatedAt: day(2), isActive: false }),
  };
  const net = {
    faq: () => storedAutomation(ids.faq, 'Page FAQ', 'net', { createdAt: day(6), updatedAt: day(6) }),
    promo: () => storedAutomation(ids.promo, 'Promo PRICE replies', 'net', { createdAt: day(1), updatedAt: day(1), isActive: false, folderId: '12' }),
  };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    ids.reels = await f.commentAutomation('photo', 'Reels price list', { createdAt: day(3), folderId: '12' });
    ids.giveaway = await f.commentAutomation('photo', 'Spring giveaway', { createdAt: day(5) });
    ids.twinA = await f.commentAutomation('photo', '100% off', { createdAt: day(2) });
    ids.twinB = await f.commentAutomation('photo', 'Under_score', { createdAt: day(2), isActive: false });
    ids.priceDm = await f.commentAutomation('photo', 'Price DM', { createdAt: day(4), isActive: false, folderId: '12', type: 'photoNet' });
    ids.faq = await f.commentAutomation('net', 'Page FAQ', { createdAt: day(6) });
    ids.promo = await f.commentAutomation('net', 'Promo PRICE replies', { createdAt: day(1), isActive: false, folderId: '12' });
    // Another workspace's automations, with the same names and folder: never listed here.
    const o = fixtures(t.db, other.id);
    ids.otherPhoto = await o.commentAutomation('photo', 'Price DM', { createdAt: day(9), folderId: '12' });
    ids.otherNet = await o.commentAutomation('net', 'Page FAQ', { createdAt: day(9) });
  });
  afterAll(() => t.close());

  it("lists the channel's automations, whole, newest first (ties by the newest id), in one page by default", async () => {
    const res = await list('photo');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [photo.giveaway(), photo.priceDm(), photo.reels(), photo.twinB(), photo.twinA()], pageCount: 1 });
    const nets = await list('net', '', ws.userToken);
    expect(nets.status).toBe(200);
    expect(nets.body).toEqual({ data: [net.faq(), net.promo()], pageCount: 1 });
  });

  it('filters by name: a substring in any case, wildcards taken literally; an empty name filters nothing', async () => {
    expect((await list('photo', '?name=PRICE')).body).toEqual({ data: [photo.priceDm(), photo.reels()], pageCount: 1 });
    expect((await list('net', '?name=price')).body).toEqual({ data: [net.promo()], pageCount: 1 });
    expect((await list('photo', '?name=%25')).body).toEqual({ data: [photo.twinA()], pageCount: 1 });
    expect((await list('photo', '?name=_')).body).toEqual({ data: [photo.twinB()], pageCount: 1 });
    expect((await list('photo', '?name=nothing')).body).toEqual({ data: [], pageCount: 0 });
    expect((await list('photo', '?name=')).body.data).toHaveLength(5);
  });

  it('filters by isActive (true or false) and by folderId, alone and together', async () => {
    expect((await list('photo', '?isActive=true')).body).toEqual({ data: [photo.giveaway(), photo.reels(), photo.twinA()], pageCount: 1 });
    expect((await list('photo', '?isActive=false')).body).toEqual({ data: [photo.priceDm(), photo.twinB()], pageCount: 1 });
    expect((await list('photo', '?folderId=12')).body).toEqual({ data: [photo.priceDm(), photo.reels()], pageCount: 1 });
    expect((await list('photo', '?folderId=12&isActive=true&name=reels')).body).toEqual({ data: [photo.reels()], pageCount: 1 });
    expect((await list('net', '?folderId=12&isActive=false')).body).toEqual({ data: [net.promo()], pageCount: 1 });
    expect((await list('net', '?folderId=13')).body).toEqual({ data: [], pageCount: 0 });
  });

  it('pages with page and perPage; pageCount counts the filtered rows; a page past the end is empty', async () => {
    expect((await list('photo', '?perPage=2')).body).toEqual({ data: [photo.giveaway(), photo.priceDm()], pageCount: 3 });
    expect((await list('photo', '?perPage=2&page=2')).body).toEqual({ data: [photo.reels(), photo.twinB()], pageCount: 3 });
    expect((await list('photo', '?perPage=2&page=3')).body).toEqual({ data: [photo.twinA()], pageCount: 3 });
    expect((await list('photo', '?perPage=2&page=4')).body).toEqual({ data: [], pageCount: 3 });
    expect((await list('photo', '?perPage=1&page=2&isActive=false')).body).toEqual({ data: [photo.twinB()], pageCount: 2 });
  });

  it("never shows another workspace's automations; that workspace sees only its own", async () => {
    const mine = [...(await list('photo', '?perPage=50')).body.data, ...(await list('net')).body.data].map((a: { id: string }) => a.id);
    expect(mine).not.toContain(String(ids.otherPhoto));
    expect(mine).not.toContain(String(ids.otherNet));
    expect((await list('photo', '', other.developerToken)).body).toEqual({
      data: [storedAutomation(ids.otherPhoto, 'Price DM', 'photo', { createdAt: day(9), updatedAt: day(9), folderId: '12' })],
      pageCount: 1,
    });
    expect((await list('net', '?name=faq', other.developerToken)).body).toEqual({
      data: [storedAutomation(ids.otherNet, 'Page FAQ', 'net', { createdAt: day(9), updatedAt: day(9) })],
      pageCount: 1,
    });
  });

  it('validates the query: isActive true or false, folderId digits, page bounds, no other parameter', async () => {
    const cases: [string, { message: string; path: (string | number)[] }[]][] = [
      ['?isActive=yes', [{ message: 'isActive must be true or false', path: ['query', 'isActive'] }]],
      ['?isActive=TRUE', [{ message: 'isActive must be true or false', path: ['query', 'isActive'] }]],
      ['?isActive=1', [{ message: 'isActive must be true or false', path: ['query', 'isActive'] }]],
      ['?folderId=abc', [{ message: 'must be a digit string', path: ['query', 'folderId'] }]],
      ['?folderId=', [{ message: 'must be a digit string', path: ['query', 'folderId'] }]],
      ['?perPage=51', [{ message: 'perPage must be at most 50', path: ['query', 'perPage'] }]],
      ['?page=0', [{ message: 'page must be at least 1', path: ['query', 'page'] }]],
      [`?name=${'n'.repeat(256)}`, [{ message: 'Too big: expected string to have <=255 characters', path: ['query', 'name'] }]],
      ['?channel=net', [{ message: 'Unrecognized key: "channel"', path: ['query', 'channel'] }]],
    ];
    for (const channel of ['photo', 'net'] as const) {
      for (const [query, issues] of cases) {
        const res = await list(channel, query);
        expect(res.status, `${channel} ${query}`).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
    }
  });

  it('needs the automations scope', async () => {
    const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
    for (const channel of ['photo', 'net'] as const) {
      const res = await list(channel, '', tagsOnly);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(forbidden({ reason: 'missingScope', scope: 'automations' }));
    }
  });
});
