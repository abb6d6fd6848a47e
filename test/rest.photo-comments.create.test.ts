import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { insertFolder } from './support/contract-calls/folders.js';
import { photoCommentBody } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { fixtures } from './support/fixtures.js';
import { digits, forbidden, invalidRequestData, isoNow, validationError } from './support/rest.js';

type Body = Record<string, any>;

describe('POST /v1/photo-comments', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  const post = (body: unknown, token = ws.developerToken) => api.request('POST', '/v1/photo-comments', { token, body });
  /** A valid body with one change applied. */
  const withChange = (change: (b: Body) => void) => {
    const b = photoCommentBody() as Body;
    change(b);
    return b;
  };
  const expectIssues = async (body: unknown, issues: { message: string; path: (string | number)[] }[]) => {
    const res = await post(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalidRequestData(issues));
  };

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it('creates the automation: 201 with every field, counters 0, active, times null', async () => {
    const res = await post(photoCommentBody());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ...photoCommentBody(),
      id: digits(),
      createdAt: isoNow(),
      updatedAt: isoNow(),
      folderId: null,
      isActive: true,
      startTime: null,
      endTime: null,
      repliesCount: 0,
      sentCount: 0,
      deliveredCount: 0,
      seenCount: 0,
      clickedCount: 0,
      failedCount: 0,
      missedCount: 0,
    });
    expect(res.body.name).toBe('Spring promo');
    expect(res.body.type).toBe('photo');
    expect(res.body.updatedAt).toBe(res.body.createdAt);
    // It is a photo-network automation: stored on the photo channel, invisible to /net-comments.
    const row = await t.db.selectFrom('comment_automations').select(['channel', 'workspace_id']).where('id', '=', Number(res.body.id)).executeTakeFirstOrThrow();
    expect(row).toEqual({ channel: 'photo', workspace_id: ws.id });
    expect((await api.request('GET', `/v1/net-comments/${res.body.id}`, { token: ws.developerToken })).status).toBe(404);
  });

  it('keeps folderId (a comment automation folder), startTime and endTime when given, and the photoNet type', async () => {
    const folderId = String(await insertFolder(t.db, ws.id, 'commentAutomation', 'Promotions'));
    const body = { ...photoCommentBody(), type: 'photoNet', folderId, startTime: '00:00', endTime: '23:59' };
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: digits(),
      createdAt: isoNow(),
      updatedAt: isoNow(),
      isActive: true,
      repliesCount: 0,
      sentCount: 0,
      deliveredCount: 0,
      seenCount: 0,
      clickedCount: 0,
      failedCount: 0,
      missedCount: 0,
      ...body,
    });
  });

  it('takes null for folderId (root level), the reply value and the times', async () => {
    const body = withChange((b) => {
      b.folderId = null;
      b.startTime = null;
      b.endTime = null;
      b.publicReply = { type: 'none', value: null };
    });
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ folderId: null, startTime: null, endTime: null, publicReply: { type: 'none', value: null } });
  });

  it('requires a name of 1 to 255 characters', async () => {
    expect((await post(withChange((b) => (b.name = 'n'.repeat(255))))).status).toBe(201);
    expect((await post(withChange((b) => (b.name = 'n'))))).toMatchObject({ status: 201 });
    await expectIssues(withChange((b) => (b.name = '')), [{ message: 'name must not be empty', path: ['body', 'name'] }]);
    await expectIssues(withChange((b) => (b.name = 'n'.repeat(256))), [{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]);
    await expectIssues(withChange((b) => (b.name = 7)), [{ message: 'Invalid input: expected string, received number', path: ['body', 'name'] }]);
  });

  it('requires every top-level field but folderId, startTime and endTime', async () => {
    const required = ['name', 'type', 'post', 'privateReply', 'publicReply', 'includeKeywords', 'excludeKeywords', 'options', 'hideComments', 'replyAfter'];
    for (const field of required) {
      const res = await post(withChange((b) => delete b[field]));
      expect(res.status, field).toBe(422);
      expect(res.body, field).toEqual(invalidRequestData([{ message: 'Required', path: ['body', field] }]));
    }
  });

  it('accepts only the photo and photoNet types', async () => {
    for (const type of ['chat', 'microblog', 'PHOTO', '']) {
      await expectIssues(withChange((b) => (b.type = type)), [{ message: 'Invalid option: expected one of "photo"|"photoNet"', path: ['body', 'type'] }]);
    }
  });

  it('requires folderId to be a digit string or null', async () => {
    for (const folderId of ['12a', '', ' 12', '-1']) {
      await expectIssues(withChange((b) => (b.folderId = folderId)), [{ message: 'must be a digit string', path: ['body', 'folderId'] }]);
    }
    await expectIssues(withChange((b) => (b.folderId = 12)), [{ message: 'Invalid input: expected string, received number', path: ['body', 'folderId'] }]);
  });

  it('accepts startTime and endTime only as HH:mm', async () => {
    for (const time of ['9:30', '24:00', '12:60', '12:30:00', 'noon', '']) {
      await expectIssues(withChange((b) => (b.startTime = time)), [{ message: 'must be a time of day as HH:mm', path: ['body', 'startTime'] }]);
      await expectIssues(withChange((b) => (b.endTime = time)), [{ message: 'must be a time of day as HH:mm', path: ['body', 'endTime'] }]);
    }
  });

  it('checks the post selector: both fields, its enum, strings only', async () => {
    await expectIssues(withChange((b) => (b.post = { type: 'stories', value: [] })), [
      { message: 'Invalid option: expected one of "published"|"ads"|"reels"|"postIds"|"all"', path: ['body', 'post', 'type'] },
    ]);
    await expectIssues(withChange((b) => (b.post = { type: 'all' })), [{ message: 'Required', path: ['body', 'post', 'value'] }]);
    await expectIssues(withChange((b) => (b.post = { type: 'postIds', value: ['1', 2] })), [
      { message: 'Invalid input: expected string, received number', path: ['body', 'post', 'value', 1] },
    ]);
    for (const type of ['published', 'ads', 'reels', 'postIds', 'all']) expect((await post(withChange((b) => (b.post = { type, value: [] })))).status).toBe(201);
  });

  it("checks postIds against the workspace's photo media: unknown ids, net posts and another workspace's media are 422 naming each", async () => {
    const f = fixtures(t.db, ws.id);
    await f.channelPost('photo', await f.inbox('Photo account', 'photo'), { id: '17890055' });
    await f.channelPost('net', await f.inbox('Page', 'net'), { id: '1020_9001' });
    const o = fixtures(t.db, (await t.workspace({ name: 'Other photo' })).id);
    await o.channelPost('photo', await o.inbox('Their account', 'photo'), { id: '17890099' });

    const ok = await post(withChange((b) => (b.post = { type: 'postIds', value: ['17890055'] })));
    expect(ok.status).toBe(201);
    expect(ok.body.post).toEqual({ type: 'postIds', value: ['17890055'] });
    const res = await post(withChange((b) => (b.post = { type: 'postIds', value: ['17890055', '1020_9001', '9001', '17890099', '17890056'] })));
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validationError({ field: 'post.value', reason: 'notFound', ids: ['1020_9001', '9001', '17890099', '17890056'] }));
  });

  it('checks both reply objects: type enum, value string or null, at most 10 values of {value}', async () => {
    for (const reply of ['privateReply', 'publicReply']) {
      await expectIssues(withChange((b) => (b[reply] = { type: 'email', value: 'x' })), [
        { message: 'Invalid option: expected one of "AIAgent"|"text"|"flow"|"none"', path: ['body', reply, 'type'] },
      ]);
      await expectIssues(withChange((b) => (b[reply] = { type: 'text' })), [
        { message: 'Required', path: ['body', reply, 'value'] },
      ]);
      const values = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `v${i}` }));
      expect((await post(withChange((b) => (b[reply] = { type: 'flow', value: null, values: values(10) })))).status).toBe(201);
      await expectIssues(withChange((b) => (b[reply] = { type: 'flow', value: null, values: values(11) })), [
        { message: 'at most 10 values', path: ['body', reply, 'values'] },
      ]);
      await expectIssues(withChange((b) => (b[reply] = { type: 'text', value: 'x', values: [{ value: 'a' }, {}, { value: 'c', extra: 1 }] })), [
        { message: 'Required', path: ['body', reply, 'values', 1, 'value'] },
        { message: 'Unrecognized key: "extra"', path: ['body', reply, 'values', 2, 'extra'] },
      ]);
    }
    for (const type of ['AIAgent', 'text', 'flow', 'none']) expect((await post(withChange((b) => (b.privateReply = { type, value: 'x' })))).status).toBe(201);
  });

  it('checks include and exclude keywords', async () => {
    await expectIssues(withChange((b) => (b.includeKeywords = { type: 'regex', value: [] })), [
      { message: 'Invalid option: expected one of "all"|"equal"|"contain"', path: ['body', 'includeKeywords', 'type'] },
    ]);
    await expectIssues(withChange((b) => (b.includeKeywords = { value: ['a'] })), [{ message: 'Required', path: ['body', 'includeKeywords', 'type'] }]);
    await expectIssues(withChange((b) => (b.excludeKeywords = 'spam')), [{ message: 'Invalid input: expected array, received string', path: ['body', 'excludeKeywords'] }]);
    await expectIssues(withChange((b) => (b.excludeKeywords = ['ok', null])), [
      { message: 'Invalid input: expected string, received null', path: ['body', 'excludeKeywords', 1] },
    ]);
  });

  it('requires all six options as booleans', async () => {
    await expectIssues(withChange((b) => delete b.options.trackUserTags), [
      { message: 'Required', path: ['body', 'options', 'trackUserTags'] },
    ]);
    await expectIssues(withChange((b) => (b.options.likeUserComment = 'yes')), [
      { message: 'Invalid input: expected boolean, received string', path: ['body', 'options', 'likeUserComment'] },
    ]);
  });

  it('requires every hide-comments field and its showCommentsAfter enum', async () => {
    await expectIssues(withChange((b) => delete b.hideComments.keywords), [
      { message: 'Required', path: ['body', 'hideComments', 'keywords'] },
    ]);
    await expectIssues(withChange((b) => (b.hideComments.showCommentsAfter = '2h')), [
      {
        message: 'Invalid option: expected one of "none"|"6h"|"12h"|"1d"|"2d"|"3d"|"4d"|"5d"|"6d"|"7d"|"8d"|"9d"|"10d"',
        path: ['body', 'hideComments', 'showCommentsAfter'],
      },
    ]);
    for (const after of ['none', '6h', '12h', '1d', '10d']) {
      expect((await post(withChange((b) => (b.hideComments.showCommentsAfter = after)))).status).toBe(201);
    }
  });

  it('checks the delay: its enum and a number value', async () => {
    await expectIssues(withChange((b) => (b.replyAfter = { type: 'days', value: 1 })), [
      { message: expect.stringMatching(/^Invalid option: expected one of "immediately"\|"seconds"\|/), path: ['body', 'replyAfter', 'type'] },
    ]);
    await expectIssues(withChange((b) => (b.replyAfter = { type: 'seconds', value: '30' })), [
      { message: 'Invalid input: expected number, received string', path: ['body', 'replyAfter', 'value'] },
    ]);
    await expectIssues(withChange((b) => (b.replyAfter = { type: 'seconds', value: -1 })), [
      { message: 'value must not be negative', path: ['body', 'replyAfter', 'value'] },
    ]);
    const types = ['immediately', 'seconds', 'minutes', 'hours', 'randomWithin3Minutes', 'randomWithin5Minutes', 'randomWithin10Minutes', 'randomWithin20Minutes', 'randomWithin30Minutes', 'randomWithin60Minutes'];
    for (const type of types) expect((await post(withChange((b) => (b.replyAfter = { type, value: 0 })))).status).toBe(201);
  });

  it('rejects unknown fields at every level, naming each', async () => {
    await expectIssues(
      withChange((b) => {
        b.isActive = false;
        b.options.autoLike = true;
        b.post.extra = 1;
      }),
      [
        { message: 'Unrecognized key: "extra"', path: ['body', 'post', 'extra'] },
        { message: 'Unrecognized key: "autoLike"', path: ['body', 'options', 'autoLike'] },
        { message: 'Unrecognized key: "isActive"', path: ['body', 'isActive'] },
      ],
    );
  });

  it('reports every problem of a body at once', async () => {
    const res = await post({ name: '', type: 'chat' });
    expect(res.status).toBe(422);
    expect(res.body.data.issues.map((i: { path: unknown[] }) => i.path.join('.'))).toEqual([
      'body.name',
      'body.type',
      'body.post',
      'body.privateReply',
      'body.publicReply',
      'body.includeKeywords',
      'body.excludeKeywords',
      'body.options',
      'body.hideComments',
      'body.replyAfter',
    ]);
  });

  it('needs a full-permission token and an open trial', async () => {
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    const res = await post(photoCommentBody(), readOnly);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(forbidden({ reason: 'readOnlyToken' }));

    const expired = await t.workspace({ name: 'Expired', trialEndsAt: '2026-01-01T00:00:00.000Z' });
    const gated = await post(photoCommentBody(), expired.developerToken);
    expect(gated.status).toBe(403);
    expect(gated.body).toEqual({ defined: true, code: 'trialExpired', status: 403, message: 'Trial expired', data: { trialEndedAt: '2026-01-01T00:00:00.000Z' } });
  });

  it('is refused while the monthly-active-contact limit is reached', async () => {
    const full = await t.workspace({ name: 'Full', macLimit: 0 });
    const res = await post(photoCommentBody(), full.developerToken);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ defined: true, code: 'macLimitReached', status: 403, message: 'Monthly active contact limit reached', data: { limit: 0, active: 0 } });
  });
});
