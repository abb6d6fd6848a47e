import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChannelPostsDocument,
  ChannelPostsWithRelationsDocument,
  CommentAutomationDocument,
  CreateNetCommentAutomationDocument,
  DeleteCommentAutomationDocument,
  FilteredCommentAutomationsDocument,
  UpdateCommentAutomationDocument,
  type CreateNetCommentAutomationInput,
} from './graphql/generated/graphql.js';
import { day, storedAutomation } from './support/comment-automations.js';
import { insertFolder } from './support/contract-calls/folders.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, photoCommentBody, sampleHideComments } from './support/fixtures.js';
import { fieldError, gql, invalidInput } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, isoNow, notFound, validationError } from './support/rest.js';

/** The GraphQL twins of the comment automation and channel post routes: same schemas, same rules. */
describe('GraphQL comment automations and channel posts', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  const ids: Record<string, number> = {};
  let inboxes: { photo: number; page: number };
  const opts = () => ({ token: ws.developerToken });

  /** A record as GraphQL shows it: a reply without values has `values: null`. */
  const asGraphQL = <A extends Record<string, any>>(a: A) => ({
    ...a,
    privateReply: { values: null, ...a.privateReply },
    publicReply: { values: null, ...a.publicReply },
  });

  /** The photo body without its type: a net create input. */
  const netInput = (change: Record<string, unknown> = {}) => {
    const { type: _photo, ...input } = photoCommentBody();
    return { ...input, name: 'Page replies', ...change } as unknown as CreateNetCommentAutomationInput;
  };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    f = fixtures(t.db, ws.id);
    inboxes = { photo: await f.inbox('Photo account', 'photo'), page: await f.inbox('Page', 'net') };
    await f.channelPost('photo', inboxes.photo, { id: '17890001', kind: 'published', postedAt: day(3) });
    await f.channelPost('photo', inboxes.photo, { id: '17890002', kind: 'reels', postedAt: day(4), caption: null, permalink: null, thumbnailUrl: null });
    await f.channelPost('net', inboxes.page, { id: '1020_9001', kind: 'ads', mediaType: 'photo', postedAt: day(2) });
    ids.spring = await f.commentAutomation('photo', 'Spring replies', { createdAt: day(1), folderId: '12' });
    ids.reels = await f.commentAutomation('photo', 'Reels only', { createdAt: day(2), isActive: false, post: { type: 'reels', value: [] } });
    ids.picked = await f.commentAutomation('photo', 'Picked media', { createdAt: day(3), post: { type: 'postIds', value: ['17890001'] } });
    ids.page = await f.commentAutomation('net', 'Page ads', { createdAt: day(4), post: { type: 'postIds', value: ['9001'] } });
    const o = fixtures(t.db, other.id);
    ids.theirs = await o.commentAutomation('photo', 'Spring replies', { folderId: '12' });
  });
  afterAll(() => t.close());

  describe('commentAutomations', () => {
    const list = async (variables: Parameters<typeof gql<unknown, Record<string, unknown>>>[2]) => {
      const res = await gql(t, FilteredCommentAutomationsDocument, variables as never, opts());
      expect(res.body.errors).toBeUndefined();
      return res.body.data!.commentAutomations;
    };
    const node = (id: number, name: string, channel: 'photo' | 'net', extra: Record<string, unknown> = {}) => ({ node: { channel, ...asGraphQL(storedAutomation(id, name, channel, extra)) } });
    const spring = () => node(ids.spring, 'Spring replies', 'photo', { createdAt: day(1), updatedAt: day(1), folderId: '12' });
    const reels = () => node(ids.reels, 'Reels only', 'photo', { createdAt: day(2), updatedAt: day(2), isActive: false, post: { type: 'reels', value: [] } });

    it('filters by channel, name (any case), isActive and folderId, newest first, whole records', async () => {
      expect((await list({ channel: 'photo', name: 'SPRING' })).edges).toEqual([spring()]);
      expect((await list({ channel: 'photo', isActive: false })).edges).toEqual([reels()]);
      expect((await list({ folderId: '12' })).edges).toEqual([spring()]);
      expect((await list({ channel: 'net', name: 'spring' })).edges).toEqual([]);
      expect((await list({ channel: 'photo', isActive: true })).edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([String(ids.picked), String(ids.spring)]);
    });

    it('pages with first and after, the filters kept', async () => {
      const first = await list({ channel: 'photo', first: 2 });
      expect(first.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(['Picked media', 'Reels only']);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const next = await list({ channel: 'photo', first: 2, after: first.pageInfo.endCursor });
      expect(next.edges).toEqual([spring()]);
      expect(next.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
    });

    it('validates the filters as REST does', async () => {
      const res = await gql(t, FilteredCommentAutomationsDocument, { folderId: 'root' }, opts());
      expect(res.body).toEqual({
        data: null,
        errors: [invalidInput(['commentAutomations'], [{ message: 'must be a digit string', path: ['folderId'] }], 'folderId: must be a digit string')],
      });
    });
  });

  describe('createNetCommentAutomation', () => {
    it('creates a chat automation on the net channel, the same record REST reads back', async () => {
      const folderId = String(await insertFolder(t.db, ws.id, 'commentAutomation', 'Page replies'));
      const input = netInput({ post: { type: 'postIds', value: ['1020_9001', '9001'] }, folderId });
      const res = await gql(t, CreateNetCommentAutomationDocument, { input }, opts());
      expect(res.body.errors).toBeUndefined();
      const created = res.body.data!.createNetCommentAutomation;
      expect(created).toEqual(asGraphQL({
        ...photoCommentBody(),
        name: 'Page replies',
        channel: 'net',
        type: 'chat',
        folderId,
        post: { type: 'postIds', value: ['1020_9001', '9001'] },
        id: digits(),
        createdAt: isoNow(),
        updatedAt: isoNow(),
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
      }));
      const { channel: _net, ...record } = created;
      const rest = await t.request('GET', `/v1/net-comments/${created.id}`, { token: ws.developerToken });
      expect(asGraphQL(rest.body)).toEqual(record);
    });

    it('refuses unknown postIds as REST does, and another workspace cannot see the new automation', async () => {
      const res = await gql(t, CreateNetCommentAutomationDocument, { input: netInput({ post: { type: 'postIds', value: ['17890001', '9001'] } }) }, opts());
      expect(res.body).toEqual({
        data: null,
        errors: [fieldError(['createNetCommentAutomation'], validationError({ field: 'post.value', reason: 'notFound', ids: ['17890001'] }), 'post.value names nothing in this workspace: 17890001')],
      });
      const created = await gql(t, CreateNetCommentAutomationDocument, { input: netInput() }, opts());
      const theirs = await gql(t, CommentAutomationDocument, { id: created.body.data!.createNetCommentAutomation.id, channel: 'net' }, { token: other.developerToken });
      expect(theirs.body).toEqual({ data: null, errors: [fieldError(['commentAutomation'], notFound('Comment automation'), 'Comment automation not found')] });
    });
  });

  describe('updateCommentAutomation and deleteCommentAutomation', () => {
    const update = (id: number | string, channel: 'photo' | 'net', input: Record<string, unknown>) =>
      gql(t, UpdateCommentAutomationDocument, { id: String(id), channel, input } as never, opts());

    it('changes the fields given, replaces nested objects whole, clears with null, and moves updatedAt', async () => {
      const id = await f.commentAutomation('photo', 'Before', { folderId: '3' });
      const hideComments = { ...sampleHideComments, all: true, showCommentsAfter: '_6h' };
      const res = await update(id, 'photo', { name: 'After', isActive: false, hideComments, folderId: null, publicReply: { type: 'text', value: 'See DM' } });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data!.updateCommentAutomation).toEqual({
        channel: 'photo',
        ...storedAutomation(id, 'After', 'photo', {
          isActive: false,
          hideComments: { ...hideComments, showCommentsAfter: '_6h' },
          publicReply: { type: 'text', value: 'See DM', values: null },
          privateReply: { type: 'text', value: 'Thanks!', values: null },
          updatedAt: isoNow(),
        }),
      });
      const rest = await t.request('GET', `/v1/photo-comments/${id}`, { token: ws.developerToken });
      expect(rest.body).toMatchObject({ name: 'After', isActive: false, folderId: null, hideComments: { ...sampleHideComments, all: true, showCommentsAfter: '6h' }, publicReply: { type: 'text', value: 'See DM' } });
    });

    it("checks the input with the channel's rules: its types, an empty input, the merged automation", async () => {
      const photo = await f.commentAutomation('photo', 'Photo');
      expect((await update(photo, 'photo', { type: 'chat' })).body).toEqual({
        data: null,
        errors: [invalidInput(['updateCommentAutomation'], [{ message: 'Invalid option: expected one of "photo"|"photoNet"', path: ['input', 'type'] }], 'input.type: Invalid option: expected one of "photo"|"photoNet"')],
      });
      expect((await update(photo, 'photo', {})).body).toEqual({
        data: null,
        errors: [invalidInput(['updateCommentAutomation'], [{ message: 'Provide at least one field to change', path: ['input'] }], 'input: Provide at least one field to change')],
      });
      const legacy = await f.commentAutomation('net', 'Legacy', { type: 'microblog' });
      expect((await update(legacy, 'net', { name: 'Renamed' })).body).toEqual({
        data: null,
        errors: [invalidInput(['updateCommentAutomation'], [{ message: 'Invalid input: expected "chat"', path: ['input', 'type'] }], 'input.type: Invalid input: expected "chat"')],
      });
      expect((await update(legacy, 'net', { name: 'Renamed', type: 'chat' })).body.data!.updateCommentAutomation).toMatchObject({ name: 'Renamed', type: 'chat' });
    });

    it("is not found on the other channel or in another workspace; delete is permanent", async () => {
      const id = await f.commentAutomation('net', 'Doomed');
      const missing = (field: string) => fieldError([field], notFound('Comment automation'), 'Comment automation not found');
      expect((await update(id, 'photo', { isActive: false })).body).toEqual({ data: null, errors: [missing('updateCommentAutomation')] });
      expect((await update(ids.theirs, 'photo', { isActive: false })).body).toEqual({ data: null, errors: [missing('updateCommentAutomation')] });
      expect((await gql(t, DeleteCommentAutomationDocument, { id: String(id), channel: 'photo' }, opts())).body).toEqual({ data: null, errors: [missing('deleteCommentAutomation')] });
      expect((await gql(t, DeleteCommentAutomationDocument, { id: String(ids.theirs), channel: 'photo' }, opts())).body).toEqual({ data: null, errors: [missing('deleteCommentAutomation')] });
      expect((await gql(t, DeleteCommentAutomationDocument, { id: String(id), channel: 'net' }, opts())).body).toEqual({ data: { deleteCommentAutomation: { success: true } } });
      expect((await gql(t, CommentAutomationDocument, { id: String(id) }, opts())).body).toEqual({ data: null, errors: [missing('commentAutomation')] });
      expect((await gql(t, DeleteCommentAutomationDocument, { id: String(id), channel: 'net' }, opts())).body).toEqual({ data: null, errors: [missing('deleteCommentAutomation')] });
      expect((await t.request('GET', `/v1/photo-comments/${ids.theirs}`, { token: other.developerToken })).status).toBe(200);
    });
  });

  describe('channelPosts', () => {
    const post = (id: string, extra: Record<string, unknown> = {}) => ({
      id,
      channel: 'photo',
      caption: `Post ${id}`,
      mediaType: 'IMAGE',
      kind: 'published',
      permalink: `https://example.com/p/${id}`,
      thumbnailUrl: `https://cdn.example.com/${id}.jpg`,
      timestamp: day(3),
      inboxId: String(inboxes.photo),
      ...extra,
    });

    it('lists a channel page by page, filtered by inbox and kind, as REST does', async () => {
      const res = await gql(t, ChannelPostsDocument, { channel: 'photo' }, opts());
      expect(res.body).toEqual({
        data: {
          channelPosts: {
            pageCount: 1,
            data: [post('17890002', { kind: 'reels', caption: null, permalink: null, thumbnailUrl: null, timestamp: day(4) }), post('17890001')],
          },
        },
      });
      const rest = await t.request('GET', '/v1/photo-comments/photo-media', { token: ws.developerToken });
      expect(rest.body).toEqual({ data: res.body.data!.channelPosts.data.map(({ channel: _c, ...p }) => p), pageCount: 1 });
      expect((await gql(t, ChannelPostsDocument, { channel: 'photo', kind: 'published', perPage: 1 }, opts())).body.data!.channelPosts).toEqual({ pageCount: 1, data: [post('17890001')] });
      expect((await gql(t, ChannelPostsDocument, { channel: 'net', inboxId: String(inboxes.photo) }, opts())).body.data!.channelPosts).toEqual({ pageCount: 0, data: [] });
      expect((await gql(t, ChannelPostsDocument, { channel: 'photo' }, { token: other.developerToken })).body.data!.channelPosts).toEqual({ pageCount: 0, data: [] });
    });

    it('gives each post its inbox and the automations of its channel that select it (all, its kind, or its id), newest first', async () => {
      const own = await t.workspace({ name: 'Relations' });
      const r = fixtures(t.db, own.id);
      const account = await r.inbox('Account', 'photo');
      const page = await r.inbox('Page', 'net');
      await r.channelPost('photo', account, { id: '555', kind: 'reels', postedAt: day(2) });
      await r.channelPost('photo', account, { id: '556', kind: 'published', postedAt: day(1) });
      await r.channelPost('net', page, { id: '77_88', kind: 'ads', postedAt: day(1) });
      const a = {
        all: await r.commentAutomation('photo', 'Every medium', { createdAt: day(1) }),
        reels: await r.commentAutomation('photo', 'Reels', { createdAt: day(3), isActive: false, post: { type: 'reels', value: [] } }),
        picked: await r.commentAutomation('photo', 'Picked', { createdAt: day(2), post: { type: 'postIds', value: ['556', '999'] } }),
        ads: await r.commentAutomation('photo', 'Ads', { createdAt: day(4), post: { type: 'ads', value: [] } }),
        netFull: await r.commentAutomation('net', 'Net full id', { createdAt: day(1), post: { type: 'postIds', value: ['77_88'] } }),
        netBare: await r.commentAutomation('net', 'Net bare id', { createdAt: day(2), post: { type: 'postIds', value: ['88'] } }),
        netOther: await r.commentAutomation('net', 'Net other post', { createdAt: day(3), post: { type: 'postIds', value: ['77_89', '8'] } }),
        netAds: await r.commentAutomation('net', 'Net ads', { createdAt: day(4), post: { type: 'ads', value: [] } }),
      };
      const item = (id: number, name: string, post: unknown) => ({ id: String(id), name, post });
      const every = item(a.all, 'Every medium', { type: 'all', value: [] });
      const inbox = { id: String(account), name: 'Account', channel: 'photo' };
      const photo = await gql(t, ChannelPostsWithRelationsDocument, { channel: 'photo' }, { token: own.developerToken });
      expect(photo.body).toEqual({
        data: {
          channelPosts: {
            pageCount: 1,
            data: [
              { id: '555', kind: 'reels', inbox, automations: [item(a.reels, 'Reels', { type: 'reels', value: [] }), every] },
              { id: '556', kind: 'published', inbox, automations: [item(a.picked, 'Picked', { type: 'postIds', value: ['556', '999'] }), every] },
            ],
          },
        },
      });
      const net = await gql(t, ChannelPostsWithRelationsDocument, { channel: 'net' }, { token: own.developerToken });
      expect(net.body).toEqual({
        data: {
          channelPosts: {
            pageCount: 1,
            data: [
              {
                id: '77_88',
                kind: 'ads',
                inbox: { id: String(page), name: 'Page', channel: 'net' },
                automations: [
                  item(a.netAds, 'Net ads', { type: 'ads', value: [] }),
                  item(a.netBare, 'Net bare id', { type: 'postIds', value: ['88'] }),
                  item(a.netFull, 'Net full id', { type: 'postIds', value: ['77_88'] }),
                ],
              },
            ],
          },
        },
      });
    });
  });
});
