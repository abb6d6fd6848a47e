import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentWorld, createAutomation, deliver, events, outboxLines, photoWebhook, type CommentWorld } from './support/comment-engine.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';

/**
 * Thread control from the networks' webhooks, through the engine: `messaging_handovers` items (pass,
 * take, request, app roles) and `standby` items move a contact inbox's thread; a network's handover
 * wins a same-second tie with our call, otherwise the later transition wins whatever the order of
 * arrival; a plain message proves the thread ours again. Senders of the engine refuse while another
 * app holds the thread: a comment's private reply is skipped (threadNotOwned), a lead's reply too.
 * Read through the API (the thread-control calls answer the snapshot; notEscalation changes nothing).
 */
const OURS = 'messaging-api';
const OTHER = '263902037430900';

describe(`thread control from webhooks on ${testEngine}`, () => {
  let t: EngineTestApp;
  let w: CommentWorld;
  let serial = 0;

  beforeAll(async () => {
    t = await createEngineTestApp(unlimited);
    w = await commentWorld(t);
  });
  afterAll(() => t?.close());

  /** A person of the photo account with a contact, contact inbox and conversation. */
  const person = async () => {
    const f = fixtures(t.db, w.ws.id);
    const id = `ig-tc-${++serial}`;
    const contact = await f.contact({ email: `${id}@example.com` });
    const contactInbox = (
      await t.db
        .insertInto('contact_inboxes')
        .values({ workspace_id: w.ws.id, contact_id: contact, inbox_id: w.photo.inboxId, channel: 'photo', source_id: id, created_at: T0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const conversation = await f.conversation({ contactId: contact, inboxId: w.photo.inboxId });
    return { id, contact, contactInbox, conversation };
  };
  type Person = Awaited<ReturnType<typeof person>>;

  const entry = (items: { messaging?: unknown[]; standby?: unknown[] }) => ({ object: 'instagram', entry: [{ id: w.photo.account, time: Math.floor(Date.now() / 1000), ...items }] });
  const handover = (p: Person, at: number, key: string, value: Record<string, unknown>) => ({ sender: { id: p.id }, recipient: { id: w.photo.account }, timestamp: at, [key]: value });
  const standbyMessage = (p: Person, at: number, mid: string) => ({ sender: { id: p.id }, recipient: { id: w.photo.account }, timestamp: at, message: { mid, text: 'Is anyone there?' } });
  /** The thread as the API answers it (a take of our own thread, or a pass of one in standby, changes nothing). */
  const snapshot = async (p: Person) => {
    const current = await t.db.selectFrom('thread_states').select('state').where('contact_inbox_id', '=', p.contactInbox).executeTakeFirst();
    const action = current?.state === 'standby' ? 'pass' : 'take';
    const res = await t.request('POST', `/v1/conversations/${p.conversation}/thread-control`, { token: w.ws.developerToken, body: { contactInboxId: String(p.contactInbox), action } });
    expect(res.body.status).toBe('notEscalation');
    return res.body.snapshot;
  };
  const iso = (ms: number) => new Date(ms).toISOString();

  it('another app takes the thread, then passes it back to us', async () => {
    const p = await person();
    const takenAt = Date.now() - 60_000;
    const res = await t.webhook('photo', entry({ messaging: [handover(p, takenAt, 'take_thread_control', { previous_owner_app_id: OURS, new_owner_app_id: OTHER, metadata: 'agent' })] }));
    expect(res.body).toMatchObject({ received: 1, stored: 1, ignored: 0, invalid: 0 });
    await t.settle();
    expect(await snapshot(p)).toMatchObject({ state: 'standby', ownerRole: 'secondary', ownerAppId: OTHER, transitionedAt: iso(takenAt), lastEvent: 'takeThreadControl', lastEventSource: 'network', expiresAt: iso(takenAt + 24 * 3_600_000) });

    const passedAt = takenAt + 30_000;
    await deliver(t, 'photo', entry({ messaging: [handover(p, passedAt, 'pass_thread_control', { previous_owner_app_id: OTHER, new_owner_app_id: OURS, metadata: 'done' })] }));
    expect(await snapshot(p)).toEqual({
      contactInboxId: String(p.contactInbox),
      state: 'owned',
      ownerRole: 'primary',
      ownerAppId: OURS,
      transitionedAt: iso(passedAt),
      lastUserMessageAt: null,
      expiresAt: iso(passedAt + 24 * 3_600_000),
      idleSince: null,
      lastEvent: 'passThreadControl',
      lastEventSource: 'network',
      updatedAt: expect.any(String),
    });
  });

  it('events arriving out of order: the later transition wins', async () => {
    const p = await person();
    const base = Date.now() - 120_000;
    await deliver(t, 'photo', entry({ messaging: [handover(p, base + 10_000, 'pass_thread_control', { new_owner_app_id: OTHER })] }));
    // An older pass back to us arrives late: it changes nothing.
    await deliver(t, 'photo', entry({ messaging: [handover(p, base, 'pass_thread_control', { new_owner_app_id: OURS })] }));
    expect(await snapshot(p)).toMatchObject({ state: 'standby', ownerAppId: OTHER, transitionedAt: iso(base + 10_000), lastEvent: 'passThreadControl' });
    // An older message of ours changes no hands either, but counts as the person's last message.
    await deliver(t, 'photo', entry({ messaging: [{ sender: { id: p.id }, recipient: { id: w.photo.account }, timestamp: base + 5_000, message: { mid: `mid-${p.id}-old`, text: 'hi' } }] }));
    expect(await snapshot(p)).toMatchObject({ state: 'standby', lastUserMessageAt: iso(base + 5_000) });
    // A later one proves the thread ours (the networks deliver `messaging` to the owner only).
    await deliver(t, 'photo', entry({ messaging: [{ sender: { id: p.id }, recipient: { id: w.photo.account }, timestamp: base + 20_000, message: { mid: `mid-${p.id}-new`, text: 'hello' } }] }));
    expect(await snapshot(p)).toMatchObject({ state: 'owned', ownerAppId: OURS, transitionedAt: iso(base + 20_000), lastUserMessageAt: iso(base + 20_000), lastEvent: 'message', lastEventSource: 'network' });
  });

  it('a network handover in the same second as our call wins; one from the second before does not', async () => {
    const p = await person();
    const taken = await t.request('POST', `/v1/conversations/${p.conversation}/thread-control`, { token: w.ws.developerToken, body: { contactInboxId: String(p.contactInbox), action: 'pass' } });
    const ourAt = Date.parse(taken.body.snapshot.transitionedAt);
    const ourSecond = Math.floor(ourAt / 1000) * 1000;
    // Our pass made it the handover app's; the network says a take by us, a second earlier: stale.
    await deliver(t, 'photo', entry({ messaging: [handover(p, ourSecond - 1, 'take_thread_control', { new_owner_app_id: OURS })] }));
    expect(await snapshot(p)).toMatchObject({ state: 'standby', ownerAppId: 'page-inbox', lastEvent: 'pass', lastEventSource: 'api' });
    // The same take in our call's second (even a few milliseconds before it): the network's word wins.
    await deliver(t, 'photo', entry({ messaging: [handover(p, ourSecond, 'take_thread_control', { new_owner_app_id: OURS })] }));
    expect(await snapshot(p)).toMatchObject({ state: 'owned', ownerAppId: OURS, transitionedAt: iso(ourSecond), lastEvent: 'takeThreadControl', lastEventSource: 'network' });
  });

  it('standby messages prove another app holds the thread and are the person\'s last message; a request is recorded', async () => {
    const p = await person();
    const at = Date.now() - 30_000;
    await deliver(t, 'photo', entry({ standby: [standbyMessage(p, at, `mid-${p.id}-s1`)] }));
    expect(await snapshot(p)).toMatchObject({ state: 'standby', ownerRole: 'secondary', ownerAppId: null, transitionedAt: iso(at), lastUserMessageAt: iso(at), lastEvent: 'standbyMessage' });
    // Not stored as a message of the conversation: another app handles it.
    expect((await t.request('GET', `/v1/contacts/${p.contact}/messages`, { token: w.ws.developerToken })).body.data).toEqual([]);
    await deliver(t, 'photo', entry({ standby: [standbyMessage(p, at + 5_000, `mid-${p.id}-s2`)] }));
    expect(await snapshot(p)).toMatchObject({ state: 'standby', transitionedAt: iso(at), lastUserMessageAt: iso(at + 5_000), expiresAt: iso(at + 5_000 + 24 * 3_600_000) });
    await deliver(t, 'photo', entry({ messaging: [handover(p, at + 6_000, 'request_thread_control', { requested_owner_app_id: OURS, metadata: 'please' })] }));
    expect(await snapshot(p)).toMatchObject({ state: 'standby', transitionedAt: iso(at), lastEvent: 'requestThreadControl', lastEventSource: 'network' });
  });

  it('app roles (no person) are taken, and events of a person the inbox does not know record nothing', async () => {
    const res = await t.webhook('photo', entry({ messaging: [{ recipient: { id: w.photo.account }, timestamp: Date.now(), app_roles: { [OURS]: ['primary_receiver'], [OTHER]: ['secondary_receiver'] } }] }));
    expect(res.body).toMatchObject({ received: 1, stored: 1, invalid: 0 });
    await t.settle();
    const before = await t.db.selectFrom('thread_states').select('contact_inbox_id').where('workspace_id', '=', w.ws.id).execute();
    await deliver(t, 'photo', entry({ standby: [{ sender: { id: 'stranger' }, recipient: { id: w.photo.account }, timestamp: Date.now(), message: { mid: 'mid-stranger', text: 'hi' } }] }));
    expect(await t.db.selectFrom('thread_states').select('contact_inbox_id').where('workspace_id', '=', w.ws.id).execute()).toEqual(before);
    const outcomes = await t.db.selectFrom('channel_events').select(['kind', 'outcome']).where('workspace_id', '=', w.ws.id).where('kind', 'in', ['handover', 'standby']).orderBy('id', 'desc').limit(2).execute();
    expect(outcomes).toEqual([
      { kind: 'standby', outcome: 'a person the inbox does not know: no thread to record' },
      { kind: 'handover', outcome: `app roles of the account: ${OURS} primary_receiver, ${OTHER} secondary_receiver` },
    ]);
  });

  it('a comment\'s private reply is skipped while another app holds the thread (threadNotOwned)', async () => {
    const automation = await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'text', value: 'Thanks!' } });
    const p = await person();
    await deliver(t, 'photo', entry({ messaging: [handover(p, Date.now() - 1_000, 'pass_thread_control', { new_owner_app_id: OTHER })] }));
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: `c-tc-${p.id}`, from: p.id, text: 'price?' }));
    const [event] = await events(t, w.ws, 'photo', automation);
    expect(event).toMatchObject({ commentId: `c-tc-${p.id}`, outcome: 'declined', reason: 'threadNotOwned', actions: [{ action: 'privateReply', status: 'skipped', error: 'threadNotOwned' }] });
    expect((await outboxLines(t, w.ws, '&action=privateReply')).filter((l) => l.includes(p.id))).toEqual([]);
    // Our thread again: the next comment is answered.
    await deliver(t, 'photo', entry({ messaging: [handover(p, Date.now(), 'pass_thread_control', { new_owner_app_id: OURS })] }));
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: `c-tc2-${p.id}`, from: p.id, text: 'price?' }));
    expect(await outboxLines(t, w.ws, '&action=privateReply')).toContain(`privateReply c-tc2-${p.id} Thanks!`);
  });

  it('a handover between two comments of one delivery stops the second one\'s private reply', async () => {
    // One delivery is one chunk of the event job: what it read of the person before the handover
    // (src/engine/comments/chunk-reads.ts) must not answer the comment after it.
    await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'text', value: 'Thanks!' } });
    const p = await person();
    const body = {
      object: 'instagram',
      entry: [
        ...photoWebhook(w.photo.account, { id: `c-tc3-${p.id}`, from: p.id, text: 'price?' }).entry,
        ...entry({ messaging: [handover(p, Date.now() - 1_000, 'pass_thread_control', { new_owner_app_id: OTHER })] }).entry,
        ...photoWebhook(w.photo.account, { id: `c-tc4-${p.id}`, from: p.id, text: 'price?' }).entry,
      ],
    };
    await deliver(t, 'photo', body);
    const kinds = await t.db.selectFrom('channel_events').select(['kind', 'external_id']).where('workspace_id', '=', w.ws.id).orderBy('id', 'desc').limit(3).execute();
    expect(kinds.map((k) => k.kind).reverse()).toEqual(['comment', 'handover', 'comment']);
    const replies = (await outboxLines(t, w.ws, '&action=privateReply')).filter((l) => l.includes(p.id));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain(`c-tc3-${p.id}`);
  });

  it('a standby gone idle (24 hours without a transition) no longer stops a comment\'s private reply', async () => {
    await createAutomation(t, w.ws, 'photo', { privateReply: { type: 'text', value: 'Still here' } });
    const p = await person();
    const passedAt = Date.now() - 25 * 3_600_000;
    await deliver(t, 'photo', entry({ messaging: [handover(p, passedAt, 'pass_thread_control', { new_owner_app_id: OTHER })] }));
    const row = await t.db.selectFrom('thread_states').select(['state', 'expires_at']).where('contact_inbox_id', '=', p.contactInbox).executeTakeFirstOrThrow();
    expect(row.state).toBe('standby');
    expect(Date.parse(row.expires_at!)).toBeLessThan(Date.now());
    await deliver(t, 'photo', photoWebhook(w.photo.account, { id: `c-idle-${p.id}`, from: p.id, text: 'price?' }));
    expect((await outboxLines(t, w.ws, '&action=privateReply')).filter((l) => l.startsWith(`privateReply c-idle-${p.id} `))).toHaveLength(1);
  });

  it('a lead\'s reply is skipped while another app holds the contact\'s thread in the page\'s inbox (threadNotOwned)', async () => {
    const PAGE = `7100${Date.now() % 100000}`;
    const FORM = `7200${Date.now() % 100000}`;
    const f = fixtures(t.db, w.ws.id);
    const inbox = (await t.db.insertInto('inboxes').values({ workspace_id: w.ws.id, name: 'Lead page', channel: 'net', source_id: PAGE, status: 'active', created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow()).id;
    await f.leadForm(await f.leadPage(PAGE, 'Leads', { inboxId: inbox }), FORM, 'Form', { questions: [{ key: 'email', label: 'email', type: 'EMAIL' }] });
    const created = await t.request('POST', '/v1/net-lead-ads', { token: w.ws.developerToken, body: { name: 'Leads', pageId: PAGE, formIds: [FORM], reply: { type: 'text', value: 'Thanks!' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The contact already messages the page, and another app holds that thread.
    const contact = await f.contact({ email: 'lead-tc@example.com' });
    const contactInbox = (await t.db.insertInto('contact_inboxes').values({ workspace_id: w.ws.id, contact_id: contact, inbox_id: inbox, channel: 'net', source_id: 'psid-lead-tc', created_at: T0 }).returning('id').executeTakeFirstOrThrow()).id;
    const at = new Date().toISOString();
    await t.db
      .insertInto('thread_states')
      .values({ contact_inbox_id: contactInbox, workspace_id: w.ws.id, state: 'standby', owner_role: 'secondary', owner_app_id: OTHER, transitioned_at: at, expires_at: iso(Date.parse(at) + 24 * 3_600_000), last_event: 'passThreadControl', last_event_source: 'network', last_user_message_at: null, updated_at: at })
      .execute();
    const leadId = `L-tc-${Date.now()}`;
    const { upsertSandboxRecord } = await import('../src/domain/sandbox/sandbox-record.repository.js');
    await upsertSandboxRecord(t.db, w.ws.id, 'lead', leadId, { createdAt: at, formId: FORM, adId: null, fields: [{ name: 'email', values: ['lead-tc@example.com'] }] });
    await deliver(t, 'net', { object: 'page', entry: [{ id: PAGE, time: Math.floor(Date.now() / 1000), changes: [{ field: 'leadgen', value: { leadgen_id: leadId, page_id: PAGE, form_id: FORM } }] }] });
    const outcome = (await t.db.selectFrom('channel_events').select('outcome').where('workspace_id', '=', w.ws.id).where('kind', '=', 'lead').where('external_id', '=', leadId).executeTakeFirstOrThrow()).outcome;
    expect(outcome).toMatch(new RegExp(`contact ${contact} updated.*; reply skipped: threadNotOwned \\(another app holds the contact's thread\\)$`));
    expect((await t.request('GET', `/v1/outbox?contactId=${contact}`, { token: w.ws.developerToken })).body.data).toEqual([]);
  });
});
