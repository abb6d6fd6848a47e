import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { insertFolder } from './support/contract-calls/folders.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, photoCommentBody } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

type Body = Record<string, any>;

/** POST /v1/net-comments: the photo create body for social-network posts; type chat (the default). */
describe('POST /v1/net-comments', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;

  /** The photo body without its type: net automations default to chat. */
  const netBody = (change: (b: Body) => void = () => {}) => {
    const { type: _photo, ...b } = photoCommentBody() as Body;
    b.name = 'Page replies';
    change(b);
    return b;
  };
  const post = (body: unknown, token = ws.developerToken) => api.request('POST', '/v1/net-comments', { token, body });
  const created = (body: Body) => ({
    ...body,
    id: digits(),
    createdAt: isoNow(),
    updatedAt: isoNow(),
    type: 'chat',
    folderId: body.folderId ?? null,
    isActive: true,
    startTime: body.startTime ?? null,
    endTime: body.endTime ?? null,
    repliesCount: 0,
    sentCount: 0,
    deliveredCount: 0,
    seenCount: 0,
    clickedCount: 0,
    failedCount: 0,
    missedCount: 0,
  });
  const count = async () => Number((await t.db.selectFrom('comment_automations').select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', ws.id).executeTakeFirstOrThrow()).n);
  const unknownPosts = (ids: string[]) => validationError({ field: 'post.value', reason: 'notFound', ids });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    const page = await f.inbox('Bloom page', 'net');
    const photoAccount = await f.inbox('Bloom photo', 'photo');
    await f.channelPost('net', page, { id: '1020_9001' });
    await f.channelPost('net', page, { id: '1020_9002', kind: 'ads' });
    await f.channelPost('photo', photoAccount, { id: '17890001' });
    const o = fixtures(t.db, other.id);
    await o.channelPost('net', await o.inbox('Their page', 'net'), { id: '3030_7001' });
  });
  afterAll(() => t.close());

  it('creates an active chat automation: 201 with the whole record and Location, read back on the net channel only', async () => {
    const body = netBody();
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual(created(body));
    expect(res.body.updatedAt).toBe(res.body.createdAt);
    expect(res.headers.get('location')).toBe(`/v1/net-comments/${res.body.id}`);
    const read = await api.request('GET', `/v1/net-comments/${res.body.id}`, { token: ws.userToken });
    expect([read.status, read.body]).toEqual([200, res.body]);
    expect((await api.request('GET', `/v1/photo-comments/${res.body.id}`, { token: ws.developerToken })).body).toEqual(notFound('Comment automation'));
    const row = await t.db.selectFrom('comment_automations').select(['channel', 'type', 'workspace_id']).where('id', '=', Number(res.body.id)).executeTakeFirstOrThrow();
    expect(row).toEqual({ channel: 'net', type: 'chat', workspace_id: ws.id });
  });

  it('takes type chat explicitly, with folderId (a comment automation folder) and the times', async () => {
    const folderId = String(await insertFolder(t.db, ws.id, 'commentAutomation', 'Page replies'));
    const body = netBody((b) => Object.assign(b, { type: 'chat', folderId, startTime: '08:00', endTime: '20:30' }));
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual(created(body));
  });

  it('refuses every other type: photo and photoNet are photo-network connections, microblog another network', async () => {
    for (const type of ['photo', 'photoNet', 'microblog', 'CHAT', '']) {
      const res = await post(netBody((b) => (b.type = type)));
      expect(res.status, type).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'Invalid input: expected "chat"', path: ['body', 'type'] }]));
    }
  });

  it('checks the body as the photo create does: every required field, nested objects strict, no unknown keys', async () => {
    const res = await post({ name: '' });
    expect(res.status).toBe(422);
    expect(res.body.data.issues.map((i: { path: string[] }) => i.path.join('.'))).toEqual([
      'body.name',
      'body.post',
      'body.privateReply',
      'body.publicReply',
      'body.includeKeywords',
      'body.excludeKeywords',
      'body.options',
      'body.hideComments',
      'body.replyAfter',
    ]);
    const extra = await post(netBody((b) => Object.assign(b, { isActive: false, repliesCount: 3 })));
    expect(extra.body).toEqual(
      invalidRequestData([
        { message: 'Unrecognized key: "isActive"', path: ['body', 'isActive'] },
        { message: 'Unrecognized key: "repliesCount"', path: ['body', 'repliesCount'] },
      ]),
    );
    const partial = await post(netBody((b) => (b.options = { likeUserComment: true })));
    expect(partial.status).toBe(422);
    expect(partial.body.data.issues).toContainEqual({ message: 'Required', path: ['body', 'options', 'trackUserTags'] });
  });

  it("accepts postIds of the workspace's net posts, as pageId_postId or the bare post id", async () => {
    const body = netBody((b) => (b.post = { type: 'postIds', value: ['1020_9001', '9002'] }));
    const res = await post(body);
    expect(res.status).toBe(201);
    // Stored as given.
    expect(res.body).toEqual(created(body));
  });

  it("refuses postIds that are no net post of the workspace (unknown, a photo medium, another workspace's post): 422 naming each once; nothing is created", async () => {
    const before = await count();
    const res = await post(netBody((b) => (b.post = { type: 'postIds', value: ['1020_9001', '17890001', '3030_7001', '7001', '9999', '9999', '1020_9003'] })));
    expect(res.status).toBe(422);
    expect(res.body).toEqual(unknownPosts(['17890001', '3030_7001', '7001', '9999', '1020_9003']));
    // A bare id matches only the part after the page; a full id must match whole.
    expect((await post(netBody((b) => (b.post = { type: 'postIds', value: ['1020', '0_9001', '9001_'] })))).body).toEqual(unknownPosts(['1020', '0_9001', '9001_']));
    expect(await count()).toBe(before);
  });

  it('does not check post.value for the other selector types', async () => {
    for (const type of ['published', 'ads', 'reels', 'all']) {
      const res = await post(netBody((b) => (b.post = { type, value: ['whatever'] })));
      expect(res.status, type).toBe(201);
    }
  });

  it('needs a full token with the automations scope, and an open trial', async () => {
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    expect((await post(netBody(), readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
    const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
    expect((await post(netBody(), tagsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'automations' }));
    const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
    const gated = await post(netBody(), expired.developerToken);
    expect([gated.status, gated.body.code]).toEqual([403, 'trialExpired']);
  });
});
