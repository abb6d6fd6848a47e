import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessage } from '../src/domain/messages/message.repository.js';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { T0, fixtures } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';

/**
 * Messaging webhooks end to end: a signed `messaging` event is stored with its job, the engine
 * stores the message on the sender's contact's conversation (the contact and its contact inbox
 * made the first time), moves contactRepliedAt and lastActivityAt and leaves it unread; read and
 * postback receipts mark outgoing messages seen and clicked once, counted once on the comment
 * automation that sent them. Read through the API.
 */
const ACCOUNT = '17841400000000001';
const PAGE = '102030405060708';
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe(`messaging events on ${testEngine}`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let photoInbox: number;
  let netInbox: number;
  let serial = 0;

  const inbox = async (workspaceId: number, channel: 'photo' | 'net', sourceId: string) =>
    (await t.db.insertInto('inboxes').values({ workspace_id: workspaceId, name: `${channel} ${sourceId}`, channel, source_id: sourceId, status: 'active', created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow()).id;

  const messaging = (object: 'instagram' | 'page', account: string, items: unknown[]) => ({ object, entry: [{ id: account, time: seconds(new Date().toISOString()), messaging: items }] });
  const message = (sender: string, mid: string, text: string | null, at = new Date(), extra: Record<string, unknown> = {}) => ({
    sender: { id: sender },
    recipient: { id: ACCOUNT },
    timestamp: at.getTime(),
    message: { mid, ...(text !== null && { text }), ...extra },
  });
  const deliver = async (channel: 'photo' | 'net', body: unknown) => {
    const res = await t.webhook(channel, body);
    expect(res.status).toBe(200);
    await t.settle();
    return res.body;
  };
  const contactOf = async (workspaceId: number, inboxId: number, sourceId: string) =>
    (await t.db.selectFrom('contact_inboxes').select('contact_id').where('workspace_id', '=', workspaceId).where('inbox_id', '=', inboxId).where('source_id', '=', sourceId).executeTakeFirst())?.contact_id ?? null;
  const api = (path: string, token = ws.developerToken) => t.request('GET', path, { token });
  const person = () => `ig-user-${++serial}`;

  beforeAll(async () => {
    t = await createEngineTestApp();
    ws = await t.workspace({ developmentMode: true });
    other = await t.workspace({ name: 'Other' });
    photoInbox = await inbox(ws.id, 'photo', ACCOUNT);
    netInbox = await inbox(ws.id, 'net', PAGE);
  });
  afterAll(() => t?.close());

  describe('an incoming message', () => {
    it('a time far in the future (a broken or hostile sender) is taken as now: no 500, and the messaging window is not held open', async () => {
      const sender = person();
      const before = Date.now();
      // 8.7e15 ms is past the last date JavaScript can hold; 9e10 s is the year 4821.
      const res = await deliver('photo', messaging('instagram', ACCOUNT, [{ ...message(sender, 'mid-future-1', 'hello'), timestamp: 8_700_000_000_000_000 }, { ...message(sender, 'mid-future-2', 'again'), timestamp: 90_000_000_000 }]));
      expect(res).toMatchObject({ received: 2, stored: 2 });
      const contactId = await contactOf(ws.id, photoInbox, sender);
      const times = (await api(`/v1/contacts/${contactId}/messages`)).body.data.map((m: { createdAt: string }) => Date.parse(m.createdAt));
      expect(times).toHaveLength(2);
      for (const at of times) {
        expect(at).toBeGreaterThanOrEqual(before);
        expect(at).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
      }
    });

    it('makes the contact (its contact inbox knows the network id) and stores the message on its conversation, which reads as unread', async () => {
      const sender = person();
      const at = new Date(Date.now() - 5_000);
      const res = await deliver('photo', messaging('instagram', ACCOUNT, [message(sender, 'mid-a1', 'Do you ship to Lisbon?', at, { attachments: [{ type: 'image', payload: { url: 'https://cdn.example/i.jpg' } }] })]));
      expect(res).toMatchObject({ received: 1, stored: 1, duplicates: 0 });
      const contactId = await contactOf(ws.id, photoInbox, sender);
      expect(contactId).not.toBeNull();
      const contact = (await api(`/v1/contacts/${contactId}`)).body;
      expect(contact).toMatchObject({ firstName: null, lastName: null, contactInboxes: [{ inboxId: String(photoInbox), channel: 'photo' }] });
      const messages = (await api(`/v1/contacts/${contactId}/messages`)).body;
      const [conversation] = (await api(`/v1/conversations?inboxId=${photoInbox}&limit=50`)).body.data.filter((c: { contactId: string }) => c.contactId === String(contactId));
      expect(messages).toEqual({
        data: [
          {
            id: expect.stringMatching(/^\d+$/),
            contactId: String(contactId),
            conversationId: conversation.id,
            inboxId: String(photoInbox),
            direction: 'incoming',
            externalId: 'mid-a1',
            text: 'Do you ship to Lisbon?',
            attachments: [{ type: 'image', url: 'https://cdn.example/i.jpg' }],
            status: 'received',
            error: null,
            automationKind: null,
            automationId: null,
            seenAt: null,
            clickedAt: null,
            createdAt: at.toISOString(),
          },
        ],
        nextCursor: null,
        prevCursor: null,
      });
      expect(conversation).toMatchObject({ contactRepliedAt: at.toISOString(), lastActivityAt: at.toISOString(), agentLastReadAt: null, adminRepliedAt: null });
      // Monthly active: the contact exchanged a message.
      expect((await t.db.selectFrom('contacts').select('last_message_at').where('id', '=', contactId!).executeTakeFirstOrThrow()).last_message_at).toBe(at.toISOString());
    });

    it('a redelivered message is stored once; a later one of the same person joins the same conversation, which an agent had read, and reads as unread again', async () => {
      const sender = person();
      const first = new Date(Date.now() - 60_000);
      const body = messaging('instagram', ACCOUNT, [message(sender, 'mid-b1', 'Hi', first)]);
      await deliver('photo', body);
      expect(await deliver('photo', body)).toMatchObject({ received: 1, stored: 0, duplicates: 1 });
      const contactId = (await contactOf(ws.id, photoInbox, sender))!;
      const conversation = (await t.db.selectFrom('conversations').select('id').where('contact_id', '=', contactId).executeTakeFirstOrThrow()).id;
      const read = (await t.request('POST', `/v1/conversations/${conversation}/read`, { token: ws.developerToken })).body.agentLastReadAt;
      const second = new Date(Date.parse(read) + 1_000);
      await deliver('photo', messaging('instagram', ACCOUNT, [message(sender, 'mid-b2', 'Are you there?', second)]));
      const texts = (await api(`/v1/contacts/${contactId}/messages`)).body.data.map((m: { text: string; conversationId: string }) => [m.text, m.conversationId]);
      expect(texts).toEqual([
        ['Are you there?', String(conversation)],
        ['Hi', String(conversation)],
      ]);
      const after = (await api(`/v1/conversations/${conversation}`)).body;
      // Unread: the contact wrote after the agent last read it.
      expect(after).toMatchObject({ agentLastReadAt: read, contactRepliedAt: second.toISOString(), lastActivityAt: second.toISOString() });
      expect(await t.db.selectFrom('contacts').select('id').where('workspace_id', '=', ws.id).where('id', '=', contactId).execute()).toHaveLength(1);
    });

    it('a new contact is named from the profile the adapter has (dev events with profiles); an old message delivered late moves nothing back', async () => {
      const sender = person();
      const now = new Date();
      const res = await t.request('POST', '/v1/dev/events', {
        token: ws.developerToken,
        body: {
          channel: 'net',
          entry: [{ id: PAGE, messaging: [{ sender: { id: sender }, recipient: { id: PAGE }, timestamp: now.getTime(), message: { mid: 'm_net_1', text: 'Hello page' } }] }],
          profiles: [{ id: sender, firstName: 'Grace', lastName: 'Hopper', name: 'Grace Hopper', avatarUrl: 'https://cdn.example/grace.jpg' }],
        },
      });
      expect(res.status).toBe(202);
      await t.settle();
      const contactId = (await contactOf(ws.id, netInbox, sender))!;
      expect((await api(`/v1/contacts/${contactId}`)).body).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', avatar: 'https://cdn.example/grace.jpg' });
      await deliver('net', { object: 'page', entry: [{ id: PAGE, messaging: [{ sender: { id: sender }, recipient: { id: PAGE }, timestamp: now.getTime() - 3_600_000, message: { mid: 'm_net_0', text: 'Earlier' } }] }] });
      const conversation = (await t.db.selectFrom('conversations').select(['contact_replied_at', 'last_activity_at']).where('contact_id', '=', contactId).executeTakeFirstOrThrow());
      expect(conversation).toEqual({ contact_replied_at: now.toISOString(), last_activity_at: now.toISOString() });
      expect((await api(`/v1/contacts/${contactId}/messages`)).body.data.map((m: { text: string }) => m.text)).toEqual(['Earlier', 'Hello page']);
    });

    it("the account's own messages are not stored as incoming", async () => {
      const before = await t.db.selectFrom('messages').select('id').where('workspace_id', '=', ws.id).execute();
      await deliver('photo', messaging('instagram', ACCOUNT, [message(ACCOUNT, 'mid-own-1', 'Sent from the phone app')]));
      expect(await t.db.selectFrom('messages').select('id').where('workspace_id', '=', ws.id).execute()).toEqual(before);
      expect(await contactOf(ws.id, photoInbox, ACCOUNT)).toBeNull();
      const event = await t.db.selectFrom('channel_events').select('outcome').where('external_id', '=', 'mid-own-1').executeTakeFirstOrThrow();
      expect(event.outcome).toBe('own message: not stored');
    });

    it("a workspace's events never reach another's: the other workspace connecting the same account stores its own copy", async () => {
      const shared = await inbox(other.id, 'photo', ACCOUNT);
      const sender = person();
      await deliver('photo', messaging('instagram', ACCOUNT, [message(sender, 'mid-shared-1', 'Hi both')]));
      const mine = (await contactOf(ws.id, photoInbox, sender))!;
      const theirs = (await contactOf(other.id, shared, sender))!;
      expect(mine).not.toBe(theirs);
      const a = (await api(`/v1/contacts/${mine}/messages`)).body.data;
      const b = (await api(`/v1/contacts/${theirs}/messages`, other.developerToken)).body.data;
      expect([a.length, b.length, a[0].inboxId, b[0].inboxId]).toEqual([1, 1, String(photoInbox), String(shared)]);
      // Neither token reads the other's contact or message.
      expect((await api(`/v1/contacts/${theirs}/messages`)).status).toBe(404);
      expect((await api(`/v1/contacts/${mine}/messages/${a[0].id}`, other.developerToken)).status).toBe(404);
      expect((await api(`/v1/contacts/${theirs}/messages/${a[0].id}`, other.developerToken)).status).toBe(404);
      await t.db.deleteFrom('inboxes').where('id', '=', shared).execute();
    });
  });

  describe('receipts', () => {
    /** A contact who wrote to the photo inbox, and outgoing messages of an automation stored for it, `minutesAgo` each. */
    async function withOutgoing(minutesAgo: number[], automation: { kind: 'comment' | 'leadAd'; id: number } | null) {
      const sender = person();
      await deliver('photo', messaging('instagram', ACCOUNT, [message(sender, `mid-in-${sender}`, 'Hi', new Date(Date.now() - 3_600_000))]));
      const contactId = (await contactOf(ws.id, photoInbox, sender))!;
      const conversationId = (await t.db.selectFrom('conversations').select('id').where('contact_id', '=', contactId).executeTakeFirstOrThrow()).id;
      const ids: number[] = [];
      for (const [i, m] of minutesAgo.entries()) {
        ids.push(
          (await insertMessage(t.db, ws.id, {
            conversationId,
            contactId,
            inboxId: photoInbox,
            direction: 'outgoing',
            externalId: `out-${sender}-${i}`,
            text: `Reply ${i}`,
            status: 'sent',
            automation,
            createdAt: new Date(Date.now() - m * 60_000).toISOString(),
          }))!,
        );
      }
      return { sender, contactId, conversationId, ids };
    }
    const counters = async (id: number) => {
      const a = (await api(`/v1/photo-comments/${id}`)).body;
      return { seenCount: a.seenCount, clickedCount: a.clickedCount };
    };
    const read = (sender: string, read: Record<string, unknown>) => ({ sender: { id: sender }, recipient: { id: ACCOUNT }, timestamp: Date.now(), read });
    const seen = async (contactId: number) =>
      Object.fromEntries((await api(`/v1/contacts/${contactId}/messages?direction=outgoing`)).body.data.map((m: { text: string; seenAt: string | null }) => [m.text, m.seenAt !== null]));

    it('a read watermark marks the outgoing messages sent at or before it, once each, counted once on their automation; contactLastReadAt moves', async () => {
      const automation = await fixtures(t.db, ws.id).commentAutomation('photo', `Seen ${serial}`);
      const c = await withOutgoing([30, 20, 10, 1], { kind: 'comment', id: automation });
      const watermark = Date.now() - 5 * 60_000;
      await deliver('photo', messaging('instagram', ACCOUNT, [read(c.sender, { watermark })]));
      expect(await seen(c.contactId)).toEqual({ 'Reply 0': true, 'Reply 1': true, 'Reply 2': true, 'Reply 3': false });
      expect(await counters(automation)).toEqual({ seenCount: 3, clickedCount: 0 });
      expect((await api(`/v1/conversations/${c.conversationId}`)).body.contactLastReadAt).toBe(new Date(watermark).toISOString());
      // A later watermark marks only what was not seen yet; the same receipt again is a redelivery.
      await deliver('photo', messaging('instagram', ACCOUNT, [read(c.sender, { watermark: Date.now() })]));
      expect(await deliver('photo', messaging('instagram', ACCOUNT, [read(c.sender, { watermark })]))).toMatchObject({ duplicates: 1 });
      expect(await seen(c.contactId)).toEqual({ 'Reply 0': true, 'Reply 1': true, 'Reply 2': true, 'Reply 3': true });
      expect(await counters(automation)).toEqual({ seenCount: 4, clickedCount: 0 });
    });

    it('a read of a named message (photo network) marks it and the earlier ones; receipts arriving together count each message once', async () => {
      const automation = await fixtures(t.db, ws.id).commentAutomation('photo', `Seen mid ${serial}`);
      const c = await withOutgoing([40, 30, 20, 10], { kind: 'comment', id: automation });
      await deliver(
        'photo',
        messaging('instagram', ACCOUNT, [
          read(c.sender, { mid: `out-${c.sender}-2` }),
          read(c.sender, { mid: `out-${c.sender}-1` }),
          read(c.sender, { watermark: Date.now() - 15 * 60_000 }),
          read(c.sender, { watermark: Date.now() - 25 * 60_000 }),
        ]),
      );
      expect(await seen(c.contactId)).toEqual({ 'Reply 0': true, 'Reply 1': true, 'Reply 2': true, 'Reply 3': false });
      expect(await counters(automation)).toEqual({ seenCount: 3, clickedCount: 0 });
    });

    it('a postback clicks the message it names once, counted once; counters stop at the int32 bound; lead-ad messages count nowhere', async () => {
      const automation = await fixtures(t.db, ws.id).commentAutomation('photo', `Clicked ${serial}`);
      const c = await withOutgoing([5], { kind: 'comment', id: automation });
      const postback = (payload: string) => ({ sender: { id: c.sender }, recipient: { id: ACCOUNT }, timestamp: Date.now(), postback: { mid: `out-${c.sender}-0`, title: 'Shop', payload } });
      await deliver('photo', messaging('instagram', ACCOUNT, [postback('SHOP'), postback('SHOP_AGAIN')]));
      const [m] = (await api(`/v1/contacts/${c.contactId}/messages?direction=outgoing`)).body.data;
      expect(m.clickedAt).not.toBeNull();
      expect(await counters(automation)).toEqual({ seenCount: 0, clickedCount: 1 });

      await t.db.updateTable('comment_automations').set({ seen_count: 2147483646, clicked_count: 2147483647 }).where('id', '=', automation).execute();
      const more = await withOutgoing([3, 2, 1], { kind: 'comment', id: automation });
      await deliver('photo', messaging('instagram', ACCOUNT, [read(more.sender, { watermark: Date.now() })]));
      await deliver('photo', messaging('instagram', ACCOUNT, [{ sender: { id: more.sender }, recipient: { id: ACCOUNT }, timestamp: Date.now(), postback: { mid: `out-${more.sender}-0`, payload: 'X' } }]));
      expect(await counters(automation)).toEqual({ seenCount: 2147483647, clickedCount: 2147483647 });

      const lead = await withOutgoing([2], { kind: 'leadAd', id: automation });
      await deliver('photo', messaging('instagram', ACCOUNT, [read(lead.sender, { watermark: Date.now() })]));
      expect(await seen(lead.contactId)).toEqual({ 'Reply 0': true });
      expect(await counters(automation)).toEqual({ seenCount: 2147483647, clickedCount: 2147483647 });
    });

    it('receipts of a person the inbox does not know, or of unknown messages, change nothing', async () => {
      await deliver('photo', messaging('instagram', ACCOUNT, [read('stranger-1', { watermark: Date.now() })]));
      const outcome = await t.db.selectFrom('channel_events').select('outcome').where('kind', '=', 'read').where('external_id', 'like', 'stranger-1:%').executeTakeFirstOrThrow();
      expect(outcome.outcome).toBe('read receipt of an unknown person: nothing to mark');
      const c = await withOutgoing([1], null);
      await deliver('photo', messaging('instagram', ACCOUNT, [{ sender: { id: c.sender }, recipient: { id: ACCOUNT }, timestamp: Date.now(), postback: { mid: 'no-such-mid', payload: 'X' } }]));
      expect((await api(`/v1/contacts/${c.contactId}/messages?direction=outgoing`)).body.data[0].clickedAt).toBeNull();
    });
  });

  it('a profile fetch that fails only costs the name', async () => {
    const sender = person();
    await upsertSandboxRecord(t.db, other.id, 'profile', sender, { firstName: 'Wrong', lastName: 'Workspace', name: null, username: null, avatarUrl: null });
    await deliver('photo', messaging('instagram', ACCOUNT, [message(sender, `mid-${sender}`, 'Hi')]));
    const contactId = (await contactOf(ws.id, photoInbox, sender))!;
    expect((await api(`/v1/contacts/${contactId}`)).body).toMatchObject({ firstName: null, lastName: null });
  });
});
