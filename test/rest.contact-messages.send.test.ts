import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { FakeGraphApi } from './support/fake-graph-api.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { event, recordedEvents } from './support/recorded-events.js';

/**
 * Sending to a contact: POST /v1/contacts/{identifier}/messages and .../auto-replies go through the
 * channel adapter to the contact's network id in the chosen inbox, only inside the networks'
 * 24-hour messaging window, and are stored on the conversation (outgoing, sent); a network refusal
 * is stored as failed with an error log and answered as an error. POST .../refresh-profile reads
 * the profile through the adapter.
 */
const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

let serial = 0;

/** A contact with a membership of a new inbox (its network id there) and a conversation whose contact last wrote `repliedAt`. */
async function messagingContact(
  t: TestApp,
  ws: TestWorkspace,
  o: { channel?: string; personId?: string | null; repliedAt?: string | null; lastActivityAt?: string; contactId?: number } = {},
) {
  const f = fixtures(t.db, ws.id);
  const n = ++serial;
  const contact = o.contactId ?? (await f.contact({ email: `person${n}@example.com`, firstName: 'Ada' }));
  const channel = o.channel ?? 'photo';
  const inbox = await f.inbox(`${channel} ${n}`, channel);
  const personId = o.personId === undefined ? `psid-${n}` : o.personId;
  await t.db.insertInto('contact_inboxes').values({ workspace_id: ws.id, contact_id: contact, inbox_id: inbox, channel, source_id: personId, created_at: ago(HOUR) }).execute();
  const lastActivityAt = o.lastActivityAt ?? o.repliedAt ?? ago(2 * HOUR);
  const conversation = await f.conversation({ contactId: contact, inboxId: inbox, lastActivityAt, createdAt: ago(48 * HOUR) });
  await t.db.updateTable('conversations').set({ contact_replied_at: o.repliedAt === undefined ? ago(60_000) : o.repliedAt }).where('id', '=', conversation).execute();
  return { contact, inbox, conversation, personId, accountId: `src-${channel} ${n}` };
}

const outboxMessages = async (t: TestApp, ws: TestWorkspace, contact: number) =>
  (await t.request('GET', `/v1/outbox?action=message&contactId=${contact}`, { token: ws.developerToken })).body.data;

describe(`sending messages to a contact on ${testEngine}`, () => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
  });
  afterAll(() => t?.close());

  const send = (contact: number | string, body: unknown, token = ws.developerToken) => t.request('POST', `/v1/contacts/${contact}/messages`, { token, body });

  it('within the window: 201 with the message and Location, the outbox entry, the conversation and the contact moved, and messageSent', async () => {
    const c = await messagingContact(t, ws);
    const events = recordedEvents(t.db, ws.id);
    await events.next();
    const before = Date.now();
    const res = await send(c.contact, { text: '  We do! Delivery takes 3 to 5 days.  ', inboxId: String(c.inbox) });
    expect(res.status).toBe(201);
    expect(await events.next()).toEqual([
      event('messageSent', 'message_sent', c.contact, { message_id: res.body.id, conversation_id: String(c.conversation), inbox_id: String(c.inbox), text: 'We do! Delivery takes 3 to 5 days.', attachments: [] }),
    ]);
    const [entry] = await outboxMessages(t, ws, c.contact);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      contactId: String(c.contact),
      conversationId: String(c.conversation),
      inboxId: String(c.inbox),
      direction: 'outgoing',
      externalId: `outbox:${entry.id}`,
      text: 'We do! Delivery takes 3 to 5 days.',
      attachments: [],
      status: 'sent',
      error: null,
      automationKind: null,
      automationId: null,
      seenAt: null,
      clickedAt: null,
      createdAt: expect.any(String),
    });
    expect(res.headers.get('location')).toBe(`/v1/contacts/${c.contact}/messages/${res.body.id}`);
    expect(entry).toMatchObject({
      channel: 'photo',
      inboxId: String(c.inbox),
      action: 'message',
      recipientId: c.personId,
      contactId: String(c.contact),
      automationKind: null,
      payload: { type: 'text', text: 'We do! Delivery takes 3 to 5 days.' },
    });
    expect((await t.request('GET', res.headers.get('location')!, { token: ws.developerToken })).body).toEqual(res.body);
    const conversation = (await t.request('GET', `/v1/conversations/${c.conversation}`, { token: ws.developerToken })).body;
    expect(conversation.adminRepliedAt).toBe(res.body.createdAt);
    expect(conversation.lastActivityAt).toBe(res.body.createdAt);
    expect(Date.parse(res.body.createdAt)).toBeGreaterThanOrEqual(before - 5);
    const contact = await t.db.selectFrom('contacts').select('last_message_at').where('id', '=', c.contact).executeTakeFirstOrThrow();
    expect(contact.last_message_at).toBe(res.body.createdAt);
  });

  it('without inboxId: the inbox of the most recent conversation activity; by email identifier too', async () => {
    const older = await messagingContact(t, ws, { repliedAt: ago(3 * HOUR), lastActivityAt: ago(3 * HOUR) });
    const newer = await messagingContact(t, ws, { contactId: older.contact, channel: 'net', repliedAt: ago(HOUR), lastActivityAt: ago(HOUR) });
    const res = await send(`email:person${serial - 1}@example.com`, { text: 'Hello' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ inboxId: String(newer.inbox), conversationId: String(newer.conversation) });
    const [entry] = await outboxMessages(t, ws, older.contact);
    expect(entry).toMatchObject({ channel: 'net', recipientId: newer.personId });
  });

  describe('refusals: 422 validation saying why, nothing sent or stored', () => {
    const nothingSent = async (contact: number) => {
      expect(await outboxMessages(t, ws, contact)).toEqual([]);
      expect(await t.db.selectFrom('messages').select('id').where('contact_id', '=', contact).execute()).toEqual([]);
    };

    it('outside the 24-hour window (the contact last wrote 25 hours ago)', async () => {
      const repliedAt = ago(25 * HOUR);
      const c = await messagingContact(t, ws, { repliedAt });
      const res = await send(c.contact, { text: 'Still there?' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        defined: true,
        code: 'validation',
        status: 422,
        message: 'Validation error',
        data: {
          field: 'inboxId',
          reason: 'windowClosed',
          inboxId: String(c.inbox),
          lastIncomingAt: repliedAt,
          windowClosedAt: new Date(Date.parse(repliedAt) + 24 * HOUR).toISOString(),
          detail: expect.stringMatching(/within 24 hours/),
        },
      });
      await nothingSent(c.contact);
    });

    it('a contact who never wrote in the inbox: the window never opened', async () => {
      const c = await messagingContact(t, ws, { repliedAt: null });
      const res = await send(c.contact, { text: 'Hi' });
      expect(res.body.data).toMatchObject({ field: 'inboxId', reason: 'windowClosed', lastIncomingAt: null, windowClosedAt: null });
      await nothingSent(c.contact);
    });

    it('an inbox that is not one of the contact\'s (another contact\'s, or none): unknown reference', async () => {
      const c = await messagingContact(t, ws);
      const other = await messagingContact(t, ws);
      for (const inboxId of [String(other.inbox), '999999']) {
        const res = await send(c.contact, { text: 'Hi', inboxId });
        expect([res.status, res.body.data]).toEqual([422, { field: 'inboxId', reason: 'notFound', ids: [inboxId] }]);
      }
      await nothingSent(c.contact);
    });

    it('an inactive inbox sends nothing: named, 422 inboxInactive; without inboxId, an active inbox is preferred', async () => {
      const c = await messagingContact(t, ws);
      await t.db.updateTable('inboxes').set({ status: 'inactive' }).where('id', '=', c.inbox).execute();
      const res = await send(c.contact, { text: 'Hi', inboxId: String(c.inbox) });
      expect(res.status).toBe(422);
      expect(res.body.data).toMatchObject({ field: 'inboxId', reason: 'inboxInactive', inboxId: String(c.inbox), detail: expect.stringMatching(/inactive/) });
      expect((await send(c.contact, { text: 'Hi' })).body.data).toMatchObject({ reason: 'inboxInactive' });
      await nothingSent(c.contact);
      // The same person also reachable through an active inbox: that one is chosen.
      const active = await messagingContact(t, ws, { contactId: c.contact, lastActivityAt: ago(30 * HOUR), repliedAt: ago(HOUR) });
      const sent = await send(c.contact, { text: 'Hi' });
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ inboxId: String(active.inbox) });
    });

    it('no network id in the inbox, a channel no network serves, no inbox at all', async () => {
      const noId = await messagingContact(t, ws, { personId: null });
      expect((await send(noId.contact, { text: 'Hi' })).body.data).toMatchObject({ field: 'inboxId', reason: 'noNetworkId', inboxId: String(noId.inbox), detail: expect.stringMatching(/no network id/) });
      const chat = await messagingContact(t, ws, { channel: 'chat' });
      expect((await send(chat.contact, { text: 'Hi' })).body.data).toMatchObject({ field: 'inboxId', reason: 'channelUnsupported', inboxId: String(chat.inbox) });
      const lonely = await fixtures(t.db, ws.id).contact({ email: 'lonely@example.com' });
      expect((await send(lonely, { text: 'Hi' })).body.data).toMatchObject({ field: 'inboxId', reason: 'noInbox' });
      for (const c of [noId.contact, chat.contact, lonely]) await nothingSent(c);
    });

    it('the text: required, not blank, at most 2000 characters; no other fields', async () => {
      const c = await messagingContact(t, ws);
      const issues = async (body: unknown) => {
        const res = await send(c.contact, body);
        expect(res.status).toBe(422);
        return res.body.data.issues;
      };
      expect(await issues({})).toEqual([{ message: 'Required', path: ['body', 'text'] }]);
      expect(await issues({ text: '   ' })).toEqual([{ message: 'text must not be empty', path: ['body', 'text'] }]);
      expect(await issues({ text: 'x'.repeat(2001) })).toEqual([{ message: 'text must be at most 2000 characters', path: ['body', 'text'] }]);
      expect(await issues({ text: 'Hi', inboxId: 'five' })).toEqual([{ message: 'must be a digit string', path: ['body', 'inboxId'] }]);
      expect(await issues({ text: 'Hi', channel: 'photo' })).toEqual([{ message: 'Unrecognized key: "channel"', path: ['body', 'channel'] }]);
      expect((await send(c.contact, { text: 'x'.repeat(2000) })).status).toBe(201);
    });

    it('an unknown contact is 404', async () => {
      const res = await send('424242', { text: 'Hi' });
      expect([res.status, res.body.code]).toEqual([404, 'notFound']);
    });

    it("another workspace's contact is 404 as if it did not exist, for sending, auto-replies and profile refresh; nothing is sent", async () => {
      const b = await t.workspace({ name: 'Bravo sends' });
      const theirs = await messagingContact(t, b);
      const unknown = await send('424242', { text: 'Hi' });
      for (const [path, body] of [[`/v1/contacts/${theirs.contact}/messages`, { text: 'Hi', inboxId: String(theirs.inbox) }], [`/v1/contacts/${theirs.contact}/auto-replies`, {}], [`/v1/contacts/${theirs.contact}/refresh-profile`, undefined]] as const) {
        const res = await t.request('POST', path, { token: ws.developerToken, ...(body === undefined ? {} : { body }) });
        expect([res.status, res.body.code, res.body.message]).toEqual([404, 'notFound', unknown.body.message]);
      }
      expect(await outboxMessages(t, b, theirs.contact)).toEqual([]);
      expect(await t.db.selectFrom('messages').select('id').where('contact_id', '=', theirs.contact).execute()).toEqual([]);
    });
  });

  describe('auto-replies', () => {
    it("sends the workspace's default reply like a message (the body may be left out)", async () => {
      const c = await messagingContact(t, ws);
      const res = await t.request('POST', `/v1/contacts/${c.contact}/auto-replies`, { token: ws.developerToken });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ direction: 'outgoing', status: 'sent', text: 'Thanks for your message! We will get back to you shortly.', inboxId: String(c.inbox) });
      expect(res.headers.get('location')).toBe(`/v1/contacts/${c.contact}/messages/${res.body.id}`);
      const [entry] = await outboxMessages(t, ws, c.contact);
      expect(entry.payload).toEqual({ type: 'text', text: 'Thanks for your message! We will get back to you shortly.' });
    });

    it('takes inboxId, and obeys the window as sends do', async () => {
      const open = await messagingContact(t, ws);
      const closed = await messagingContact(t, ws, { contactId: open.contact, repliedAt: ago(30 * HOUR), lastActivityAt: ago(60_000) });
      const refused = await t.request('POST', `/v1/contacts/${open.contact}/auto-replies`, { token: ws.developerToken, body: { inboxId: String(closed.inbox) } });
      expect(refused.body.data).toMatchObject({ reason: 'windowClosed', inboxId: String(closed.inbox) });
      const sent = await t.request('POST', `/v1/contacts/${open.contact}/auto-replies`, { token: ws.developerToken, body: { inboxId: String(open.inbox) } });
      expect([sent.status, sent.body.inboxId]).toEqual([201, String(open.inbox)]);
    });

    it('without a default reply: 422 validation, nothing sent', async () => {
      const other = await t.workspace({ name: 'No default reply' });
      await t.db.updateTable('workspaces').set({ default_reply: '  ' }).where('id', '=', other.id).execute();
      const c = await messagingContact(t, other);
      const res = await t.request('POST', `/v1/contacts/${c.contact}/auto-replies`, { token: other.developerToken, body: {} });
      expect([res.status, res.body.code, res.body.data]).toEqual([422, 'validation', { field: 'defaultReply', reason: 'notSet', detail: expect.any(String) }]);
      expect(await outboxMessages(t, other, c.contact)).toEqual([]);
    });
  });

  describe('refresh-profile (sandbox profiles)', () => {
    it("sets first and last name and avatar from the profile of the contact's most recent network membership", async () => {
      const c = await messagingContact(t, ws);
      await upsertSandboxRecord(t.db, ws.id, 'profile', c.personId!, { firstName: 'Augusta', lastName: 'King', name: 'Augusta Ada King', username: 'ada', avatarUrl: 'https://cdn.example/ada.jpg' });
      const res = await t.request('POST', `/v1/contacts/${c.contact}/refresh-profile`, { token: ws.developerToken });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: String(c.contact), firstName: 'Augusta', lastName: 'King', fullName: 'Augusta King', avatar: 'https://cdn.example/ada.jpg' });
      expect(res.body).toEqual((await t.request('GET', `/v1/contacts/${c.contact}`, { token: ws.developerToken })).body);
      // Searchable by the new name.
      const found = await t.request('GET', `/v1/contacts?keyword=Augusta`, { token: ws.developerToken });
      expect(found.body.data.map((x: { id: string }) => x.id)).toContain(String(c.contact));
    });

    it('a profile with only a display name splits it; fields the profile leaves out are kept', async () => {
      const c = await messagingContact(t, ws);
      await t.db.updateTable('contacts').set({ avatar: 'https://old.example/a.png' }).where('id', '=', c.contact).execute();
      await upsertSandboxRecord(t.db, ws.id, 'profile', c.personId!, { firstName: null, lastName: null, name: 'Grace Brewster Hopper', username: null, avatarUrl: null });
      const res = await t.request('POST', `/v1/contacts/${c.contact}/refresh-profile`, { token: ws.developerToken });
      expect(res.body).toMatchObject({ firstName: 'Grace', lastName: 'Brewster Hopper', avatar: 'https://old.example/a.png' });
    });

    it('no profile on the network: 422 profileNotFound; no network id: 422 noNetworkId; the contact unchanged', async () => {
      const c = await messagingContact(t, ws);
      const res = await t.request('POST', `/v1/contacts/${c.contact}/refresh-profile`, { token: ws.developerToken });
      expect([res.status, res.body.code, res.body.data.reason]).toEqual([422, 'validation', 'profileNotFound']);
      const noId = await messagingContact(t, ws, { personId: null });
      const none = await t.request('POST', `/v1/contacts/${noId.contact}/refresh-profile`, { token: ws.developerToken });
      expect([none.status, none.body.data.reason]).toEqual([422, 'noNetworkId']);
      expect((await t.request('GET', `/v1/contacts/${c.contact}`, { token: ws.developerToken })).body.firstName).toBe('Ada');
    });
  });
});

describe(`sending through the Graph API adapter (a local server plays the network) on ${testEngine}`, () => {
  const network = new FakeGraphApi();
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    await network.start();
    t = await createTestApp({ ...unlimited, CHANNEL_ADAPTER: 'http', GRAPH_API_BASE_URL: network.url, GRAPH_API_ACCESS_TOKEN: 'EAAtest-token' });
    ws = await t.workspace();
  });
  beforeEach(() => network.reset());
  afterAll(async () => {
    await t?.close();
    await network.stop();
  });

  const errorLogs = async () => (await t.request('GET', '/v1/error-logs', { token: ws.developerToken })).body.data;
  const storedOf = async (contact: number) => (await t.request('GET', `/v1/contacts/${contact}/messages`, { token: ws.developerToken })).body.data;

  it("stores the network's message id", async () => {
    const c = await messagingContact(t, ws);
    network.answer({ status: 200, json: { recipient_id: c.personId, message_id: 'm_AAA1' } });
    const res = await t.request('POST', `/v1/contacts/${c.contact}/messages`, { token: ws.developerToken, body: { text: 'Shipped!' } });
    expect([res.status, res.body.externalId, res.body.status]).toEqual([201, 'm_AAA1', 'sent']);
    expect(network.seen).toEqual([
      { method: 'POST', url: `/v21.0/${encodeURIComponent(c.accountId)}/messages`, body: { recipient: { id: c.personId }, messaging_type: 'RESPONSE', message: { text: 'Shipped!' } } },
    ]);
  });

  it("the network's window refusal: 422 validation windowClosed, a failed message and an error log, no messageSent", async () => {
    const c = await messagingContact(t, ws);
    const events = recordedEvents(t.db, ws.id);
    await events.next();
    network.answer(FakeGraphApi.error(400, 'This message is sent outside of allowed window.', 10, 2018278));
    const res = await t.request('POST', `/v1/contacts/${c.contact}/messages`, { token: ws.developerToken, body: { text: 'Late' } });
    expect(await events.next()).toEqual([]);
    const [stored] = await storedOf(c.contact);
    expect([res.status, res.body.code]).toEqual([422, 'validation']);
    expect(res.body.data).toEqual({
      field: 'inboxId',
      reason: 'windowClosed',
      inboxId: String(c.inbox),
      providerMessage: 'This message is sent outside of allowed window.',
      messageId: stored.id,
      detail: 'The network refused the message: This message is sent outside of allowed window.',
    });
    expect(stored).toMatchObject({ direction: 'outgoing', status: 'failed', externalId: null, text: 'Late', error: 'This message is sent outside of allowed window.' });
    expect((await errorLogs())[0]).toMatchObject({ contactId: String(c.contact), action: 'photo', detail: 'This message is sent outside of allowed window.', httpCode: '400' });
    // A failed send is not the workspace replying.
    expect((await t.request('GET', `/v1/conversations/${c.conversation}`, { token: ws.developerToken })).body.adminRepliedAt).toBeNull();
  });

  it.each([
    ['an expired token', FakeGraphApi.error(401, 'Error validating access token: Session has expired.', 190), 'tokenExpired', '401', false],
    ['a rate limit', FakeGraphApi.error(400, 'Application request limit reached', 4), 'rateLimited', '400', true],
    ['a network failure', FakeGraphApi.error(500, 'An unknown error has occurred.', 1), 'unavailable', '500', true],
  ])("%s: 400 businessError with the provider's words, a failed message and an error log", async (_name, answer, reason, httpCode, retryable) => {
    const c = await messagingContact(t, ws);
    network.answer(answer);
    const res = await t.request('POST', `/v1/contacts/${c.contact}/messages`, { token: ws.developerToken, body: { text: 'Hello' } });
    const message = (answer.json as { error: { message: string } }).error.message;
    const [stored] = await storedOf(c.contact);
    expect(res.body).toEqual({
      defined: true,
      code: 'businessError',
      status: 400,
      message: 'An error occurred while processing your request',
      data: { reason, providerMessage: message, httpCode: Number(httpCode), retryable, messageId: stored.id },
    });
    expect(stored).toMatchObject({ status: 'failed', error: message });
    expect((await errorLogs())[0]).toMatchObject({ contactId: String(c.contact), action: 'photo', detail: message, httpCode });
  });

  it('refresh-profile: the network profile (photo: name, username, picture); a refusal is an error log and businessError', async () => {
    const c = await messagingContact(t, ws);
    network.answer({ status: 200, json: { id: c.personId, name: 'Ada Lovelace', username: 'ada', profile_pic: 'https://cdn.example/p.jpg' } });
    const res = await t.request('POST', `/v1/contacts/${c.contact}/refresh-profile`, { token: ws.developerToken });
    expect(res.body).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', avatar: 'https://cdn.example/p.jpg' });
    expect(network.seen[0]).toMatchObject({ method: 'GET', url: `/v21.0/${c.personId}?fields=name,username,profile_pic` });
    network.answer(FakeGraphApi.error(401, 'Error validating access token: Session has expired.', 190));
    const failed = await t.request('POST', `/v1/contacts/${c.contact}/refresh-profile`, { token: ws.developerToken });
    expect([failed.status, failed.body.code, failed.body.data.reason, failed.body.data.providerMessage]).toEqual([400, 'businessError', 'tokenExpired', 'Error validating access token: Session has expired.']);
    expect((await errorLogs())[0]).toMatchObject({ contactId: String(c.contact), action: 'photo', httpCode: '401' });
    network.answer(FakeGraphApi.error(404, 'Unsupported get request.', 100, 33));
    const missing = await t.request('POST', `/v1/contacts/${c.contact}/refresh-profile`, { token: ws.developerToken });
    expect([missing.status, missing.body.data.reason]).toEqual([422, 'profileNotFound']);
  });
});
