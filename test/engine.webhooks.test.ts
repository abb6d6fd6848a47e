import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubSignature } from '../src/domain/events/webhook-signature.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, VERIFY_TOKEN, WEBHOOK_SECRET, type EngineTestApp } from './support/engine-app.js';
import { createTestApp } from './support/harness.js';
import type { TestWorkspace } from './support/harness.js';
import { T0 } from './support/fixtures.js';

/**
 * Events in: the networks' signed webhooks and the handshake, dev events for developmentMode
 * workspaces, and what is stored. Each event is stored with its processing job before the answer;
 * a redelivery stores and processes nothing; accounts no inbox connects are only counted; a bad or
 * missing signature stores nothing.
 */
describe(`webhooks and dev events on ${testEngine}`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let photoInbox: number;
  let netInbox: number;
  let otherPhotoInbox: number;

  const inbox = async (workspaceId: number, channel: 'photo' | 'net', sourceId: string) =>
    (await t.db.insertInto('inboxes').values({ workspace_id: workspaceId, name: `${channel} ${sourceId}`, channel, source_id: sourceId, status: 'active', created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow()).id;

  const photoComment = (account: string, commentId: string, text = 'How much?') => ({
    object: 'instagram',
    entry: [{ id: account, time: 1795435200, changes: [{ field: 'comments', value: { id: commentId, text, from: { id: 'u-1', username: 'ada' }, media: { id: 'm-1', media_product_type: 'FEED' } } }] }],
  });
  const events = (workspaceId?: number) => {
    let q = t.db.selectFrom('channel_events').select(['id', 'workspace_id', 'inbox_id', 'kind', 'external_id', 'source', 'processed_at', 'outcome', 'payload']).orderBy('id');
    if (workspaceId !== undefined) q = q.where('workspace_id', '=', workspaceId);
    return q.execute();
  };
  const metric = async (outcome: string, channel = 'photo', source = 'webhook') => {
    const text = (await t.request('GET', '/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`channel_events_total{channel="${channel}",source="${source}",outcome="${outcome}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  beforeAll(async () => {
    t = await createEngineTestApp();
    ws = await t.workspace({ developmentMode: true });
    other = await t.workspace({ name: 'Other' });
    photoInbox = await inbox(ws.id, 'photo', 'acct-photo-1');
    netInbox = await inbox(ws.id, 'net', 'page-1');
    otherPhotoInbox = await inbox(other.id, 'photo', 'acct-photo-2');
  });
  afterAll(() => t?.close());

  describe('signature', () => {
    it.each([
      ['missing', null],
      ['of another secret', hubSignature('another-secret-123', JSON.stringify(photoComment('acct-photo-1', 'c-bad')))],
      ['not hex', 'sha256=zz'],
      ['without its scheme', hubSignature(WEBHOOK_SECRET, JSON.stringify(photoComment('acct-photo-1', 'c-bad'))).slice(7)],
    ])('a %s signature is 401 and stores nothing', async (_name, signature) => {
      const before = (await events()).length;
      const res = await t.webhook('photo', photoComment('acct-photo-1', 'c-bad'), signature);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ defined: true, code: 'UNAUTHORIZED', status: 401, message: 'Authentication required' });
      expect(res.body.data.reason).toMatch(/X-Hub-Signature-256/);
      expect((await events()).length).toBe(before);
    });

    it('a signature of a different body (one byte changed) is 401', async () => {
      const body = JSON.stringify(photoComment('acct-photo-1', 'c-bad'));
      const res = await t.webhook('photo', body.replace('How much?', 'How much!'), hubSignature(WEBHOOK_SECRET, body));
      expect(res.status).toBe(401);
    });

    it('an address that keeps failing the signature is refused (429) before its body is read, for the window', async () => {
      const strict = await createEngineTestApp({ WEBHOOK_BAD_SIGNATURE_POINTS: '3', WEBHOOK_BAD_SIGNATURE_WINDOW_SECONDS: '60' });
      try {
        const body = photoComment('acct-photo-1', 'c-brute');
        const bad = hubSignature('not-the-secret-123', JSON.stringify(body));
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await strict.webhook('photo', body, bad)).status);
        expect(statuses).toEqual([401, 401, 401, 429]);
        // Refused before the signature is looked at: a good one from that address waits for the window too.
        const refused = await strict.webhook('photo', body);
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({ code: 'tooManyRequests', data: { budget: 'webhookSignature' } });
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await strict.db.selectFrom('channel_events').select('id').execute()).toEqual([]);
      } finally {
        await strict.close();
      }
    });

    it("webhook bodies have their own limit (WEBHOOK_BODY_LIMIT_BYTES), not the API's", async () => {
      const small = await createEngineTestApp({ BODY_LIMIT_BYTES: '2000', WEBHOOK_BODY_LIMIT_BYTES: '20000' });
      try {
        const ws = await small.workspace();
        await small.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'photo', channel: 'photo', source_id: 'acct-big', status: 'active', created_at: T0, updated_at: T0 }).execute();
        const changes = Array.from({ length: 30 }, (_, i) => ({ field: 'comments', value: { id: `c-big-${i}`, text: 'x'.repeat(100), from: { id: `u-${i}`, username: 'u' }, media: { id: 'm-1' } } }));
        const body = { object: 'instagram', entry: [{ id: 'acct-big', time: 1795435200, changes }] };
        expect(JSON.stringify(body).length).toBeGreaterThan(2000);
        const ok = await small.webhook('photo', body);
        expect([ok.status, ok.body.stored]).toEqual([200, 30]);
        const huge = { ...body, entry: [{ ...body.entry[0]!, changes: [...changes, ...changes, ...changes, ...changes, ...changes, ...changes, ...changes] }] };
        const tooBig = await small.webhook('photo', huge);
        expect(tooBig.status).toBe(413);
        expect(tooBig.body).toMatchObject({ code: 'payloadTooLarge', data: { limitBytes: 20000 } });
      } finally {
        await small.close();
      }
    });

    it('without WEBHOOK_APP_SECRET the webhooks answer 503, whatever they carry', async () => {
      const bare = await createTestApp();
      try {
        const body = JSON.stringify(photoComment('acct-photo-1', 'c-1'));
        const res = await bare.request('POST', '/webhooks/photo', { body, headers: { 'x-hub-signature-256': hubSignature(WEBHOOK_SECRET, body) } });
        expect(res.status).toBe(503);
        expect(res.body.message).toMatch(/WEBHOOK_APP_SECRET/);
      } finally {
        await bare.close();
      }
    });
  });

  describe('subscription handshake', () => {
    const hub = (q: Record<string, string>) => `/webhooks/photo?${new URLSearchParams(q)}`;
    it('answers the challenge as text when the verify token matches', async () => {
      const res = await t.request('GET', hub({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1158201444' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.text).toBe('1158201444');
      expect((await t.request('GET', `/webhooks/net?${new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': 'x7' })}`)).text).toBe('x7');
    });
    it.each([
      ['a wrong token', { 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '1' }],
      ['another mode', { 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' }],
      ['no parameters', {}],
    ])('refuses %s with 403', async (_name, q) => {
      const res = await t.request('GET', hub(q));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    });
    it('other methods are 405 naming GET and POST', async () => {
      const res = await t.request('PUT', '/webhooks/photo');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, POST');
    });
  });

  describe('storing events', () => {
    it('stores a signed comment with its job, processes it, and answers what it did', async () => {
      const res = await t.webhook('photo', photoComment('acct-photo-1', 'c-100', 'Price?'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: 1, stored: 1, duplicates: 0, unknownAccounts: 0, ignored: 0, invalid: 0, eventIds: [expect.stringMatching(/^\d+$/)] });
      const [row] = (await events(ws.id)).filter((e) => e.external_id === 'c-100');
      expect(row).toMatchObject({ workspace_id: ws.id, inbox_id: photoInbox, kind: 'comment', source: 'webhook' });
      expect(JSON.parse(row!.payload)).toEqual({
        kind: 'comment', commentId: 'c-100', text: 'Price?', authorId: 'u-1', authorName: 'ada', postId: 'm-1', postProductType: 'FEED', parentId: null, attachments: [],
        createdAt: new Date(1795435200 * 1000).toISOString(),
      });
      await t.settle();
      const [done] = (await events(ws.id)).filter((e) => e.external_id === 'c-100');
      expect(done!.processed_at).not.toBeNull();
      expect(done!.outcome).toEqual(expect.any(String));
    });

    it('while the engine is behind, the events of later webhooks join the waiting job of their workspace; every one is processed once', async () => {
      await t.stopWorkers();
      try {
        for (const id of ['c-b1', 'c-b2', 'c-b3']) expect((await t.webhook('photo', photoComment('acct-photo-1', id))).status).toBe(200);
        await t.webhook('photo', photoComment('acct-photo-2', 'c-b4'));
        const eventJobs = (await t.jobs()).filter((j) => j.task === 'event.process');
        const ids = async (workspaceId: number, externalIds: string[]) => (await events(workspaceId)).filter((e) => externalIds.includes(e.external_id)).map((e) => ({ workspaceId, eventId: e.id }));
        if (testEngine === 'sqlite') {
          // One waiting job per workspace, its items in the order the events came.
          expect(eventJobs.map((j) => j.payload)).toEqual([await ids(ws.id, ['c-b1', 'c-b2', 'c-b3']), await ids(other.id, ['c-b4'])]);
        } else {
          expect(eventJobs.map((j) => j.payload)).toEqual([...(await ids(ws.id, ['c-b1', 'c-b2', 'c-b3'])).map((item) => [item]), await ids(other.id, ['c-b4'])]);
        }
      } finally {
        await t.startWorkers();
      }
      await t.settle();
      const processed = [...(await events(ws.id)), ...(await events(other.id))].filter((e) => e.external_id.startsWith('c-b'));
      expect(processed.map((e) => [e.external_id, e.processed_at !== null])).toEqual([['c-b1', true], ['c-b2', true], ['c-b3', true], ['c-b4', true]]);
    });

    it('a redelivered event is acknowledged as a duplicate and neither stored nor queued again', async () => {
      const body = photoComment('acct-photo-1', 'c-200');
      expect((await t.webhook('photo', body)).body).toMatchObject({ stored: 1, duplicates: 0 });
      await t.settle();
      const jobsBefore = (await t.jobs()).length;
      const before = await metric('duplicate');
      const again = await t.webhook('photo', body);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ received: 1, stored: 0, duplicates: 1, eventIds: [] });
      expect((await events(ws.id)).filter((e) => e.external_id === 'c-200')).toHaveLength(1);
      expect((await t.jobs()).length).toBe(jobsBefore);
      expect(await metric('duplicate')).toBe(before + 1);
    });

    it('a delivery of hundreds of changes, two of them twice and one already stored, stores each once, its ids in the delivery\'s order', async () => {
      expect((await t.webhook('photo', photoComment('acct-photo-1', 'big-007'))).body).toMatchObject({ stored: 1 });
      const ids = Array.from({ length: 250 }, (_, i) => `big-${String(i).padStart(3, '0')}`);
      // big-015 comes twice in a row (one insert statement), big-120 twice 110 changes apart (past one
      // statement of 200 rows); big-007 was stored above; the last 20 are another workspace's account.
      const change = (id: string) => ({ field: 'comments', value: { id, text: 'How much?', from: { id: `u-${id}`, username: 'ada' }, media: { id: 'm-1' } } });
      const body = { object: 'instagram', entry: [{ id: 'acct-photo-1', time: 1795435200, changes: [...ids.slice(0, 16), 'big-015', ...ids.slice(16, 230), 'big-120'].map(change) }, { id: 'acct-photo-2', time: 1795435200, changes: ids.slice(230).map(change) }] };
      const res = await t.webhook('photo', body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: 252, stored: 249, duplicates: 3 });
      const stored = new Map((await events()).map((e) => [String(e.id), e]));
      // Each id names its own change, in the order of the delivery.
      const expected = [...ids.slice(0, 230).filter((id) => id !== 'big-007').map((id) => [ws.id, id]), ...ids.slice(230).map((id) => [other.id, id])];
      expect((res.body.eventIds as string[]).map((id) => [stored.get(id)!.workspace_id, stored.get(id)!.external_id])).toEqual(expected);
    });

    it('events of an account no inbox connects are acknowledged and counted in a metric, nothing else', async () => {
      const before = await metric('unknownAccount');
      const count = (await events()).length;
      const res = await t.webhook('photo', photoComment('acct-nobody', 'c-300'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: 1, stored: 0, unknownAccounts: 1 });
      expect((await events()).length).toBe(count);
      expect(await metric('unknownAccount')).toBe(before + 1);
    });

    it('an inactive inbox receives nothing: its events count as of an unknown account', async () => {
      await inbox(ws.id, 'photo', 'acct-switched-off');
      await t.db.updateTable('inboxes').set({ status: 'inactive' }).where('source_id', '=', 'acct-switched-off').execute();
      const before = await metric('unknownAccount');
      const count = (await events()).length;
      const res = await t.webhook('photo', photoComment('acct-switched-off', 'c-off-1'));
      expect(res.body).toMatchObject({ received: 1, stored: 0, unknownAccounts: 1 });
      expect((await events()).length).toBe(count);
      expect(await metric('unknownAccount')).toBe(before + 1);
    });

    it('each event goes to the workspace whose inbox connects its account, and only there', async () => {
      const res = await t.webhook('photo', {
        object: 'instagram',
        entry: [
          { id: 'acct-photo-1', changes: [{ field: 'comments', value: { id: 'c-400', text: 'a', from: { id: 'u-2' } } }] },
          { id: 'acct-photo-2', changes: [{ field: 'comments', value: { id: 'c-401', text: 'b', from: { id: 'u-3' } } }] },
        ],
      });
      expect(res.body).toMatchObject({ received: 2, stored: 2 });
      expect((await events(ws.id)).map((e) => e.external_id)).toContain('c-400');
      expect((await events(ws.id)).map((e) => e.external_id)).not.toContain('c-401');
      expect((await events(other.id)).filter((e) => e.external_id === 'c-401')).toEqual([expect.objectContaining({ inbox_id: otherPhotoInbox })]);
    });

    it('reads net comments, leads, messages and receipts; skips echoes, edits and fields it does not handle', async () => {
      const res = await t.webhook('net', {
        object: 'page',
        entry: [
          {
            id: 'page-1',
            time: 1795435200,
            changes: [
              { field: 'feed', value: { item: 'comment', verb: 'add', comment_id: 'p_1_c1', post_id: 'page-1_p1', parent_id: 'page-1_p1', message: 'Hi', from: { id: 'u-9', name: 'Bob Stone' }, photo: 'https://cdn.example.com/x.jpg', created_time: 1795435100 } },
              { field: 'feed', value: { item: 'comment', verb: 'add', comment_id: 'p_1_c2', post_id: 'page-1_p1', parent_id: 'p_1_c1', message: 'Re', from: { id: 'u-8' } } },
              { field: 'feed', value: { item: 'comment', verb: 'edited', comment_id: 'p_1_c1', post_id: 'page-1_p1', message: 'Hi!', from: { id: 'u-9' } } },
              { field: 'feed', value: { item: 'reaction', verb: 'add', post_id: 'page-1_p1' } },
              { field: 'leadgen', value: { leadgen_id: 'lead-1', page_id: 'page-1', form_id: 'f-1', created_time: 1795435000 } },
              { field: 'mention', value: { anything: true } },
            ],
            messaging: [
              { sender: { id: 'u-9' }, recipient: { id: 'page-1' }, timestamp: 1795435200000, message: { mid: 'm.1', text: 'Hello', attachments: [{ type: 'image', payload: { url: 'https://cdn.example.com/y.jpg' } }] } },
              { sender: { id: 'page-1' }, recipient: { id: 'u-9' }, timestamp: 1795435200000, message: { mid: 'm.2', text: 'echo', is_echo: true } },
              { sender: { id: 'u-9' }, recipient: { id: 'page-1' }, timestamp: 1795435200000, read: { watermark: 1795435300000 } },
              { sender: { id: 'u-9' }, recipient: { id: 'page-1' }, timestamp: 1795435200000, postback: { mid: 'm.3', title: 'Yes', payload: 'YES' } },
            ],
          },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: 10, stored: 6, ignored: 4, unknownAccounts: 0 });
      const stored = (await events(ws.id)).filter((e) => e.inbox_id === netInbox);
      const payloads = Object.fromEntries(stored.map((e) => [`${e.kind}:${e.external_id}`, JSON.parse(e.payload)]));
      expect(Object.keys(payloads).sort()).toEqual(['comment:p_1_c1', 'comment:p_1_c2', 'lead:lead-1', 'message:m.1', `postback:u-9:m.3:${new Date(1795435200000).toISOString()}:YES`, `read:u-9:${new Date(1795435300000).toISOString()}`].sort());
      expect(payloads['comment:p_1_c1']).toMatchObject({ parentId: null, postId: 'page-1_p1', authorName: 'Bob Stone', attachments: [{ type: 'image', url: 'https://cdn.example.com/x.jpg' }], createdAt: new Date(1795435100 * 1000).toISOString() });
      expect(payloads['comment:p_1_c2']).toMatchObject({ parentId: 'p_1_c1' });
      expect(payloads['lead:lead-1']).toEqual({ kind: 'lead', leadId: 'lead-1', pageId: 'page-1', formId: 'f-1', adId: null, createdAt: new Date(1795435000 * 1000).toISOString() });
      expect(payloads['message:m.1']).toMatchObject({ senderId: 'u-9', recipientId: 'page-1', text: 'Hello', attachments: [{ type: 'image', url: 'https://cdn.example.com/y.jpg' }] });
    });

    it.each([
      ['not JSON', '{"object":', 400, 'malformedJson'],
      ['without entry', { object: 'instagram' }, 422, 'invalidRequestData'],
      ['the other network\'s object', { object: 'page', entry: [] }, 422, 'invalidRequestData'],
    ])('a signed body %s is refused with the envelope and stores nothing', async (_name, body, status, code) => {
      const count = (await events()).length;
      const res = await t.webhook('photo', body);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ code, status });
      expect((await events()).length).toBe(count);
    });

    it('a change without the shape we read is dropped and counted; the rest of the delivery (other accounts too) is stored', async () => {
      const before = await metric('invalid');
      const good = photoComment('acct-photo-2', 'c-mixed-ok').entry[0]!;
      const res = await t.webhook('photo', { object: 'instagram', entry: [{ id: 'acct-photo-1', changes: [{ field: 'comments', value: { id: 'c-9', text: 'x' } }] }, good] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: 2, stored: 1, invalid: 1 });
      expect((await events(other.id)).map((e) => e.external_id)).toContain('c-mixed-ok');
      expect((await events(ws.id)).map((e) => e.external_id)).not.toContain('c-9');
      expect(await metric('invalid')).toBe(before + 1);
    });

    it('dev events refuse a change without the shape we read, naming its path', async () => {
      const res = await t.request('POST', '/v1/dev/events', { token: ws.developerToken, body: { channel: 'photo', entry: [{ id: 'acct-photo-1', changes: [{ field: 'comments', value: { id: 'c-9', text: 'x' } }] }] } });
      expect(res.status).toBe(422);
      expect(res.body.data.issues).toEqual([expect.objectContaining({ path: ['entry', 0, 'changes', 0, 'value', 'from'] })]);
    });
  });

  describe('dev events', () => {
    const devBody = (commentId: string, account = 'acct-photo-1') => ({ channel: 'photo', entry: photoComment(account, commentId).entry });

    it('inject the same events with the workspace token, and fill the sandbox records', async () => {
      const res = await t.request('POST', '/v1/dev/events', {
        token: ws.developerToken,
        body: { ...devBody('c-dev-1'), leads: [{ id: 'lead-9', formId: 'f-1', fields: [{ name: 'email', values: ['ada@example.com'] }] }], profiles: [{ id: 'u-1', firstName: 'Ada', lastName: 'Lovelace' }] },
      });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ received: 1, stored: 1, duplicates: 0 });
      expect((await events(ws.id)).find((e) => e.external_id === 'c-dev-1')).toMatchObject({ source: 'dev', inbox_id: photoInbox });
      const records = await t.db.selectFrom('sandbox_records').select(['kind', 'external_id', 'data']).where('workspace_id', '=', ws.id).orderBy('kind').execute();
      expect(records.map((r) => [r.kind, r.external_id, JSON.parse(r.data)])).toEqual([
        ['lead', 'lead-9', { createdAt: expect.any(String), formId: 'f-1', adId: null, fields: [{ name: 'email', values: ['ada@example.com'] }] }],
        ['profile', 'u-1', { firstName: 'Ada', lastName: 'Lovelace', name: null, username: null, avatarUrl: null }],
      ]);
      // A redelivery is a duplicate here too.
      expect((await t.request('POST', '/v1/dev/events', { token: ws.developerToken, body: devBody('c-dev-1') })).body).toMatchObject({ stored: 0, duplicates: 1 });
    });

    it('GraphQL injectDevEvents does the same', async () => {
      const res = await t.graphql(
        'mutation($input: DevEventsInput!) { injectDevEvents(input: $input) { received stored duplicates unknownAccounts ignored eventIds } }',
        { input: devBody('c-dev-gql') },
        { token: ws.developerToken },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.injectDevEvents).toMatchObject({ received: 1, stored: 1, eventIds: [expect.stringMatching(/^\d+$/)] });
    });

    it('GraphQL refuses a variable inside a WebhookEntry literal, saying to send the whole entry as one variable; nothing is stored', async () => {
      const count = (await events()).length;
      const res = await t.graphql(
        'mutation($id: String) { injectDevEvents(input: {channel: photo, entry: [{id: $id, time: 1, changes: []}]}) { stored } }',
        { id: 'acct-photo-1' },
        { token: ws.developerToken },
      );
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          message: 'Expected value of type "WebhookEntry!", found {id: $id, time: 1, changes: []}; a WebhookEntry cannot hold a variable: send the whole value as one variable of type WebhookEntry',
          extensions: expect.objectContaining({ code: 'invalidRequestData', status: 422 }),
        }),
      ]);
      expect((await events()).length).toBe(count);
    });

    it('is refused to a workspace not in developmentMode', async () => {
      const res = await t.request('POST', '/v1/dev/events', { token: other.developerToken, body: devBody('c-dev-2', 'acct-photo-2') });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', data: { reason: expect.stringMatching(/developmentMode/) } });
    });

    it("cannot reach another workspace's account: 422 naming it, nothing stored", async () => {
      const count = (await events()).length;
      const res = await t.request('POST', '/v1/dev/events', { token: ws.developerToken, body: devBody('c-dev-3', 'acct-photo-2') });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation', data: { field: 'entry', reason: 'notFound', ids: ['acct-photo-2'] } });
      expect((await events()).length).toBe(count);
    });

    it('validates its body with the envelope', async () => {
      const res = await t.request('POST', '/v1/dev/events', { token: ws.developerToken, body: { channel: 'fax', entry: [] } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('invalidRequestData');
      expect(res.body.data.issues.map((i: { path: unknown[] }) => i.path.join('.')).sort()).toEqual(['body.channel', 'body.entry']);
    });

    it('is refused on a server that talks to the networks (CHANNEL_ADAPTER=http): made-up events must not reach them', async () => {
      const live = await createEngineTestApp({ CHANNEL_ADAPTER: 'http', GRAPH_API_BASE_URL: 'http://127.0.0.1:9/v21.0', GRAPH_API_ACCESS_TOKEN: 'token' });
      try {
        const dev = await live.workspace({ developmentMode: true });
        await live.db.insertInto('inboxes').values({ workspace_id: dev.id, name: 'photo', channel: 'photo', source_id: 'acct-live', status: 'active', created_at: T0, updated_at: T0 }).execute();
        const res = await live.request('POST', '/v1/dev/events', { token: dev.developerToken, body: devBody('c-live-1', 'acct-live') });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'FORBIDDEN', data: { reason: expect.stringMatching(/sandbox/) } });
        expect(await live.db.selectFrom('channel_events').select('id').where('workspace_id', '=', dev.id).execute()).toEqual([]);
      } finally {
        await live.close();
      }
    });
  });
});
