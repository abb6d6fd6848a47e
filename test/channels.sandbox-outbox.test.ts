import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult, AdapterInbox, ChannelAdapter } from '../src/domain/channels/channel-adapter.js';
import { ChannelError } from '../src/domain/channels/channel-error.js';
import { createChannelAdapter } from '../src/channels/registry.js';
import { sandboxAdapter } from '../src/channels/sandbox.adapter.js';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import { OutboxDocument } from './graphql/generated/graphql.js';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { gql, invalidInput } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData } from './support/rest.js';

const globalId = (type: string, id: number | string) => Buffer.from(`${type}:${id}`).toString('base64');

/**
 * The sandbox channel adapter (the default) records every outgoing action in the outbox, which
 * GET /v1/outbox and GraphQL `outbox` show whole, newest first, filtered by contact, automation,
 * action and channel, each workspace only its own; it answers fetches from the workspace's posts
 * and sandbox records.
 */
describe('sandbox adapter and the outbox', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let adapter: ChannelAdapter;
  let photo: AdapterInbox;
  let net: AdapterInbox;
  let ada: number;
  let bob: number;
  let automation: number;
  let results: ActionResult[];
  /** Our entries' ids and creation times, in recording order. */
  let rows: { id: number; created_at: string }[];

  const list = (query = '', token = ws.developerToken) => api.request('GET', `/v1/outbox${query}`, { token });

  /** Entry n (1-based, in recording order) as GET /v1/outbox answers it. */
  const entry = (n: number) => {
    const { id, created_at: createdAt } = rows[n - 1];
    const common = { id: String(id), createdAt, channel: 'photo', inboxId: String(photo.id), commentId: '17858893269000001', postId: '178920001', recipientId: null };
    const byComment = { contactId: String(ada), automationKind: 'comment', automationId: String(automation) };
    return [
      { ...common, ...byComment, action: 'like', payload: null },
      { ...common, ...byComment, action: 'hide', postId: null, payload: null },
      { ...common, ...byComment, action: 'privateReply', payload: { type: 'text', text: 'Thanks for asking! Prices: https://shop.example.com' } },
      { ...common, ...byComment, action: 'publicReply', payload: { type: 'flow', flowId: 'flow-42' } },
      { ...common, ...byComment, action: 'unhide', postId: null, payload: null },
      {
        ...common,
        channel: 'net',
        inboxId: String(net.id),
        action: 'message',
        commentId: null,
        postId: null,
        recipientId: '6001002003',
        contactId: String(bob),
        automationKind: 'leadAd',
        automationId: String(automation),
        payload: { type: 'AIAgent', agentId: 'agent-7' },
      },
      { ...common, channel: 'net', inboxId: String(net.id), action: 'privateReply', commentId: '1020_9001_77', postId: '1020_9001', contactId: null, automationKind: null, automationId: null, payload: { type: 'text', text: 'Hi!' } },
    ][n - 1];
  };
  const entries = (...ns: number[]) => ns.map(entry);

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    photo = { id: await f.inbox('Shop photos', 'photo'), channel: 'photo', sourceId: '17841400000000001' };
    net = { id: await f.inbox('Shop page', 'net'), channel: 'net', sourceId: '1020' };
    ada = await f.contact({ email: 'ada@example.com' });
    bob = await f.contact({ email: 'bob@example.com' });
    automation = await f.commentAutomation('photo', 'Price replies');
    adapter = createChannelAdapter({ CHANNEL_ADAPTER: 'sandbox', GRAPH_API_TIMEOUT_MS: 1000 }, t.db);
    expect(adapter.name).toBe('sandbox');

    const base = { workspaceId: ws.id, inbox: photo, contactId: ada, automation: { kind: 'comment' as const, id: automation } };
    const comment = { ...base, commentId: '17858893269000001', postId: '178920001' };
    results = [
      await adapter.likeComment(comment),
      await adapter.hideComment({ ...base, commentId: '17858893269000001' }),
      await adapter.sendPrivateReply({ ...comment, content: { type: 'text', text: 'Thanks for asking! Prices: https://shop.example.com' } }),
      await adapter.sendPublicReply({ ...comment, content: { type: 'flow', flowId: 'flow-42' } }),
      await adapter.unhideComment({ ...base, commentId: '17858893269000001' }),
      // A lead-ad automation with the same id number as the comment automation: automationKind tells them apart.
      await adapter.sendMessage({
        workspaceId: ws.id,
        inbox: net,
        recipientId: '6001002003',
        contactId: bob,
        automation: { kind: 'leadAd', id: automation },
        content: { type: 'AIAgent', agentId: 'agent-7' },
      }),
      await adapter.sendPrivateReply({ workspaceId: ws.id, inbox: net, commentId: '1020_9001_77', postId: '1020_9001', content: { type: 'text', text: 'Hi!' } }),
    ];
    rows = await t.db.selectFrom('outbox').select(['id', 'created_at']).where('workspace_id', '=', ws.id).orderBy('id').execute();

    // Another workspace's entry names our contact's and automation's id numbers: never ours.
    const theirInbox = await fixtures(t.db, other.id).inbox('Theirs', 'photo');
    await sandboxAdapter(t.db).sendPrivateReply({
      workspaceId: other.id,
      inbox: { id: theirInbox, channel: 'photo', sourceId: '17841400000000009' },
      commentId: '900',
      contactId: ada,
      automation: { kind: 'comment', id: automation },
      content: { type: 'text', text: 'Not yours' },
    });
  });
  afterAll(() => t.close());

  it('records one entry per action; sends answer their entry, likes, hides and unhides create nothing', () => {
    expect(rows).toHaveLength(7);
    const id = (n: number) => `outbox:${rows[n - 1].id}`;
    expect(results).toEqual([{ externalId: null }, { externalId: null }, { externalId: id(3) }, { externalId: id(4) }, { externalId: null }, { externalId: id(6) }, { externalId: id(7) }]);
  });

  it('GET /v1/outbox lists every entry whole, newest first', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: entries(7, 6, 5, 4, 3, 2, 1), pageCount: 1 });
    expect((await list('', ws.userToken)).body).toEqual({ data: entries(7, 6, 5, 4, 3, 2, 1), pageCount: 1 });
    // The router answers /api/v1 too.
    expect((await t.request('GET', '/api/v1/outbox?perPage=1', { token: ws.developerToken })).body).toEqual({ data: entries(7), pageCount: 7 });
  });

  it('filters by contact, automation (of either kind, or the kind given), action and channel, combined', async () => {
    const cases: [string, number[]][] = [
      [`?contactId=${ada}`, [5, 4, 3, 2, 1]],
      [`?contactId=${bob}`, [6]],
      [`?automationId=${automation}`, [6, 5, 4, 3, 2, 1]],
      [`?automationId=${automation}&automationKind=comment`, [5, 4, 3, 2, 1]],
      [`?automationId=${automation}&automationKind=leadAd`, [6]],
      ['?automationKind=leadAd', [6]],
      ['?action=privateReply', [7, 3]],
      ['?action=hide', [2]],
      ['?channel=net', [7, 6]],
      ['?action=privateReply&channel=photo', [3]],
      [`?contactId=${ada}&action=message`, []],
    ];
    for (const [query, ns] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(200);
      expect(res.body, query).toEqual({ data: entries(...ns), pageCount: ns.length > 0 ? 1 : 0 });
    }
  });

  it('an unknown contact or automation id, or one past any key, lists nothing', async () => {
    for (const query of ['?contactId=99999999', '?automationId=99999999', '?contactId=99999999999999999999', `?automationId=${automation + 1000}`]) {
      expect((await list(query)).body, query).toEqual({ data: [], pageCount: 0 });
    }
  });

  it('pages with page and perPage', async () => {
    expect((await list('?perPage=3')).body).toEqual({ data: entries(7, 6, 5), pageCount: 3 });
    expect((await list('?perPage=3&page=3')).body).toEqual({ data: entries(1), pageCount: 3 });
    expect((await list('?perPage=3&page=4')).body).toEqual({ data: [], pageCount: 3 });
  });

  it("shows each workspace only its own entries, whatever ids it filters by", async () => {
    const theirs = await list('', other.developerToken);
    expect(theirs.body).toEqual({
      data: [
        {
          id: expect.stringMatching(/^\d+$/),
          createdAt: expect.stringMatching(/Z$/),
          channel: 'photo',
          inboxId: expect.stringMatching(/^\d+$/),
          action: 'privateReply',
          commentId: '900',
          postId: null,
          recipientId: null,
          contactId: String(ada),
          automationKind: 'comment',
          automationId: String(automation),
          payload: { type: 'text', text: 'Not yours' },
        },
      ],
      pageCount: 1,
    });
    expect(Number(theirs.body.data[0].id)).toBe(rows[6].id + 1);
    // Our filters by the same ids see only ours.
    expect((await list(`?contactId=${ada}&action=privateReply`)).body).toEqual({ data: entries(3), pageCount: 1 });
  });

  it('validates the query: actions, kinds and channels by name, ids as digits, nothing else', async () => {
    const cases: [string, { message: string; path: (string | number)[] }[]][] = [
      ['?action=send', [{ message: 'Invalid option: expected one of "privateReply"|"publicReply"|"message"|"like"|"hide"|"unhide"|"threadControl"', path: ['query', 'action'] }]],
      ['?automationKind=flow', [{ message: 'Invalid option: expected one of "comment"|"leadAd"', path: ['query', 'automationKind'] }]],
      ['?channel=mail', [{ message: 'Invalid option: expected one of "photo"|"net"', path: ['query', 'channel'] }]],
      ['?contactId=ada', [{ message: 'must be a digit string', path: ['query', 'contactId'] }]],
      ['?perPage=51', [{ message: 'perPage must be at most 50', path: ['query', 'perPage'] }]],
      ['?inboxId=1', [{ message: 'Unrecognized key: "inboxId"', path: ['query', 'inboxId'] }]],
    ];
    for (const [query, issues] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(422);
      expect(res.body, query).toEqual(invalidRequestData(issues));
    }
  });

  it('GraphQL outbox: the same entries and filters, the payload flat, the contact through its loader', async () => {
    const flat = (e: ReturnType<typeof entry>) => ({
      ...e,
      payload: e.payload === null ? null : { text: null, flowId: null, agentId: null, ...e.payload },
      contact: e.contactId === null ? null : { id: e.contactId, email: e.contactId === String(ada) ? 'ada@example.com' : 'bob@example.com' },
    });
    const query = (variables: Parameters<typeof gql<unknown, Record<string, unknown>>>[2] = {}, token = ws.developerToken) =>
      gql(t, OutboxDocument, variables as never, { token });
    expect((await query()).body).toEqual({ data: { outbox: { data: entries(7, 6, 5, 4, 3, 2, 1).map(flat), pageCount: 1 } } });
    expect((await query({ perPage: 2, page: 2 })).body).toEqual({ data: { outbox: { data: entries(5, 4).map(flat), pageCount: 4 } } });
    // Global ids: a contact's; an automation's tells its kind.
    expect((await query({ contactId: globalId('Contact', bob) })).body).toEqual({ data: { outbox: { data: entries(6).map(flat), pageCount: 1 } } });
    expect((await query({ automationId: globalId('CommentAutomation', automation), action: 'privateReply' })).body).toEqual({ data: { outbox: { data: entries(3).map(flat), pageCount: 1 } } });
    expect((await query({ automationId: globalId('LeadAdAutomation', automation) })).body).toEqual({ data: { outbox: { data: entries(6).map(flat), pageCount: 1 } } });
    expect((await query({ automationId: String(automation), channel: 'net' })).body).toEqual({ data: { outbox: { data: entries(6).map(flat), pageCount: 1 } } });
    expect((await query({ action: 'privateReply' }, other.developerToken)).body.data?.outbox.data.map((e) => e.payload?.text)).toEqual(['Not yours']);
  });

  it('GraphQL outbox refuses ids of other types and a kind that contradicts the global id', async () => {
    const wrongType = await gql(t, OutboxDocument, { contactId: globalId('Tag', 1), automationId: globalId('Contact', ada) }, { token: ws.developerToken });
    expect(wrongType.body).toEqual({
      data: null,
      errors: [
        invalidInput(
          ['outbox'],
          [
            { message: 'must be a Contact id, but this is the global id of a Tag', path: ['contactId'] },
            { message: 'must be a CommentAutomation or LeadAdAutomation global id, or a digit string', path: ['automationId'] },
          ],
          'contactId: must be a Contact id, but this is the global id of a Tag (and 1 more issue)',
        ),
      ],
    });
    const contradiction = await gql(t, OutboxDocument, { automationId: globalId('LeadAdAutomation', automation), automationKind: 'comment' }, { token: ws.developerToken });
    expect(contradiction.body).toEqual({
      data: null,
      errors: [
        invalidInput(
          ['outbox'],
          [{ message: 'is comment, but automationId is the global id of a leadAd automation', path: ['automationKind'] }],
          'automationKind: is comment, but automationId is the global id of a leadAd automation',
        ),
      ],
    });
  });

  it('keeps the entries of a deleted contact and automation, readable by their ids; the contact resolves to null', async () => {
    const f = fixtures(t.db, ws.id);
    const gone = await f.contact({ email: 'gone@example.com' });
    const rule = await f.commentAutomation('net', 'Short-lived');
    await adapter.likeComment({ workspaceId: ws.id, inbox: net, commentId: '1020_9001_88', contactId: gone, automation: { kind: 'comment', id: rule } });
    expect((await api.request('DELETE', `/v1/contacts/${gone}`, { token: ws.developerToken })).status).toBe(200);
    expect((await api.request('DELETE', `/v1/net-comments/${rule}`, { token: ws.developerToken })).status).toBe(200);
    const res = await list(`?contactId=${gone}`);
    expect(res.body).toEqual({
      data: [
        {
          id: expect.stringMatching(/^\d+$/),
          createdAt: expect.stringMatching(/Z$/),
          channel: 'net',
          inboxId: String(net.id),
          action: 'like',
          commentId: '1020_9001_88',
          postId: null,
          recipientId: null,
          contactId: String(gone),
          automationKind: 'comment',
          automationId: String(rule),
          payload: null,
        },
      ],
      pageCount: 1,
    });
    expect((await list(`?automationId=${rule}`)).body).toEqual(res.body);
    const graph = await gql(t, OutboxDocument, { contactId: String(gone) }, { token: ws.developerToken });
    expect(graph.body.data?.outbox.data.map((e) => [e.contactId, e.contact])).toEqual([[String(gone), null]]);
  });

  describe('fetches', () => {
    const call = () => ({ workspaceId: ws.id, inbox: photo });

    it("answers posts from the inbox's channel posts, newest first, at most the limit", async () => {
      const f = fixtures(t.db, ws.id);
      await f.channelPost('photo', photo.id, { id: '178920001', caption: 'Spring drop', kind: 'published', postedAt: '2026-11-01T09:00:00.000Z', permalink: null, thumbnailUrl: null });
      await f.channelPost('photo', photo.id, { id: '178920002', caption: 'Studio tour', mediaType: 'VIDEO', kind: 'reels', postedAt: '2026-11-02T09:00:00.000Z', permalink: 'https://photo.example.com/p/2/', thumbnailUrl: 'https://cdn.example.com/2.jpg' });
      // Another inbox's post, and another workspace's, are not this inbox's.
      await f.channelPost('photo', await f.inbox('Second account', 'photo'), { id: '178920003', postedAt: '2026-11-03T09:00:00.000Z' });
      await fixtures(t.db, other.id).channelPost('photo', await fixtures(t.db, other.id).inbox('Theirs 2', 'photo'), { id: '178920004' });
      const spring = { id: '178920001', caption: 'Spring drop', mediaType: 'IMAGE', kind: 'published', permalink: null, thumbnailUrl: null, timestamp: '2026-11-01T09:00:00.000Z' };
      const studio = { id: '178920002', caption: 'Studio tour', mediaType: 'VIDEO', kind: 'reels', permalink: 'https://photo.example.com/p/2/', thumbnailUrl: 'https://cdn.example.com/2.jpg', timestamp: '2026-11-02T09:00:00.000Z' };
      expect(await adapter.fetchPosts(call())).toEqual([studio, spring]);
      expect(await adapter.fetchPosts({ ...call(), limit: 1 })).toEqual([studio]);
      expect(await adapter.fetchPosts({ workspaceId: ws.id, inbox: net })).toEqual([]);
    });

    it('answers leads and profiles from the sandbox records; an unknown one is ChannelError notFound', async () => {
      const lead = { createdAt: '2026-11-20T08:00:00.000Z', formId: '5550001', adId: null, fields: [{ name: 'email', values: ['lead@example.com'] }, { name: 'interests', values: ['shoes', 'bags'] }] };
      await upsertSandboxRecord(t.db, ws.id, 'lead', '9000001', lead);
      const profile = { firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace', username: 'ada', avatarUrl: 'https://cdn.example.com/ada.jpg' };
      await upsertSandboxRecord(t.db, ws.id, 'profile', '6001002003', { ...profile, username: 'old' });
      await upsertSandboxRecord(t.db, ws.id, 'profile', '6001002003', profile);
      expect(await adapter.fetchLead({ ...call(), leadId: '9000001' })).toEqual({ id: '9000001', ...lead });
      expect(await adapter.fetchProfile({ ...call(), userId: '6001002003' })).toEqual({ id: '6001002003', ...profile });

      const failure = async (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);
      for (const [err, message] of [
        [await failure(adapter.fetchLead({ ...call(), leadId: '9000002' })), 'The sandbox has no lead 9000002 in this workspace'],
        [await failure(adapter.fetchProfile({ ...call(), userId: '9000001' })), 'The sandbox has no profile 9000001 in this workspace'],
        // Another workspace's records are not this one's.
        [await failure(adapter.fetchLead({ workspaceId: other.id, inbox: photo, leadId: '9000001' })), 'The sandbox has no lead 9000001 in this workspace'],
      ] as const) {
        expect(err).toBeInstanceOf(ChannelError);
        expect({ ...(err as ChannelError), message: (err as ChannelError).message }).toEqual({
          name: 'ChannelError',
          reason: 'notFound',
          httpCode: null,
          providerMessage: message,
          retryable: false,
          message: `notFound: ${message}`,
        });
      }
    });
  });
});
