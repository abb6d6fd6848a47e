import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import { commentWorld, createAutomation, deliver, netWebhook, unique } from './support/comment-engine.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';
import { event, recordedEvents } from './support/recorded-events.js';

/**
 * Events the engine records (workspace_events, in the transaction of its change): newContact for
 * every contact it creates (a person who writes, with the profile's names; a person who comments;
 * a lead, with the values its field mappings stored), and what a lead-ad automation changes on a
 * contact: its fields (contactInfoUpdated, for a contact that existed), its mapped values
 * (customFieldValueChanged), its tags (tagApplied) and sequences (subscribedToSequence), each only
 * when it changed. Actors are null: the engine did it.
 */
describe(`events the engine records on ${testEngine}`, () => {
  let t: EngineTestApp;

  const newContact = (contact: number, c: { name: string; first_name: string | null; last_name: string | null; phone: string | null; email: string | null }, customFields: Record<string, string> = {}) =>
    event('newContact', 'new_contact', contact, { ...c, custom_fields: customFields });

  /** messageReceived for the stored message with this network id. */
  const received = async (contact: number, externalId: string) => {
    const m = await t.db.selectFrom('messages').select(['id', 'conversation_id', 'inbox_id']).where('external_id', '=', externalId).executeTakeFirstOrThrow();
    return event('messageReceived', 'message_received', contact, { message_id: String(m.id), conversation_id: String(m.conversation_id), inbox_id: String(m.inbox_id), text: 'Hi', attachments: [] });
  };

  beforeAll(async () => {
    t = await createEngineTestApp(unlimited);
  });
  afterAll(() => t?.close());

  it('an incoming message from a new person: newContact with the names from the profile, and messageReceived; their next message only messageReceived; a redelivery nothing', async () => {
    const ws = await t.workspace({ developmentMode: true });
    const events = recordedEvents(t.db, ws.id);
    const account = `1784${unique()}`;
    const inbox = await fixtures(t.db, ws.id).inbox('Photo', 'photo');
    await t.db.updateTable('inboxes').set({ source_id: account }).where('id', '=', inbox).execute();
    const sender = `ig-${unique()}`;
    // The display name would split as "Grace" / "Brewster Hopper": the profile's own names win.
    await upsertSandboxRecord(t.db, ws.id, 'profile', sender, { firstName: 'Grace', lastName: 'Hopper', name: 'Grace Brewster Hopper', username: 'grace', avatarUrl: 'https://cdn.example/grace.jpg' });
    const message = (mid: string) => ({ object: 'instagram', entry: [{ id: account, time: Math.floor(Date.now() / 1000), messaging: [{ sender: { id: sender }, recipient: { id: account }, timestamp: Date.now(), message: { mid, text: 'Hi' } }] }] });
    const first = `mid-${unique()}`;
    await deliver(t, 'photo', message(first));
    const contact = (await t.db.selectFrom('contact_inboxes').select('contact_id').where('inbox_id', '=', inbox).where('source_id', '=', sender).executeTakeFirstOrThrow()).contact_id;
    expect(await events.next()).toEqual([newContact(contact, { name: 'Grace Hopper', first_name: 'Grace', last_name: 'Hopper', phone: null, email: null }), await received(contact, first)]);
    const second = `mid-${unique()}`;
    await deliver(t, 'photo', message(second));
    expect(await events.next()).toEqual([await received(contact, second)]);
    // The network delivers the same message again: stored once, one event.
    await deliver(t, 'photo', message(second));
    expect(await events.next()).toEqual([]);
  });

  it('a comment from a new person: newContact named from the comment, then messageSent for the private reply; their next comment only its reply', async () => {
    const world = await commentWorld(t);
    const events = recordedEvents(t.db, world.ws.id);
    const automation = await createAutomation(t, world.ws, 'net');
    const author = `fb-${unique()}`;
    await deliver(t, 'net', netWebhook(world.net.account, { id: `c-${unique()}`, from: author, name: 'Ada Lovelace' }));
    const contact = (await t.db.selectFrom('contact_inboxes').select('contact_id').where('inbox_id', '=', world.net.inboxId).where('source_id', '=', author).executeTakeFirstOrThrow()).contact_id;
    // The automation's private reply is a message sent, with the automation that sent it.
    const replied = async () => {
      const reply = await t.db.selectFrom('messages').select(['id', 'conversation_id', 'text']).where('contact_id', '=', contact).orderBy('id', 'desc').executeTakeFirstOrThrow();
      const data = { message_id: String(reply.id), conversation_id: String(reply.conversation_id), inbox_id: String(world.net.inboxId), text: reply.text, attachments: [] };
      return event('messageSent', 'message_sent', contact, { ...data, automation_kind: 'comment', automation_id: automation });
    };
    expect(await events.next()).toEqual([newContact(contact, { name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', phone: null, email: null }), await replied()]);
    await deliver(t, 'net', netWebhook(world.net.account, { id: `c-${unique()}`, from: author, name: 'Ada Lovelace' }));
    expect(await events.next()).toEqual([await replied()]);
  });

  describe('lead-ad automations', () => {
    let ws: TestWorkspace;
    let events: ReturnType<typeof recordedEvents>;
    let ids: { budget: number; company: number; lead: number; spring: number; welcome: number };
    const PAGE = `71${unique()}`;
    const FORM = '7200001';
    let seconds = 1795435000;

    const lead = async (leadId: string, answers: Record<string, string>) => {
      await upsertSandboxRecord(t.db, ws.id, 'lead', leadId, { createdAt: T0, formId: FORM, adId: 'ad-1', fields: Object.entries(answers).map(([name, v]) => ({ name, values: [v] })) });
      const res = await t.webhook('net', { object: 'page', entry: [{ id: PAGE, time: ++seconds, changes: [{ field: 'leadgen', value: { leadgen_id: leadId, page_id: PAGE, form_id: FORM, created_time: seconds } }] }] });
      expect(res.status).toBe(200);
      await t.settle();
    };
    const contactByEmail = async (email: string) =>
      (await t.db.selectFrom('contacts').select('id').where('workspace_id', '=', ws.id).where('email', '=', email).executeTakeFirstOrThrow()).id;
    const changed = (contact: number, name: string, oldValue: string | null, newValue: string | null) =>
      event('customFieldValueChanged', 'custom_field_changed', contact, { custom_field: { name, old_value: oldValue, new_value: newValue } });

    beforeAll(async () => {
      ws = await t.workspace({ developmentMode: true });
      const f = fixtures(t.db, ws.id);
      const inboxId = (await t.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'Page', channel: 'net', source_id: PAGE, status: 'active', created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow()).id;
      const questions = ['email', 'phone_number', 'full_name', 'budget', 'company'].map((key) => ({ key, label: key, type: 'CUSTOM' }));
      await f.leadForm(await f.leadPage(PAGE, 'Bloom & Co.', { inboxId }), FORM, 'Coupon', { questions });
      ids = {
        budget: await f.customField('Budget', 'number'),
        company: await f.customField('Company'),
        lead: await f.tag('lead'),
        spring: await f.tag('spring'),
        welcome: await f.sequence('Welcome'),
      };
      const res = await t.request('POST', '/v1/net-lead-ads', {
        token: ws.developerToken,
        body: {
          name: 'Coupon leads',
          pageId: PAGE,
          formIds: [FORM],
          reply: { type: 'none', value: null },
          fieldMappings: [
            { questionKey: 'budget', customFieldId: String(ids.budget) },
            { questionKey: 'company', customFieldId: String(ids.company) },
          ],
          tagIds: [String(ids.spring), String(ids.lead)],
          sequenceIds: [String(ids.welcome)],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      events = recordedEvents(t.db, ws.id);
    });

    it('a new lead: newContact with its mapped values, then each value, tag and sequence it was given', async () => {
      await lead(`L-${unique()}`, { email: 'ada@example.com', full_name: 'Ada Lovelace', budget: '1500.50', company: 'Analytical Engines' });
      const c = await contactByEmail('ada@example.com');
      expect(await events.next()).toEqual([
        newContact(c, { name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', phone: null, email: 'ada@example.com' }, { Budget: '1500.5', Company: 'Analytical Engines' }),
        changed(c, 'Budget', null, '1500.5'),
        changed(c, 'Company', null, 'Analytical Engines'),
        event('tagApplied', 'tag_applied', c, { tag: 'lead' }, ids.lead),
        event('tagApplied', 'tag_applied', c, { tag: 'spring' }, ids.spring),
        event('subscribedToSequence', 'subscribed_to_sequence', c, { sequence_id: String(ids.welcome), sequence_name: 'Welcome' }, ids.welcome),
      ]);
    });

    it("a lead of a known person: only what changed (the phone it lacked, a new budget); the same lead's answers again record nothing", async () => {
      const c = await contactByEmail('ada@example.com');
      const answers = { email: 'ADA@example.com', phone_number: '+1 (555) 010-2030', full_name: 'Augusta King', budget: '2000', company: 'Analytical Engines' };
      await lead(`L-${unique()}`, answers);
      expect(await events.next()).toEqual([
        event('contactInfoUpdated', 'contact_info_updated', c, { info_type: 'phone', old_value: null, new_value: '+15550102030' }),
        changed(c, 'Budget', '1500.5', '2000'),
      ]);
      await lead(`L-${unique()}`, answers);
      expect(await events.next()).toEqual([]);
    });
  });
});
