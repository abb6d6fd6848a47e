import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { day } from './support/comment-automations.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, notFound } from './support/rest.js';

/** GET /v1/photo-comments/photo-media and GET /v1/net-comments/net-posts: the channels' posts, paged, filtered by inbox and kind. */
describe('channel posts: photo media and net posts', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let inboxes: { photoA: number; photoB: number; page: number; theirs: number };

  const media = (query = '', token = ws.developerToken) => api.request('GET', `/v1/photo-comments/photo-media${query}`, { token });
  const posts = (query = '', token = ws.developerToken) => api.request('GET', `/v1/net-comments/net-posts${query}`, { token });

  const photo = {
    spring: () => ({
      id: '178900001',
      caption: 'Spring drop',
      mediaType: 'IMAGE',
      kind: 'published',
      permalink: 'https://photo.example.com/p/178900001/',
      thumbnailUrl: 'https://cdn.example.com/178900001.jpg',
      timestamp: day(3),
      inboxId: String(inboxes.photoA),
    }),
    studio: () => ({ ...photo.spring(), id: '178900002', caption: 'Studio tour', mediaType: 'VIDEO', kind: 'reels', permalink: null, thumbnailUrl: null, timestamp: day(5) }),
    sale: () => ({ ...photo.spring(), id: '178900003', caption: null, kind: 'ads', permalink: 'https://photo.example.com/p/178900003/', thumbnailUrl: 'https://cdn.example.com/178900003.jpg', timestamp: day(4) }),
    // Same instant as sale: the later row first.
    second: () => ({ ...photo.spring(), id: '178900004', caption: 'Second account', timestamp: day(4), inboxId: String(inboxes.photoB), permalink: 'https://photo.example.com/p/178900004/', thumbnailUrl: 'https://cdn.example.com/178900004.jpg' }),
  };
  const net = {
    open: () => ({
      id: '1020_9001',
      caption: 'Open on Sunday',
      mediaType: 'status',
      kind: 'published',
      permalink: 'https://net.example.com/1020/posts/9001',
      thumbnailUrl: null,
      timestamp: day(2),
      inboxId: String(inboxes.page),
    }),
    promo: () => ({ ...net.open(), id: '1020_9002', caption: 'Free shipping', mediaType: 'photo', kind: 'ads', permalink: 'https://net.example.com/1020/posts/9002', thumbnailUrl: 'https://cdn.example.com/posts/9002.jpg', timestamp: day(6) }),
  };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    const o = fixtures(t.db, other.id);
    inboxes = { photoA: await f.inbox('Photo A', 'photo'), photoB: await f.inbox('Photo B', 'photo'), page: await f.inbox('Page', 'net'), theirs: await o.inbox('Theirs', 'photo') };
    type Post = { id: string; caption: string | null; mediaType: string; kind: string; permalink: string | null; thumbnailUrl: string | null; timestamp: string };
    const add = (channel: 'photo' | 'net', p: Post, inbox: number, fx = f) =>
      fx.channelPost(channel, inbox, { id: p.id, caption: p.caption, mediaType: p.mediaType, kind: p.kind as 'published', permalink: p.permalink, thumbnailUrl: p.thumbnailUrl, postedAt: p.timestamp });
    await add('photo', photo.spring(), inboxes.photoA);
    await add('photo', photo.sale(), inboxes.photoA);
    await add('photo', photo.studio(), inboxes.photoA);
    await add('photo', photo.second(), inboxes.photoB);
    await add('net', net.open(), inboxes.page);
    await add('net', net.promo(), inboxes.page);
    // Another workspace's medium (same id as one of ours) is never listed here.
    await add('photo', { ...photo.spring(), timestamp: day(9) }, inboxes.theirs, o);
  });
  afterAll(() => t.close());

  it("lists the channel's posts of the workspace, newest first (ties by the later row), whole", async () => {
    const res = await media();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [photo.studio(), photo.second(), photo.sale(), photo.spring()], pageCount: 1 });
    const nets = await posts('', ws.userToken);
    expect(nets.status).toBe(200);
    expect(nets.body).toEqual({ data: [net.promo(), net.open()], pageCount: 1 });
  });

  it('filters by inbox and kind; an inbox of another workspace or channel lists nothing', async () => {
    expect((await media(`?inboxId=${inboxes.photoB}`)).body).toEqual({ data: [photo.second()], pageCount: 1 });
    expect((await media('?kind=published')).body).toEqual({ data: [photo.second(), photo.spring()], pageCount: 1 });
    expect((await media(`?kind=published&inboxId=${inboxes.photoA}`)).body).toEqual({ data: [photo.spring()], pageCount: 1 });
    expect((await posts('?kind=ads')).body).toEqual({ data: [net.promo()], pageCount: 1 });
    expect((await posts('?kind=reels')).body).toEqual({ data: [], pageCount: 0 });
    for (const inbox of [inboxes.theirs, inboxes.page, 99999999999999999999]) expect((await media(`?inboxId=${inbox}`)).body).toEqual({ data: [], pageCount: 0 });
    expect((await posts(`?inboxId=${inboxes.photoA}`)).body).toEqual({ data: [], pageCount: 0 });
  });

  it('pages with page and perPage', async () => {
    expect((await media('?perPage=3')).body).toEqual({ data: [photo.studio(), photo.second(), photo.sale()], pageCount: 2 });
    expect((await media('?perPage=3&page=2')).body).toEqual({ data: [photo.spring()], pageCount: 2 });
    expect((await media('?perPage=3&page=3')).body).toEqual({ data: [], pageCount: 2 });
  });

  it("shows another workspace only its own", async () => {
    expect((await media('', other.developerToken)).body).toEqual({ data: [{ ...photo.spring(), timestamp: day(9), inboxId: String(inboxes.theirs) }], pageCount: 1 });
    expect((await posts('', other.developerToken)).body).toEqual({ data: [], pageCount: 0 });
  });

  it('validates the query: kind of published, ads or reels; inboxId digits; page bounds; nothing else', async () => {
    const cases: [string, { message: string; path: (string | number)[] }[]][] = [
      ['?kind=stories', [{ message: 'Invalid option: expected one of "published"|"ads"|"reels"', path: ['query', 'kind'] }]],
      ['?inboxId=page', [{ message: 'must be a digit string', path: ['query', 'inboxId'] }]],
      ['?perPage=0', [{ message: 'perPage must be at least 1', path: ['query', 'perPage'] }]],
      ['?channel=net', [{ message: 'Unrecognized key: "channel"', path: ['query', 'channel'] }]],
    ];
    for (const list of [media, posts]) {
      for (const [query, issues] of cases) {
        const res = await list(query);
        expect(res.status, query).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
    }
  });

  it('are literal paths, not automation ids: GET /v1/photo-comments/{id} still answers for ids', async () => {
    expect((await api.request('GET', '/v1/photo-comments/999999', { token: ws.developerToken })).body).toEqual(notFound('Comment automation'));
    expect((await t.request('GET', '/api/v1/net-comments/net-posts?kind=ads', { token: ws.developerToken })).body).toEqual({ data: [net.promo()], pageCount: 1 });
  });

  it('needs the automations scope', async () => {
    const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
    for (const list of [media, posts]) expect((await list('', tagsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'automations' }));
  });
});
