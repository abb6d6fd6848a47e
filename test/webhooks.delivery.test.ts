import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import { eventBodySchemas, eventNames, eventTypes, sourceRequiredTypes, unsentTypes, type EventType } from '../src/domain/workspace-events/workspace-event.schema.js';
import { deliver, unique } from './support/comment-engine.js';
import { unlimited } from './support/endpoints.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { fixtures } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';
import { isoNow } from './support/rest.js';
import { webhookApi } from './support/webhook-api.js';
import { startReceiver, verified, verifies, type Receiver } from './support/webhook-receiver.js';

/**
 * Outbound webhooks end to end: a change made through the API (a tag applied to a contact) is
 * recorded as an event, fanned out by the engine running in process, signed (Standard Webhooks) and
 * POSTed to a receiver on 127.0.0.1 (allowed through OUTBOUND_ALLOWED_HOSTS). The receiver verifies
 * each request with the `standardwebhooks` package, as a customer's endpoint would. Conditions
 * filter by type and source; workspaces never see each other's events; the test ping; the secret
 * rotation; and the sender's own address guard for a URL that points somewhere private now.
 */
describe('webhooks: delivery', () => {
  let t: EngineTestApp;
  let receiver: Receiver;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let api: ReturnType<typeof webhookApi>;
  let theirApi: ReturnType<typeof webhookApi>;
  const tag = { vip: 0, lead: 0, theirs: 0 };
  let serial = 0;
  let newContact: () => Promise<number>;
  let newTheirContact: () => Promise<number>;
  /** A path of its own for each webhook, so tests share one receiver. */
  const path = () => `/hooks/${++serial}`;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createEngineTestApp({ ...unlimited, OUTBOUND_ALLOWED_HOSTS: receiver.host, WEBHOOK_RETRY_SCHEDULE: '0,0.05', EVENTS_POLL_MS: '50' });
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    api = webhookApi(t, ws);
    theirApi = webhookApi(t, other);
    const f = fixtures(t.db, ws.id);
    const theirs = fixtures(t.db, other.id);
    tag.vip = await f.tag('VIP');
    tag.lead = await f.tag('Lead');
    tag.theirs = await theirs.tag('Theirs');
    newContact = () => f.contact({ email: `c${++serial}@example.com` });
    newTheirContact = () => theirs.contact({ email: `theirs${++serial}@example.com` });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('a tag applied through the API reaches the receiver: the flat body, signed, webhook-id the event id, one successful attempt', async () => {
    const at = path();
    const hook = await api.create(receiver.url(at), [{ type: 'tagApplied', sourceId: String(tag.vip) }], 'n8n: tagApplied');
    const contact = await newContact();
    const before = Math.floor(Date.now() / 1000);
    await api.tagContact(contact, tag.vip);

    const [request] = await receiver.waitFor(at, 1);
    expect(request!.method).toBe('POST');
    const body = JSON.parse(request!.body);
    expect(body).toEqual({ event: 'tag_applied', contact_id: String(contact), timestamp: isoNow(), tag: 'VIP' });
    // The receiver's own library accepts it, with this webhook's secret and no other.
    expect(verified(hook.secret, request!)).toEqual(body);
    const otherHook = await api.create(receiver.url(path()), [{ type: 'newContact' }]);
    expect(verifies(otherHook.secret, request!)).toBe(false);
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'messaging-api-webhooks',
      'content-length': String(Buffer.byteLength(request!.body)),
      'webhook-id': expect.stringMatching(/^\d+$/),
      'webhook-timestamp': expect.stringMatching(/^\d+$/),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(Number(request!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(Number(request!.headers['webhook-timestamp'])).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));

    // webhook-id is the recorded event's id; the body is the event's, byte for byte.
    const events = await t.db.selectFrom('workspace_events').select(['id', 'type', 'contact_id', 'body']).where('workspace_id', '=', ws.id).where('contact_id', '=', contact).execute();
    expect(events).toEqual([{ id: Number(request!.headers['webhook-id']), type: 'tagApplied', contact_id: contact, body: request!.body }]);
    const delivery = await api.waitForDelivery(hook.id, (d) => d.status === 'succeeded');
    expect(delivery).toEqual({
      id: expect.stringMatching(/^\d+$/),
      webhookId: hook.id,
      eventId: request!.headers['webhook-id'],
      event: 'tag_applied',
      status: 'succeeded',
      attempts: [{ attemptedAt: isoNow(), durationMs: expect.any(Number), statusCode: 200, error: null, responseExcerpt: '{"ok":true}' }],
      nextAttemptAt: null,
      createdAt: isoNow(),
      updatedAt: isoNow(),
    });
    expect(delivery.attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(receiver.to(at)).toHaveLength(1);
  });

  it('every type that fires, caused once each through the API and the engine, reaches a webhook with a condition on each: the exact body, signed, once', async () => {
    const all = await t.workspace({ name: 'Every type' });
    const allApi = webhookApi(t, all);
    const f = fixtures(t.db, all.id);
    const owner = String(all.created.owner.id);
    const vip = await f.tag('VIP');
    const welcome = await f.sequence('Welcome');
    await f.customField('Plan');
    const agent = String(await f.user('Ann Agent', 'ann@company.example'));
    const unsent: readonly EventType[] = unsentTypes;
    const firing = eventTypes.filter((type) => !unsent.includes(type));
    const needsSource: readonly EventType[] = sourceRequiredTypes;
    const at = path();
    const hook = await allApi.create(receiver.url(at), firing.map((type) => (needsSource.includes(type) ? { type, sourceId: String(welcome) } : { type })));

    const call = async (method: string, url: string, body?: unknown, token = all.developerToken) => {
      const res = await t.request(method, url, { token, body });
      expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
      return res.body;
    };
    /** What each change should send, in the order the changes are made (event ids grow in that order). */
    const expected: { type: EventType; body: Record<string, unknown> }[] = [];
    const expectEvent = (type: EventType, contact: number, fields: Record<string, unknown>) =>
      expected.push({ type, body: { event: eventNames[type], contact_id: String(contact), timestamp: isoNow(), ...fields } });

    const contact = Number((await call('POST', '/v1/contacts', { email: 'ada@example.com', phoneNumber: '+14155550123', firstName: 'Ada', lastName: 'Lovelace' })).id);
    expectEvent('newContact', contact, { name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', phone: '+14155550123', email: 'ada@example.com', custom_fields: {} });
    await call('PATCH', `/v1/contacts/${contact}`, { firstName: 'Augusta' });
    expectEvent('contactInfoUpdated', contact, { info_type: 'first_name', old_value: 'Ada', new_value: 'Augusta' });
    await call('PATCH', `/v1/contacts/${contact}`, { emailOptIn: true });
    await call('PATCH', `/v1/contacts/${contact}`, { emailOptIn: false });
    expectEvent('contactUnsubscribedFormBroadcast', contact, {});
    await call('POST', `/v1/contacts/${contact}/tags`, { tagIds: [String(vip)] });
    expectEvent('tagApplied', contact, { tag: 'VIP' });
    await call('DELETE', `/v1/contacts/${contact}/tags`, { tagIds: [String(vip)] });
    expectEvent('tagRemoved', contact, { tag: 'VIP' });
    await call('PUT', `/v1/contacts/${contact}/custom-fields/Plan`, { value: 'pro' });
    expectEvent('customFieldValueChanged', contact, { custom_field: { name: 'Plan', old_value: null, new_value: 'pro' } });
    await call('POST', `/v1/contacts/${contact}/sequences`, { sequenceIds: [String(welcome)] });
    expectEvent('subscribedToSequence', contact, { sequence_id: String(welcome), sequence_name: 'Welcome' });
    await call('DELETE', `/v1/contacts/${contact}/sequences`, { sequenceIds: [String(welcome)] });
    expectEvent('unsubscribedFromSequence', contact, { sequence_id: String(welcome), sequence_name: 'Welcome' });

    // A conversation the contact wrote in a minute ago: inside the messaging window, so a send goes out.
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const inbox = await f.inbox('Photo out', 'photo');
    await t.db.insertInto('contact_inboxes').values({ workspace_id: all.id, contact_id: contact, inbox_id: inbox, channel: 'photo', source_id: `psid-${unique()}`, created_at: ago(3_600_000) }).execute();
    const conversation = await f.conversation({ contactId: contact, inboxId: inbox, followed: false, botEnabled: true, lastActivityAt: ago(7_200_000), createdAt: ago(172_800_000) });
    await t.db.updateTable('conversations').set({ contact_replied_at: ago(60_000) }).where('id', '=', conversation).execute();
    const sent = await call('POST', `/v1/contacts/${contact}/messages`, { text: 'We do!', inboxId: String(inbox) });
    expectEvent('messageSent', contact, { message_id: sent.id, conversation_id: String(conversation), inbox_id: String(inbox), text: 'We do!', attachments: [] });
    const conversationCall = (verb: string, body?: unknown, token?: string) => call('POST', `/v1/conversations/${conversation}/${verb}`, body, token);
    const about = { conversation_id: String(conversation) };
    await conversationCall('disable-bot', { resumeAt: '2099-01-01T09:00:00.000Z' }, all.userToken);
    expectEvent('conversationTransferredToHuman', contact, { ...about, transferred_by: owner });
    await conversationCall('enable-bot');
    expectEvent('conversationTransferredToBot', contact, { ...about, transferred_by: null });
    await conversationCall('follow', undefined, all.userToken);
    expectEvent('followUp', contact, { ...about, marked_by: owner });
    await conversationCall('assign', { userId: agent }, all.userToken);
    expectEvent('conversationAssigned', contact, { ...about, assigned_to: agent, assigned_by: owner });
    await conversationCall('assign', { userId: null });
    expectEvent('conversationUnassigned', contact, { ...about, assigned_to: agent, unassigned_by: null });
    await conversationCall('archive', undefined, all.userToken);
    expectEvent('archived', contact, { ...about, archived_by: owner });

    // The engine: a new person writes in (newContact with the profile's names, then messageReceived).
    const account = `1784${unique()}`;
    const photo = await f.inbox('Photo in', 'photo');
    await t.db.updateTable('inboxes').set({ source_id: account }).where('id', '=', photo).execute();
    const sender = `ig-${unique()}`;
    await upsertSandboxRecord(t.db, all.id, 'profile', sender, { firstName: 'Grace', lastName: 'Hopper', name: 'Grace Hopper', username: 'grace', avatarUrl: 'https://cdn.example/grace.jpg' });
    const mid = `mid-${unique()}`;
    await deliver(t, 'photo', { object: 'instagram', entry: [{ id: account, time: Math.floor(Date.now() / 1000), messaging: [{ sender: { id: sender }, recipient: { id: account }, timestamp: Date.now(), message: { mid, text: 'Hi' } }] }] });
    const received = await t.db.selectFrom('messages').select(['id', 'contact_id', 'conversation_id']).where('external_id', '=', mid).executeTakeFirstOrThrow();
    const writer = Number(received.contact_id);
    expectEvent('newContact', writer, { name: 'Grace Hopper', first_name: 'Grace', last_name: 'Hopper', phone: null, email: null, custom_fields: {} });
    expectEvent('messageReceived', writer, { message_id: String(received.id), conversation_id: String(received.conversation_id), inbox_id: String(photo), text: 'Hi', attachments: [] });

    expect(new Set(expected.map((e) => e.type))).toEqual(new Set(firing));
    await receiver.waitFor(at, expected.length);
    await allApi.waitForSettled(hook.id, expected.length);
    const requests = [...receiver.to(at)].sort((a, b) => Number(a.headers['webhook-id']) - Number(b.headers['webhook-id']));
    expect(requests).toHaveLength(expected.length);
    expect(requests.map((r) => JSON.parse(r.body))).toEqual(expected.map((e) => e.body));
    const events = await t.db.selectFrom('workspace_events').select(['id', 'type', 'body']).where('workspace_id', '=', all.id).orderBy('id').execute();
    expect(events.map((e) => e.type)).toEqual(expected.map((e) => e.type));
    requests.forEach((r, i) => {
      const type = expected[i]!.type;
      expect(verified(hook.secret, r), type).toEqual(JSON.parse(r.body));
      expect(r.headers['webhook-id'], type).toBe(String(events[i]!.id));
      // Byte for byte the recorded body, and exactly the fields the OpenAPI document publishes for the type.
      expect(r.body, type).toBe(events[i]!.body);
      expect(eventBodySchemas[type].safeParse(JSON.parse(r.body)).error?.issues, type).toBeUndefined();
    });
  }, 60_000);

  it("conditions filter by type and source: another tag's sourceId does not fire, a condition without one fires for every tag", async () => {
    const vipOnly = path();
    const leadOnly = path();
    const anyTag = path();
    const removed = path();
    const vipHook = await api.create(receiver.url(vipOnly), [{ type: 'tagApplied', sourceId: String(tag.vip) }]);
    const leadHook = await api.create(receiver.url(leadOnly), [{ type: 'tagApplied', sourceId: String(tag.lead) }]);
    const anyHook = await api.create(receiver.url(anyTag), [{ type: 'tagApplied' }]);
    const removedHook = await api.create(receiver.url(removed), [{ type: 'tagRemoved', sourceId: String(tag.vip) }]);

    const contact = await newContact();
    await api.tagContact(contact, tag.vip);
    // The fan-out makes every delivery of an event in one transaction: once two have arrived,
    // the others that would exist do.
    const [vipRequest] = await receiver.waitFor(vipOnly, 1);
    const [anyRequest] = await receiver.waitFor(anyTag, 1);
    expect(anyRequest!.headers['webhook-id']).toBe(vipRequest!.headers['webhook-id']);
    expect(await api.deliveries(leadHook.id)).toEqual([]);
    expect(await api.deliveries(removedHook.id)).toEqual([]);

    // Applying a tag the contact already has records nothing; removing it fires tagRemoved only.
    await api.tagContact(contact, tag.vip);
    const res = await api.call('DELETE', `/v1/contacts/${contact}/tags`, { tagIds: [String(tag.vip)] });
    expect(res.status).toBe(200);
    const [removal] = await receiver.waitFor(removed, 1);
    expect(JSON.parse(removal!.body)).toEqual({ event: 'tag_removed', contact_id: String(contact), timestamp: isoNow(), tag: 'VIP' });
    expect(verifies(removedHook.secret, removal!)).toBe(true);

    await api.tagContact(contact, tag.lead);
    await receiver.waitFor(leadOnly, 1);
    await receiver.waitFor(anyTag, 2);
    await api.waitForSettled(anyHook.id, 2);
    expect(receiver.to(vipOnly)).toHaveLength(1);
    expect((await api.deliveries(vipHook.id)).map((d) => d.status)).toEqual(['succeeded']);
    expect(receiver.to(anyTag).map((r) => JSON.parse(r.body).tag)).toEqual(['VIP', 'Lead']);
  });

  it("workspace isolation: B's webhook never gets A's events, and A's never gets B's", async () => {
    const mine = path();
    const theirs = path();
    const myHook = await api.create(receiver.url(mine), [{ type: 'tagApplied' }]);
    const theirHook = await theirApi.create(receiver.url(theirs), [{ type: 'tagApplied' }]);

    const contact = await newContact();
    await api.tagContact(contact, tag.vip);
    const [myRequest] = await receiver.waitFor(mine, 1);
    expect(JSON.parse(myRequest!.body).contact_id).toBe(String(contact));
    expect(await theirApi.deliveries(theirHook.id)).toEqual([]);

    const theirContact = await newTheirContact();
    await theirApi.tagContact(theirContact, tag.theirs);
    const [theirRequest] = await receiver.waitFor(theirs, 1);
    expect(JSON.parse(theirRequest!.body)).toEqual({ event: 'tag_applied', contact_id: String(theirContact), timestamp: isoNow(), tag: 'Theirs' });
    expect(verifies(theirHook.secret, theirRequest!)).toBe(true);
    expect(verifies(myHook.secret, theirRequest!)).toBe(false);
    await theirApi.waitForSettled(theirHook.id, 1);
    await api.waitForSettled(myHook.id, 1);
    expect(receiver.to(mine)).toHaveLength(1);
    expect(receiver.to(theirs)).toHaveLength(1);
    // Neither token reaches the other's delivery log.
    expect((await theirApi.call('GET', `/v1/webhooks/${myHook.id}/deliveries`)).status).toBe(404);
    expect((await api.call('GET', `/v1/webhooks/${theirHook.id}/deliveries`)).status).toBe(404);
  });

  it('a disabled webhook gets no deliveries; enabled again, it gets the events from then on', async () => {
    const at = path();
    const hook = await api.create(receiver.url(at), [{ type: 'tagApplied' }]);
    const witness = path();
    await api.create(receiver.url(witness), [{ type: 'tagApplied' }]);
    expect((await api.call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: false })).body).toMatchObject({ enabled: false, disabledReason: null });

    await api.tagContact(await newContact(), tag.vip);
    await receiver.waitFor(witness, 1);
    expect(await api.deliveries(hook.id)).toEqual([]);

    expect((await api.call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true })).body).toMatchObject({ enabled: true });
    const contact = await newContact();
    await api.tagContact(contact, tag.lead);
    const [request] = await receiver.waitFor(at, 1);
    expect(JSON.parse(request!.body)).toMatchObject({ contact_id: String(contact), tag: 'Lead' });
    await receiver.waitFor(witness, 2);
    expect(await api.waitForSettled(hook.id, 1)).toHaveLength(1);
  });

  it('many changes: each event reaches the webhook once, each with its own webhook-id', async () => {
    const at = path();
    const hook = await api.create(receiver.url(at), [{ type: 'tagApplied', sourceId: String(tag.lead) }]);
    const contacts: number[] = [];
    for (let i = 0; i < 20; i++) contacts.push(await newContact());
    for (const c of contacts) await api.tagContact(c, tag.lead);
    const requests = await receiver.waitFor(at, 20);
    await api.waitForSettled(hook.id, 20);
    expect(receiver.to(at)).toHaveLength(20);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(20);
    expect(requests.map((r) => JSON.parse(r.body).contact_id).sort()).toEqual(contacts.map(String).sort());
    for (const r of requests) expect(verifies(hook.secret, r)).toBe(true);
  });

  it('POST /v1/webhooks/{id}/test sends {event: "ping", webhook_id, timestamp}, signed, to that webhook only', async () => {
    const at = path();
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    const bystander = path();
    const bystanderHook = await api.create(receiver.url(bystander), [{ type: 'newContact' }, { type: 'tagApplied' }]);
    await api.ping(hook.id);
    const [request] = await receiver.waitFor(at, 1);
    const body = { event: 'ping', webhook_id: hook.id, timestamp: isoNow() };
    expect(JSON.parse(request!.body)).toEqual(body);
    expect(verified(hook.secret, request!)).toEqual(JSON.parse(request!.body));
    const [delivery] = await api.waitForSettled(hook.id, 1);
    expect(delivery).toMatchObject({ eventId: request!.headers['webhook-id'], event: 'ping', status: 'succeeded', attempts: [{ statusCode: 200, error: null }] });
    expect(await api.deliveries(bystanderHook.id)).toEqual([]);
    expect(receiver.to(bystander)).toEqual([]);
  });

  it('after secret/rotate the receiver verifies with the new secret and with the old one (two v1 signatures), until the old one expires', async () => {
    const at = path();
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    const rotated = await api.call('POST', `/v1/webhooks/${hook.id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    const { secret: newSecret, ...rotatedView } = rotated.body;
    const { secret: oldSecret, ...before } = hook as unknown as Record<string, unknown>;
    expect(rotatedView).toEqual({ ...before, updatedAt: isoNow() });
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newSecret).not.toBe(oldSecret);
    expect((await api.get(hook.id)).secret).toBe(newSecret);

    await api.ping(hook.id);
    const [request] = await receiver.waitFor(at, 1);
    const signatures = request!.headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    for (const s of signatures) expect(s).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifies(newSecret, request!)).toBe(true);
    expect(verifies(oldSecret as string, request!)).toBe(true);

    // A second rotation: the first secret no longer signs; the one it replaced does, for 24 h.
    const again = (await api.call('POST', `/v1/webhooks/${hook.id}/secret/rotate`)).body.secret as string;
    await api.ping(hook.id);
    const [, second] = await receiver.waitFor(at, 2);
    expect(second!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifies(again, second!)).toBe(true);
    expect(verifies(newSecret, second!)).toBe(true);
    expect(verifies(oldSecret as string, second!)).toBe(false);

    // Past its 24 hours the previous secret stops signing.
    await t.db.updateTable('webhooks').set({ previous_secret_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', Number(hook.id)).execute();
    await api.ping(hook.id);
    const [, , third] = await receiver.waitFor(at, 3);
    expect(third!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(again, third!)).toBe(true);
    expect(verifies(newSecret, third!)).toBe(false);
  });

  it('the sender checks the address again: a URL that points at a private address now is refused without a connection, as an attempt with the reason', async () => {
    // As if the stored URL's host name had come to resolve to loopback: localhost resolves to it,
    // and an IPv4-mapped spelling of the receiver's address is not the allowed host:port.
    for (const url of [`http://localhost:${receiver.port}/guarded`, `http://[::ffff:127.0.0.1]:${receiver.port}/guarded`]) {
      const hook = await api.create(receiver.url('/never'), [{ type: 'newContact' }]);
      await t.db.updateTable('webhooks').set({ url }).where('id', '=', Number(hook.id)).execute();
      await api.ping(hook.id);
      const [delivery] = await api.waitForSettled(hook.id, 1);
      expect(delivery!.status, url).toBe('failed');
      expect(delivery!.attempts, url).toHaveLength(2);
      for (const attempt of delivery!.attempts) {
        expect(attempt, url).toEqual({ attemptedAt: isoNow(), durationMs: expect.any(Number), statusCode: null, error: expect.stringMatching(/is not a public address$/), responseExcerpt: null });
      }
    }
    expect(receiver.to('/guarded')).toEqual([]);
    expect(receiver.to('/never')).toEqual([]);
  });

  it('deleting a webhook deletes its delivery log, and an attempt already due finds it gone and sends nothing', async () => {
    const at = path();
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    // The attempt is due but no worker runs until the webhook is gone.
    await t.stopWorkers();
    try {
      await api.ping(hook.id);
      expect(await api.deliveries(hook.id)).toMatchObject([{ status: 'pending', attempts: [] }]);
      expect((await api.call('DELETE', `/v1/webhooks/${hook.id}`)).status).toBe(204);
      expect(await t.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', Number(hook.id)).execute()).toEqual([]);
    } finally {
      await t.startWorkers();
    }
    await t.settle();
    expect((await t.jobs()).filter((j) => j.task === 'webhooks.deliver' && !j.failed && (j.payload as { workspaceId: number }).workspaceId === ws.id)).toEqual([]);
    expect(receiver.to(at)).toEqual([]);
  });
});

/**
 * The signing secrets are answered to their owner and written nowhere else: with the server's
 * logging at its most detailed (debug, the job runner's lines included), creating, reading,
 * rotating and using a webhook (a failed attempt and its retry, a delivery, the test ping, GraphQL)
 * leaves no secret in any log line.
 */
describe('webhooks: the secret stays out of the logs', () => {
  let t: EngineTestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createEngineTestApp({ ...unlimited, LOG_LEVEL: 'debug', OUTBOUND_ALLOWED_HOSTS: receiver.host, WEBHOOK_RETRY_SCHEDULE: '0,0.05', EVENTS_POLL_MS: '50' }, { captureLogs: true });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('create, read, rotate, deliver (a failure, its retry, a ping) and the GraphQL fields: no log line holds a whsec_ secret or its key', async () => {
    const ws = await t.workspace();
    const api = webhookApi(t, ws);
    // The first answer fails, so a failed attempt and its retry are logged too.
    receiver.answer('/logged', (_request, nth) => (nth === 1 ? { status: 500, body: 'try again' } : { status: 200, body: '{"ok":true}' }));
    const hook = await api.create(receiver.url('/logged'), [{ type: 'tagApplied' }]);
    const secrets = [hook.secret];
    expect((await api.get(hook.id)).secret).toBe(hook.secret);
    const rotated = await api.call('POST', `/v1/webhooks/${hook.id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.secret);
    const read = await t.graphql('query($id: ID!) { webhook(id: $id) { secret } }', { id: hook.id }, { token: ws.developerToken });
    expect(read.body).toEqual({ data: { webhook: { secret: rotated.body.secret } } });
    const again = await t.graphql('mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: hook.id }, { token: ws.developerToken });
    secrets.push(again.body.data.rotateWebhookSecret.secret);

    const tag = await fixtures(t.db, ws.id).tag('VIP');
    await api.tagContact(await fixtures(t.db, ws.id).contact({ email: 'logged@example.com' }), tag);
    await api.ping(hook.id);
    const delivered = await api.waitForSettled(hook.id, 2);
    expect(delivered.map((d) => d.attempts.map((a) => a.statusCode))).toEqual(expect.arrayContaining([[500, 200]]));
    for (const r of receiver.to('/logged')) expect(verifies(secrets.at(-1)!, r)).toBe(true);
    expect(secrets.every((s) => /^whsec_[A-Za-z0-9+/]{43}=$/.test(s))).toBe(true);

    const lines = t.logs.map((line) => JSON.stringify(line));
    // The logs did see the calls that answer a secret.
    expect(lines.some((l) => l.includes('/v1/webhooks/{id}/secret/rotate'))).toBe(true);
    expect(lines.some((l) => l.includes('"route":"/graphql"'))).toBe(true);
    expect(lines.filter((l) => l.includes('whsec_'))).toEqual([]);
    for (const secret of secrets) expect(lines.filter((l) => l.includes(secret.slice('whsec_'.length)))).toEqual([]);
  }, 60_000);
});

