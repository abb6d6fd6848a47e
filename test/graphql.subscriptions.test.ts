import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeTokenById } from '../src/domain/auth/token.service.js';
import { READ_BATCH } from '../src/domain/workspace-events/event-feed.js';
import { insertEvents } from '../src/domain/workspace-events/workspace-event.repository.js';
import { recordEvents } from '../src/domain/workspace-events/workspace-event.service.js';
import { testEngine } from './support/engine.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { documentError } from './support/graphql.js';
import { waitFor } from './support/queue.js';
import { EVENTS, subscribe } from './support/sse.js';

/**
 * `Subscription.events` over SSE (graphql-sse's distinct connections mode), on a real socket: the
 * app served by node:http on a free port, the stream read as a client reads it. Events are caused
 * by REST calls, as an integration causes them. Each test has workspaces of its own.
 */
describe(`Subscription.events over SSE on ${testEngine}`, () => {
  let t: TestApp;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ EVENTS_POLL_MS: '100', SUBSCRIPTIONS_PER_WORKSPACE: '2' });
    server = createServer(t.app.listener);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((ok) => server?.close(ok));
    await t?.close();
  });

  const call = async (ws: TestWorkspace, method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { token: ws.developerToken, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body;
  };
  const newContact = async (ws: TestWorkspace, firstName: string) =>
    Number((await call(ws, 'POST', '/v1/contacts', { email: `${firstName.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`, firstName })).id);
  const newTag = async (ws: TestWorkspace, name: string) => Number((await call(ws, 'POST', '/v1/tags', { name })).id);
  const tagContact = (ws: TestWorkspace, contactId: number, tagIds: number[]) => call(ws, 'POST', `/v1/contacts/${contactId}/tags`, { tagIds: tagIds.map(String) });
  const untagContact = (ws: TestWorkspace, contactId: number, tagIds: number[]) => call(ws, 'DELETE', `/v1/contacts/${contactId}/tags`, { tagIds: tagIds.map(String) });

  /** An event as the stream sends it. */
  const event = (type: string, contactId: number, data: Record<string, unknown>, contact: Record<string, unknown> | null) => ({
    data: {
      events: {
        id: expect.stringMatching(/^\d+$/),
        type,
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        data: { event: expect.any(String), contact_id: String(contactId), timestamp: expect.any(String), ...data },
        contact,
      },
    },
  });

  it('streams the caller\'s workspace\'s events, with the contact as it is now; another workspace\'s token sees none of them', async () => {
    const a = await t.workspace({ name: 'A' });
    const b = await t.workspace({ name: 'B' });
    const ada = await newContact(a, 'Ada');
    const [vip, gold] = [await newTag(a, 'VIP'), await newTag(a, 'Gold')];
    const bob = await newContact(b, 'Bob');
    const lead = await newTag(b, 'Lead');

    const streamA = await subscribe(base, EVENTS, { token: a.developerToken });
    const streamB = await subscribe(base, EVENTS, { token: b.developerToken });
    expect(streamA.status).toBe(200);
    expect(streamA.headers['content-type']).toMatch(/^text\/event-stream/);

    await tagContact(a, ada, [vip]);
    expect(await streamA.result()).toEqual(event('tagApplied', ada, { event: 'tag_applied', tag: 'VIP' }, { rawId: String(ada), firstName: 'Ada', tags: [{ name: 'VIP' }] }));
    // Each event loads the contact afresh: the second shows both tags.
    await tagContact(a, ada, [gold]);
    expect(await streamA.result()).toEqual(
      event('tagApplied', ada, { event: 'tag_applied', tag: 'Gold' }, { rawId: String(ada), firstName: 'Ada', tags: expect.arrayContaining([{ name: 'VIP' }, { name: 'Gold' }]) }),
    );

    // B's first event is its own: nothing of A's came before it.
    await tagContact(b, bob, [lead]);
    expect(await streamB.result()).toEqual(event('tagApplied', bob, { event: 'tag_applied', tag: 'Lead' }, { rawId: String(bob), firstName: 'Bob', tags: [{ name: 'Lead' }] }));
    expect(streamA.pending()).toEqual([]);
    streamA.close();
    streamB.close();
  });

  it('`types` keeps only the events of those types; `after` replays the events after an id, then goes on live', async () => {
    const ws = await t.workspace();
    const cy = await newContact(ws, 'Cy');
    const vip = await newTag(ws, 'VIP');
    const removals = await subscribe(base, EVENTS, { token: ws.developerToken, variables: { types: ['tagRemoved'] } });
    await tagContact(ws, cy, [vip]);
    await untagContact(ws, cy, [vip]);
    expect(await removals.result()).toEqual(event('tagRemoved', cy, { event: 'tag_removed', tag: 'VIP' }, { rawId: String(cy), firstName: 'Cy', tags: [] }));
    removals.close();

    const replay = await subscribe(base, EVENTS, { token: ws.developerToken, variables: { after: '0' } });
    const replayed = [await replay.result(), await replay.result(), await replay.result()];
    expect(replayed.map((r) => r.data.events.type)).toEqual(['newContact', 'tagApplied', 'tagRemoved']);
    const ids = replayed.map((r) => Number(r.data.events.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    // From the middle: what came after that id, then live.
    const fromMiddle = await subscribe(base, EVENTS, { token: ws.developerToken, variables: { after: String(ids[0]), types: ['tagApplied', 'tagRemoved'] } });
    expect((await fromMiddle.result()).data.events.id).toBe(String(ids[1]));
    expect((await fromMiddle.result()).data.events.id).toBe(String(ids[2]));
    replay.close();
    await tagContact(ws, cy, [vip]);
    expect(await fromMiddle.result()).toEqual(event('tagApplied', cy, { event: 'tag_applied', tag: 'VIP' }, { rawId: String(cy), firstName: 'Cy', tags: [{ name: 'VIP' }] }));
    fromMiddle.close();
  });

  it('a replay longer than one read arrives whole and in order; a webhook\'s test ping is never streamed', async () => {
    const ws = await t.workspace();
    const contactId = await newContact(ws, 'Many');
    const count = READ_BATCH * 2 + 7;
    const followUps = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ type: 'followUp' as const, contactId, data: { conversation_id: String(from + i), marked_by: null } }));
    await recordEvents(t.db, ws.id, followUps(0, READ_BATCH));
    // As POST /v1/webhooks/{id}/test stores it: an event for that webhook alone.
    await insertEvents(t.db, ws.id, [{ type: 'ping', contact_id: null, source_id: null, body: '{"event":"ping"}', occurred_at: new Date().toISOString(), fanned_out: true }]);
    await recordEvents(t.db, ws.id, followUps(READ_BATCH, count - READ_BATCH));
    const stream = await subscribe(base, 'subscription { events(after: "0") { type data } }', { token: ws.developerToken });
    expect((await stream.result()).data.events.type).toBe('newContact');
    const ns: number[] = [];
    for (let i = 0; i < count; i++) ns.push(Number((await stream.result()).data.events.data.conversation_id));
    expect(ns).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(stream.pending()).toEqual([]);
    stream.close();
  });

  it('without a token: 401 with the envelope, as any GraphQL request; without the webhooks scope: FORBIDDEN; a bad `after`: 422', async () => {
    const res = await subscribe(base, EVENTS);
    expect(res.status).toBe(401);
    expect(JSON.parse(await res.text())).toEqual({
      errors: [{ message: 'Authentication required: send a token as "Authorization: Bearer <token>"', extensions: { defined: true, code: 'UNAUTHORIZED', status: 401 } }],
    });

    const ws = await t.workspace();
    const narrow = await t.token(ws.id, { kind: 'developer', name: 'tags only', scopes: ['tags'] });
    const refused = await subscribe(base, EVENTS, { token: narrow });
    expect(refused.status).toBe(200);
    expect(await refused.rest()).toEqual([
      {
        errors: [
          {
            message: 'This token lacks the "webhooks" scope',
            locations: expect.any(Array),
            path: ['events'],
            extensions: { defined: true, code: 'FORBIDDEN', status: 403, data: { reason: 'missingScope', scope: 'webhooks' } },
          },
        ],
      },
    ]);

    // Arguments are checked with the cost, before the stream starts, as a query's are.
    const bad = await subscribe(base, EVENTS, { token: ws.developerToken, variables: { after: 'last' } });
    expect(await bad.rest()).toEqual([
      {
        data: null,
        errors: [
          {
            message: 'after: must be a digit string',
            locations: expect.any(Array),
            path: ['events'],
            extensions: { defined: true, code: 'invalidRequestData', status: 422, data: { issues: [{ message: 'must be a digit string', path: ['after'] }] } },
          },
        ],
      },
    ]);
    expect(t.app.deps.events.openStreams(ws.id)).toBe(0);
  });

  it('a token revoked while its stream is open ends the stream (past the token cache), and its connection closes', async () => {
    const ws = await t.workspace();
    const issued = await t.token(ws.id, { kind: 'developer', name: 'short-lived' });
    const stream = await subscribe(base, EVENTS, { token: issued });
    const tokenId = (await t.db.selectFrom('api_tokens').select('id').where('workspace_id', '=', ws.id).where('name', '=', 'short-lived').executeTakeFirstOrThrow()).id;
    // As the CLI revokes: another process, so this one's token cache is not told.
    expect(await revokeTokenById(t.db, Number(tokenId))).toBe(true);
    expect(await stream.rest()).toEqual([
      {
        data: null,
        errors: [
          {
            message: 'The token is malformed, unknown or revoked (or a user access token sent in ?token=)',
            locations: expect.any(Array),
            path: ['events'],
            extensions: { defined: true, code: 'INVALID_CHATBOT_TOKEN', status: 401 },
          },
        ],
      },
    ]);
    await stream.closed;
  });

  it(`at most SUBSCRIPTIONS_PER_WORKSPACE (2 here) open streams per workspace: one more is 429 tooManyRequests; a client that leaves frees its place`, async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const first = await subscribe(base, EVENTS, { token: ws.developerToken });
    const second = await subscribe(base, EVENTS, { token: ws.developerToken });
    const third = await subscribe(base, EVENTS, { token: ws.developerToken });
    expect(await third.rest()).toEqual([
      {
        errors: [
          {
            message: 'Too many open event subscriptions for this workspace: at most 2 per server process; end one first',
            locations: expect.any(Array),
            path: ['events'],
            extensions: { defined: true, code: 'tooManyRequests', status: 429, data: { budget: 'subscriptions', limit: 2 } },
          },
        ],
      },
    ]);
    // Another workspace has places of its own.
    const elsewhere = await subscribe(base, EVENTS, { token: other.developerToken });
    expect(elsewhere.pending()).toEqual([]);

    first.close();
    await waitFor('the place of the client that left to be free', async () => t.app.deps.events.openStreams(ws.id) === 1);
    const again = await subscribe(base, EVENTS, { token: ws.developerToken });
    const contactId = await newContact(ws, 'Dee');
    expect((await again.result()).data.events).toMatchObject({ type: 'newContact', contact: { rawId: String(contactId) } });
    expect((await second.result()).data.events).toMatchObject({ type: 'newContact', contact: { rawId: String(contactId) } });
    for (const s of [second, again, elsewhere]) s.close();
  });

  it('reads once per workspace per poll whatever the number of its streams, and checks every token in one statement', async () => {
    const workspaces = [await t.workspace(), await t.workspace(), await t.workspace()];
    const streams = [];
    for (const ws of workspaces) for (let i = 0; i < 2; i++) streams.push(await subscribe(base, EVENTS, { token: ws.developerToken }));
    const feeds = t.app.deps.events;
    const before = { ...feeds.counts };
    await waitFor('ten polls', async () => feeds.counts.ticks >= before.ticks + 10);
    const after = { ...feeds.counts };
    // A poll counts its statements as it runs them and itself when done: either snapshot may fall
    // inside one, so the figures are those of `ticks` polls, give or take one.
    const ticks = after.ticks - before.ticks;
    const tokenChecks = after.tokenChecks - before.tokenChecks;
    expect(tokenChecks).toBeGreaterThanOrEqual(ticks - 1);
    expect(tokenChecks).toBeLessThanOrEqual(ticks + 1);
    // One read per workspace and poll: 3 here (another test's stream still closing may add its own).
    const reads = after.reads - before.reads;
    expect(reads).toBeGreaterThanOrEqual((ticks - 1) * workspaces.length);
    expect(reads).toBeLessThanOrEqual((ticks + 1) * feeds.openStreams());
    expect(reads).toBeLessThan((ticks - 1) * streams.length);
    for (const s of streams) s.close();
  });

  it('the cost limit applies to the selection before the stream starts', async () => {
    const strict = await createTestApp({ GRAPHQL_MAX_COST: '1' });
    const own = createServer(strict.app.listener);
    await new Promise<void>((ok) => own.listen(0, '127.0.0.1', ok));
    try {
      const ws = await strict.workspace();
      const stream = await subscribe(`http://127.0.0.1:${(own.address() as AddressInfo).port}`, 'subscription { events { id contact { rawId } } }', { token: ws.developerToken });
      expect(await stream.rest()).toEqual([{ errors: [documentError('Query cost limit of 1 exceeded, found 2.', {}, ['query'], 'Query cost 2 exceeds the limit of 1')] }]);
      expect(strict.app.deps.events.openStreams()).toBe(0);
    } finally {
      own.closeAllConnections();
      await new Promise((ok) => own.close(ok));
      await strict.close();
    }
  });

  it('a draining app ends every open stream, saying why, and refuses new ones', async () => {
    const drained = await createTestApp({ EVENTS_POLL_MS: '100' });
    const own = createServer(drained.app.listener);
    await new Promise<void>((ok) => own.listen(0, '127.0.0.1', ok));
    const ownBase = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
    try {
      const ws = await drained.workspace();
      const stream = await subscribe(ownBase, EVENTS, { token: ws.developerToken });
      drained.app.beginDrain();
      const shuttingDown = {
        data: null,
        errors: [
          {
            message: 'The server is shutting down: subscribe again, with `after` set to the last event id you received, to go on from there',
            locations: expect.any(Array),
            path: ['events'],
            extensions: { defined: false, code: 'serviceUnavailable', status: 503 },
          },
        ],
      };
      expect(await stream.rest()).toEqual([shuttingDown]);
      await stream.closed;
      // A subscription that cannot start has no `data` (GraphQL's rule); one ended has `data: null`.
      const late = await subscribe(ownBase, EVENTS, { token: ws.developerToken });
      const { data: _none, ...refused } = shuttingDown;
      expect(await late.rest()).toEqual([refused]);
    } finally {
      own.closeAllConnections();
      await new Promise((ok) => own.close(ok));
      await drained.close();
    }
  });

  it.runIf(testEngine === 'postgres')('an id that commits after a higher one is still delivered (PostgreSQL)', async () => {
    const ws = await t.workspace();
    const contactId = await newContact(ws, 'Late');
    const stream = await subscribe(base, 'subscription { events(types: [followUp]) { id data } }', { token: ws.developerToken });
    let commit!: () => void;
    const held = new Promise<void>((ok) => (commit = ok));
    let heldId = 0;
    // The first transaction takes its id and waits; the second takes a higher one and commits.
    const slow = t.db.transaction().execute(async (trx) => {
      await recordEvents(trx, ws.id, [{ type: 'followUp', contactId, data: { conversation_id: '101', marked_by: null } }]);
      heldId = Number((await trx.selectFrom('workspace_events').select((e) => e.fn.max('id').as('id')).where('workspace_id', '=', ws.id).executeTakeFirstOrThrow()).id);
      await held;
    });
    await waitFor('the slow transaction to hold its id', async () => heldId > 0);
    await recordEvents(t.db, ws.id, [{ type: 'followUp', contactId, data: { conversation_id: '102', marked_by: null } }]);
    const fast = (await stream.result()).data.events;
    expect(fast.data.conversation_id).toBe('102');
    expect(Number(fast.id)).toBeGreaterThan(heldId);
    commit();
    await slow;
    expect((await stream.result()).data.events).toEqual({ id: String(heldId), data: expect.objectContaining({ conversation_id: '101' }) });
    stream.close();
  });
});
