import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedMessages } from './support/contract-calls/messages.js';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { FakeGraphApi } from './support/fake-graph-api.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Thread control through the Graph API adapter (CHANNEL_ADAPTER=http) against a local server
 * playing the network: take, pass and release are POSTs to the account's *_thread_control edges
 * naming the person; sync reads GET /{account}/thread_owner; a refusal is 400 businessError with
 * the network's words and an error log, and changes nothing. Our app id comes from CHANNEL_APP_ID.
 */
describe(`thread control through the Graph API adapter on ${testEngine}`, () => {
  const network = new FakeGraphApi();
  let t: TestApp;
  let ws: TestWorkspace;
  let serial = 0;

  beforeAll(async () => {
    await network.start();
    t = await createTestApp({ ...unlimited, CHANNEL_ADAPTER: 'http', GRAPH_API_BASE_URL: network.url, GRAPH_API_ACCESS_TOKEN: 'EAAtest-token', CHANNEL_APP_ID: '1111', HANDOVER_TARGET_APP_ID: '2222' });
    ws = await t.workspace();
  });
  afterAll(async () => {
    await t?.close();
    await network.stop();
  });
  beforeEach(() => network.reset());

  const thread = async () => {
    const f = fixtures(t.db, ws.id);
    const n = ++serial;
    const contact = await f.contact({ email: `g${n}@example.com` });
    const inbox = await f.inbox(`Page ${n}`, 'net');
    const { conversation } = await seedMessages(t.db, ws.id, contact, inbox);
    const contactInbox = (await t.db.selectFrom('contact_inboxes').select('id').where('contact_id', '=', contact).where('inbox_id', '=', inbox).executeTakeFirstOrThrow()).id;
    return { contact, conversation, contactInbox, account: encodeURIComponent(`src-Page ${n}`), personId: `psid-${ws.id}-${contact}` };
  };
  const control = (c: { conversation: number; contactInbox: number }, body: Record<string, unknown>) =>
    t.request('POST', `/v1/conversations/${c.conversation}/thread-control`, { token: ws.developerToken, body: { contactInboxId: String(c.contactInbox), ...body } });

  it('pass, release and take call the thread-control edges with the person and what was asked', async () => {
    const c = await thread();
    const passed = await control(c, { action: 'pass', metadata: 'human please' });
    expect(passed.body).toMatchObject({ status: 'applied', snapshot: { state: 'standby', ownerAppId: '2222' } });
    const taken = await control(c, { action: 'take' });
    expect(taken.body).toMatchObject({ status: 'applied', snapshot: { state: 'owned', ownerRole: 'primary', ownerAppId: '1111' } });
    const released = await control(c, { action: 'release', metadata: 'bye' });
    expect(released.body).toMatchObject({ status: 'applied', snapshot: { state: 'standby', ownerAppId: '2222', lastEvent: 'release' } });
    expect(network.seen).toEqual([
      { method: 'POST', url: `/v21.0/${c.account}/pass_thread_control`, body: { recipient: { id: c.personId }, target_app_id: '2222', metadata: 'human please' } },
      { method: 'POST', url: `/v21.0/${c.account}/take_thread_control`, body: { recipient: { id: c.personId } } },
      { method: 'POST', url: `/v21.0/${c.account}/release_thread_control`, body: { recipient: { id: c.personId }, metadata: 'bye' } },
    ]);
    // A pass of a thread already another app's calls nothing.
    expect((await control(c, { action: 'pass', targetAppId: '3333' })).body.status).toBe('notEscalation');
    expect(network.seen).toHaveLength(3);
  });

  it('sync reads the thread owner: another app is standby, ours or none is owned', async () => {
    const c = await thread();
    network.answer({ status: 200, json: { data: [{ thread_owner: { app_id: 3333 } }] } });
    const other = await control(c, { action: 'sync' });
    expect(other.body).toMatchObject({ status: 'applied', snapshot: { state: 'standby', ownerRole: 'secondary', ownerAppId: '3333', lastEvent: 'sync', lastEventSource: 'api' } });
    expect(network.seen).toEqual([{ method: 'GET', url: `/v21.0/${c.account}/thread_owner?recipient=${encodeURIComponent(c.personId)}`, body: undefined }]);
    network.answer({ status: 200, json: { data: [{ thread_owner: { app_id: '3333' } }] } });
    expect((await t.request('POST', `/v1/conversations/${c.conversation}/thread-control/sync`, { token: ws.developerToken, body: { contactInboxId: String(c.contactInbox) } })).body.status).toBe('notEscalation');
    network.answer({ status: 200, json: { data: [] } });
    expect((await control(c, { action: 'sync' })).body).toMatchObject({ status: 'applied', snapshot: { state: 'owned', ownerAppId: '1111' } });
    network.answer({ status: 200, json: { data: [{ thread_owner: { app_id: '1111' } }] } });
    expect((await control(c, { action: 'sync' })).body.status).toBe('notEscalation');
  });

  it("a network refusal is 400 businessError with the network's words and an error log; the thread is unchanged", async () => {
    const c = await thread();
    network.answer(FakeGraphApi.error(400, '(#10) This app is not the thread owner', 10));
    const res = await control(c, { action: 'pass' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      defined: true,
      code: 'businessError',
      status: 400,
      message: expect.any(String),
      data: { reason: 'invalid', providerMessage: '(#10) This app is not the thread owner', httpCode: 400, retryable: false },
    });
    const logs = (await t.request('GET', '/v1/error-logs?perPage=50', { token: ws.developerToken })).body.data as { contactId: string; action: string; detail: string; httpCode: string }[];
    expect(logs.filter((l) => l.contactId === String(c.contact)).map(({ action, detail, httpCode }) => ({ action, detail, httpCode }))).toEqual([
      { action: 'net', detail: '(#10) This app is not the thread owner', httpCode: '400' },
    ]);
    expect(await t.db.selectFrom('thread_states').select('state').where('contact_inbox_id', '=', c.contactInbox).execute()).toEqual([]);
    network.answer(FakeGraphApi.error(500, 'An unknown error has occurred.', 1));
    expect((await control(c, { action: 'sync' })).body).toMatchObject({ code: 'businessError', data: { reason: 'unavailable', retryable: true } });
  });
});
