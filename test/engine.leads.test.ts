import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';

/**
 * Lead-ad automations acting on new leads, end to end: a signed `leadgen` webhook (the lead itself
 * seeded in the sandbox, as dev events do), the engine's workers, and what the API shows after:
 * the contact (email, phone, names), its custom fields typed as contacts-api types them, tags,
 * sequences, the reply in the outbox with its placeholders filled, the message on the
 * conversation, error logs. Matching: a form claim, `*`, an unclaimed form, an automation switched
 * off or deleted.
 */
describe(`lead-ad automations act on new leads on ${testEngine}`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let inboxId: number;
  let ids: { budget: number; start: number; vip: number; site: number; company: number; leadTag: number; springTag: number; welcome: number };
  const PAGE = '7100001';
  const STAR_PAGE = '7100002';
  const [COUPON, WEBINAR, UNCLAIMED] = ['7200001', '7200002', '7200003'];
  let seconds = 1795435000;

  const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ws.developerToken, ...(body === undefined ? {} : { body }) });

  /** Seeds the lead in the sandbox, posts its signed leadgen webhook and waits for the engine. */
  const lead = async (page: string, leadId: string, formId: string, answers: Record<string, string | string[]>, opts: { seed?: boolean } = {}) => {
    if (opts.seed !== false) {
      const fields = Object.entries(answers).map(([name, v]) => ({ name, values: Array.isArray(v) ? v : [v] }));
      await upsertSandboxRecord(t.db, ws.id, 'lead', leadId, { createdAt: T0, formId, adId: 'ad-1', fields });
    }
    const res = await t.webhook('net', { object: 'page', entry: [{ id: page, time: ++seconds, changes: [{ field: 'leadgen', value: { leadgen_id: leadId, page_id: page, form_id: formId, created_time: seconds } }] }] });
    expect(res.status).toBe(200);
    await t.settle();
    return res.body;
  };
  const outcomeOf = async (leadId: string) =>
    (await t.db.selectFrom('channel_events').select('outcome').where('workspace_id', '=', ws.id).where('kind', '=', 'lead').where('external_id', '=', leadId).executeTakeFirstOrThrow()).outcome;
  const outbox = async (query = '') => (await api('GET', `/v1/outbox?automationKind=leadAd&perPage=50${query}`)).body.data;
  const contactByEmail = async (email: string) => (await api('GET', `/v1/contacts/${encodeURIComponent(email)}`)).body;
  const values = async (contactId: string) => Object.fromEntries(((await api('GET', `/v1/contacts/${contactId}/custom-fields`)).body.data as { name: string; value: string }[]).map((f) => [f.name, f.value]));
  const errorLogs = async () => (await api('GET', '/v1/error-logs?perPage=50')).body.data as { action: string; detail: string; httpCode: string; contactId: string }[];
  const contactCount = async () => (await t.db.selectFrom('contacts').select('id').where('workspace_id', '=', ws.id).execute()).length;
  const create = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/v1/net-lead-ads', body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  let couponAutomation: string;

  beforeAll(async () => {
    t = await createEngineTestApp(unlimited);
    ws = await t.workspace({ developmentMode: true });
    const f = fixtures(t.db, ws.id);
    inboxId = (await t.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'Page', channel: 'net', source_id: PAGE, status: 'active', created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow()).id;
    await t.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'Star page', channel: 'net', source_id: STAR_PAGE, status: 'active', created_at: T0, updated_at: T0 }).execute();
    const questions = ['email', 'phone_number', 'full_name', 'budget', 'start_date', 'vip', 'website', 'company'].map((key) => ({ key, label: key, type: 'CUSTOM' }));
    const page = await f.leadPage(PAGE, 'Bloom & Co.', { inboxId });
    for (const [form, name] of [[COUPON, 'Coupon'], [WEBINAR, 'Webinar'], [UNCLAIMED, 'Unclaimed']] as const) await f.leadForm(page, form, name, { questions });
    await f.leadForm(await f.leadPage(STAR_PAGE, 'Star page'), '7300001', 'Any', { questions });
    ids = {
      budget: await f.customField('Budget', 'number'),
      start: await f.customField('Start date', 'date'),
      vip: await f.customField('VIP', 'boolean'),
      site: await f.customField('Website', 'url'),
      company: await f.customField('Company'),
      leadTag: await f.tag('lead'),
      springTag: await f.tag('spring'),
      welcome: await f.sequence('Welcome'),
    };
    couponAutomation = await create({
      name: 'Coupon leads',
      pageId: PAGE,
      formIds: [COUPON],
      reply: { type: 'text', value: 'Thanks {{first_name}} ({{full_name}})! Budget noted: {{custom.budget}}. {{custom.Nothing}}' },
      fieldMappings: [
        { questionKey: 'budget', customFieldId: String(ids.budget) },
        { questionKey: 'start_date', customFieldId: String(ids.start) },
        { questionKey: 'vip', customFieldId: String(ids.vip) },
        { questionKey: 'website', customFieldId: String(ids.site) },
        { questionKey: 'company', customFieldId: String(ids.company) },
      ],
      tagIds: [String(ids.leadTag), String(ids.springTag)],
      sequenceIds: [String(ids.welcome)],
    });
  });
  afterAll(() => t?.close());

  it('a new lead becomes a contact with its email, phone and names, typed custom fields, tags, a sequence and the reply', async () => {
    await lead(PAGE, 'L-1', COUPON, {
      email: 'Ada@Example.com',
      phone_number: '+44 (20) 7946-0958',
      full_name: 'Ada King Lovelace',
      budget: '1500.50',
      start_date: '2026-12-01',
      vip: 'TRUE',
      website: 'https://ada.example.com/x?y=1',
      company: 'Analytical Engines',
      unasked: 'ignored',
    });
    const contact = await contactByEmail('ada@example.com');
    expect(contact).toMatchObject({ email: 'Ada@Example.com', phoneNumber: '+442079460958', firstName: 'Ada', lastName: 'King Lovelace' });
    expect(await values(contact.id)).toMatchObject({ Budget: '1500.5', 'Start date': '2026-12-01', VIP: 'true', Website: 'https://ada.example.com/x?y=1', Company: 'Analytical Engines' });
    expect(contact.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['lead', 'spring']);
    expect((await api('GET', `/v1/contacts/${contact.id}/sequences`)).body.data).toEqual([{ sequenceId: String(ids.welcome), sequenceName: 'Welcome' }]);
    // The page's inbox: a contact inbox (no network source id: a lead names no page-scoped user) and a conversation.
    expect(contact.contactInboxes).toEqual([expect.objectContaining({ inboxId: String(inboxId) })]);
    const conversations = await t.db.selectFrom('conversations').select(['id', 'admin_replied_at', 'last_activity_at']).where('workspace_id', '=', ws.id).where('contact_id', '=', Number(contact.id)).execute();
    expect(conversations).toHaveLength(1);
    // The reply is the conversation's latest activity, and the workspace's reply in it.
    expect(conversations[0]!.admin_replied_at).not.toBeNull();
    expect(new Date(conversations[0]!.last_activity_at!).getTime()).toBe(new Date(conversations[0]!.admin_replied_at!).getTime());

    const entries = await outbox(`&contactId=${contact.id}`);
    expect(entries).toEqual([
      expect.objectContaining({
        channel: 'net',
        inboxId: String(inboxId),
        action: 'message',
        recipientId: 'lead:L-1',
        contactId: contact.id,
        automationKind: 'leadAd',
        automationId: couponAutomation,
        payload: { type: 'text', text: 'Thanks Ada (Ada King Lovelace)! Budget noted: 1500.5.' },
      }),
    ]);
    const messages = await t.db.selectFrom('messages').selectAll().where('workspace_id', '=', ws.id).where('contact_id', '=', Number(contact.id)).execute();
    expect(messages).toEqual([
      expect.objectContaining({
        conversation_id: conversations[0]!.id,
        inbox_id: inboxId,
        direction: 'outgoing',
        external_id: `outbox:${entries[0].id}`,
        text: 'Thanks Ada (Ada King Lovelace)! Budget noted: 1500.5.',
        status: 'sent',
        automation_kind: 'leadAd',
        automation_id: Number(couponAutomation),
      }),
    ]);
    expect(await outcomeOf('L-1')).toMatch(new RegExp(`^automation ${couponAutomation}: contact ${contact.id} created, 5 field\\(s\\) stored, 2 tag\\(s\\), 1 sequence\\(s\\); replied \\(message \\d+\\)$`));
    expect(await errorLogs()).toEqual([]);
  });

  it('an answer that does not fit its field is an error log naming the question, field and reason; the rest is stored', async () => {
    await lead(PAGE, 'L-2', COUPON, { email: 'grace@example.com', full_name: 'Grace Hopper', budget: 'about a million', start_date: '2026-02-30', vip: 'yes', company: 'Navy' });
    const contact = await contactByEmail('grace@example.com');
    const stored = await values(contact.id);
    expect(stored).toMatchObject({ Company: 'Navy', Budget: '', 'Start date': '', VIP: '' });
    const logs = (await errorLogs()).filter((l) => l.contactId === contact.id);
    expect(logs.map((l) => [l.action, l.httpCode])).toEqual([['leadAd', '422'], ['leadAd', '422'], ['leadAd', '422']]);
    const details = logs.map((l) => l.detail).join('\n');
    expect(details).toContain('question "budget" ("about a million") was not stored in custom field "Budget" (number): value must be');
    expect(details).toContain('question "start_date" ("2026-02-30") was not stored in custom field "Start date" (date): value must be a calendar date');
    expect(details).toContain('question "vip" ("yes") was not stored in custom field "VIP" (boolean): value must be true or false');
    // Still a contact with its tags and the reply: a bad answer stops nothing else.
    expect(contact.tags).toHaveLength(2);
    expect(await outbox(`&contactId=${contact.id}`)).toEqual([expect.objectContaining({ payload: { type: 'text', text: 'Thanks Grace (Grace Hopper)! Budget noted: .' } })]);
  });

  it('a lead of the same email updates that contact (phone and missing names), and the values it answers', async () => {
    const existing = await fixtures(t.db, ws.id).contact({ email: 'linus@example.com', lastName: null, firstName: null });
    await lead(PAGE, 'L-3', COUPON, { email: 'LINUS@example.com', phone_number: '5550101010', full_name: 'Linus Torvalds', budget: '7' });
    const contact = await contactByEmail('linus@example.com');
    expect(contact).toMatchObject({ id: String(existing), email: 'linus@example.com', phoneNumber: '5550101010', firstName: 'Linus', lastName: 'Torvalds' });
    expect((await values(contact.id)).Budget).toBe('7');
    expect(await outcomeOf('L-3')).toMatch(new RegExp(`contact ${existing} updated`));
  });

  it('a lead of a blocked contact updates it but is not answered', async () => {
    const blocked = await fixtures(t.db, ws.id).contact({ email: 'blocked-lead@example.com' });
    await t.db.updateTable('contacts').set({ blocked_at: new Date().toISOString() }).where('id', '=', blocked).execute();
    await lead(PAGE, 'L-blocked', COUPON, { email: 'blocked-lead@example.com', full_name: 'Mallory Smith', budget: '3' });
    expect(await outbox(`&contactId=${blocked}`)).toEqual([]);
    expect(await outcomeOf('L-blocked')).toMatch(/reply skipped: the contact is blocked$/);
    expect((await values(String(blocked))).Budget).toBe('3');
  });

  it('the `*` claim answers every form of its page', async () => {
    const star = await create({ name: 'Every form', pageId: STAR_PAGE, formIds: ['*'], reply: { type: 'text', value: 'Hello {{first_name}}' } });
    await lead(STAR_PAGE, 'L-4', '7300001', { email: 'star@example.com', first_name: 'Stella' });
    await lead(STAR_PAGE, 'L-5', 'form-created-later', { email: 'later@example.com', first_name: 'Luna' });
    expect((await outbox(`&automationId=${star}`)).map((e: { recipientId: string; payload: unknown }) => [e.recipientId, e.payload])).toEqual([
      ['lead:L-5', { type: 'text', text: 'Hello Luna' }],
      ['lead:L-4', { type: 'text', text: 'Hello Stella' }],
    ]);
  });

  it('a specific form claim wins over `*` when both exist; other forms go to `*`', async () => {
    // The API never lets both exist; rows written directly (as an older release might have left them).
    const f = fixtures(t.db, ws.id);
    const PAGE3 = '7100003';
    await t.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'Page 3', channel: 'net', source_id: PAGE3, status: 'active', created_at: T0, updated_at: T0 }).execute();
    const everyForm = await f.leadAd('Every form of page 3', { pageId: PAGE3, formIds: ['*'], reply: { type: 'text', value: 'from star' } });
    const specific = await f.leadAd('Form 9 of page 3', { pageId: PAGE3, formIds: ['9'], reply: { type: 'text', value: 'from form 9' } });
    await lead(PAGE3, 'L-6', '9', { email: 'nine@example.com' });
    await lead(PAGE3, 'L-7', '10', { email: 'ten@example.com' });
    expect((await outbox(`&automationId=${specific}`)).map((e: { recipientId: string }) => e.recipientId)).toEqual(['lead:L-6']);
    expect((await outbox(`&automationId=${everyForm}`)).map((e: { recipientId: string }) => e.recipientId)).toEqual(['lead:L-7']);
  });

  it('a webhook that names no form: the lead fetched says which form it came from', async () => {
    await upsertSandboxRecord(t.db, ws.id, 'lead', 'L-noform', { createdAt: T0, formId: COUPON, adId: null, fields: [{ name: 'email', values: ['noform@example.com'] }] });
    await t.webhook('net', { object: 'page', entry: [{ id: PAGE, time: ++seconds, changes: [{ field: 'leadgen', value: { leadgen_id: 'L-noform', page_id: PAGE } }] }] });
    await t.settle();
    const contact = await contactByEmail('noform@example.com');
    expect(await outbox(`&contactId=${contact.id}`)).toEqual([expect.objectContaining({ recipientId: 'lead:L-noform', automationId: couponAutomation })]);
  });

  it('a form no automation claims does nothing: no contact, no reply, outcome "no automation"', async () => {
    const [contacts, sent] = [await contactCount(), (await outbox()).length];
    await lead(PAGE, 'L-8', UNCLAIMED, { email: 'nobody@example.com' });
    expect(await outcomeOf('L-8')).toBe('no automation');
    expect(await contactCount()).toBe(contacts);
    expect((await outbox()).length).toBe(sent);
  });

  it('a switched-off automation does nothing for later leads; switched on again, it acts', async () => {
    const id = await create({ name: 'Webinar', pageId: PAGE, formIds: [WEBINAR], reply: { type: 'text', value: 'See you there' }, tagIds: [String(ids.leadTag)] });
    expect((await api('PATCH', `/v1/net-lead-ads/${id}`, { isActive: false })).status).toBe(200);
    const contacts = await contactCount();
    await lead(PAGE, 'L-9', WEBINAR, { email: 'off@example.com' });
    expect(await outcomeOf('L-9')).toBe('no automation');
    expect(await contactCount()).toBe(contacts);
    expect(await outbox(`&automationId=${id}`)).toEqual([]);

    expect((await api('PATCH', `/v1/net-lead-ads/${id}`, { isActive: true })).status).toBe(200);
    await lead(PAGE, 'L-10', WEBINAR, { email: 'on@example.com' });
    expect((await outbox(`&automationId=${id}`)).map((e: { recipientId: string }) => e.recipientId)).toEqual(['lead:L-10']);

    expect((await api('DELETE', `/v1/net-lead-ads/${id}`)).status).toBe(200);
    await lead(PAGE, 'L-11', WEBINAR, { email: 'deleted@example.com' });
    expect(await outcomeOf('L-11')).toBe('no automation');
    expect((await outbox(`&automationId=${id}`)).map((e: { recipientId: string }) => e.recipientId)).toEqual(['lead:L-10']);
    expect((await api('GET', '/v1/contacts/deleted@example.com')).status).toBe(404);
  });

  it('a lead the network (sandbox) does not know: an error log of the channel, no contact, outcome failed', async () => {
    const contacts = await contactCount();
    await lead(PAGE, 'L-missing', COUPON, {}, { seed: false });
    expect(await outcomeOf('L-missing')).toBe('failed: lead L-missing could not be fetched (notFound)');
    expect(await contactCount()).toBe(contacts);
    expect((await errorLogs()).filter((l) => l.detail.includes('L-missing'))).toEqual([
      expect.objectContaining({ action: 'net', detail: 'The sandbox has no lead L-missing in this workspace', httpCode: '500', contactId: '' }),
    ]);
  });

  it('an email or phone that is not one is logged and left off the contact; the lead is still answered', async () => {
    await lead(PAGE, 'L-12', COUPON, { email: 'not-an-email', phone_number: '+1 555 010 2040', full_name: 'Bad Mail' });
    const contact = (await api('GET', '/v1/contacts/+15550102040')).body;
    expect(contact).toMatchObject({ email: null, phoneNumber: '+15550102040', firstName: 'Bad', lastName: 'Mail' });
    expect((await errorLogs()).filter((l) => l.contactId === contact.id)).toEqual([
      expect.objectContaining({ action: 'leadAd', httpCode: '422', detail: 'Lead L-12: the answer to question "email" ("not-an-email") is not a valid email address; the contact was not given it' }),
    ]);
    expect(await outbox(`&contactId=${contact.id}`)).toHaveLength(1);
  });

  it('a dev event (POST /v1/dev/events with its lead) acts as the webhook does', async () => {
    const res = await api('POST', '/v1/dev/events', {
      channel: 'net',
      entry: [{ id: PAGE, changes: [{ field: 'leadgen', value: { leadgen_id: 'L-dev', page_id: PAGE, form_id: COUPON } }] }],
      leads: [{ id: 'L-dev', formId: COUPON, fields: [{ name: 'email', values: ['dev@example.com'] }, { name: 'first_name', values: ['Dev'] }, { name: 'budget', values: ['42'] }] }],
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ stored: 1 });
    await t.settle();
    const contact = await contactByEmail('dev@example.com');
    expect((await values(contact.id)).Budget).toBe('42');
    expect(await outbox(`&contactId=${contact.id}`)).toEqual([expect.objectContaining({ recipientId: 'lead:L-dev', payload: { type: 'text', text: 'Thanks Dev (Dev)! Budget noted: 42.' } })]);
  });

  it('the reply chooses among its values by automation and lead: the same lead always the same text', async () => {
    const PAGE4 = '7100004';
    await t.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'Page 4', channel: 'net', source_id: PAGE4, status: 'active', created_at: T0, updated_at: T0 }).execute();
    const id = await fixtures(t.db, ws.id).leadAd('Choices', { pageId: PAGE4, formIds: ['*'], reply: { type: 'text', value: null, values: [{ value: 'A {{first_name}}' }, { value: 'B {{first_name}}' }, { value: 'C {{first_name}}' }] } });
    for (let i = 0; i < 6; i++) await lead(PAGE4, `L-choice-${i}`, 'f', { email: `choice${i}@example.com`, first_name: `N${i}` });
    const { replyContent } = await import('../src/engine/reply-content.js');
    const { leadReplySeed } = await import('../src/engine/leads/lead.processor.js');
    const sent = (await outbox(`&automationId=${id}`)) as { recipientId: string; payload: { text: string } }[];
    expect(sent).toHaveLength(6);
    for (const e of sent) {
      const leadId = e.recipientId.slice('lead:'.length);
      const n = leadId.slice('L-choice-'.length);
      const expected = replyContent({ type: 'text', value: null, values: [{ value: 'A {{first_name}}' }, { value: 'B {{first_name}}' }, { value: 'C {{first_name}}' }] }, { firstName: `N${n}`, lastName: null, custom: new Map() }, leadReplySeed(id, leadId));
      expect(e.payload).toEqual(expected);
    }
    // Six leads with three choices fall on more than one of them.
    expect(new Set(sent.map((e) => e.payload.text[0])).size).toBeGreaterThan(1);
  });

  it('a reply of type flow naming a flow of the workspace runs it to the lead: its messages in order, its actions', async () => {
    const PAGE5 = '7100005';
    await t.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'Page 5', channel: 'net', source_id: PAGE5, status: 'active', created_at: T0, updated_at: T0 }).execute();
    const f = fixtures(t.db, ws.id);
    const flow = await f.flow('Lead welcome', [
      { type: 'text', text: 'Welcome {{first_name}}' },
      { type: 'addTag', tagId: String(ids.springTag) },
      { type: 'quickReplies', text: 'Book a call?', replies: [{ title: 'Yes', payload: 'BOOK' }] },
    ]);
    const id = await f.leadAd('Flow reply', { pageId: PAGE5, formIds: ['*'], reply: { type: 'flow', value: String(flow) } });
    await lead(PAGE5, 'L-flow-1', 'f', { email: 'flow-lead@example.com', first_name: 'Flo' });
    const sent = (await outbox(`&automationId=${id}`)) as { recipientId: string; payload: unknown }[];
    expect(sent.map((e) => [e.recipientId, e.payload]).reverse()).toEqual([
      ['lead:L-flow-1', { type: 'text', text: 'Welcome Flo' }],
      ['lead:L-flow-1', { type: 'quickReplies', text: 'Book a call?', replies: [{ title: 'Yes', payload: 'BOOK' }] }],
    ]);
    const contact = await contactByEmail('flow-lead@example.com');
    expect((await api('GET', `/v1/contacts/${contact.id}/tags`)).body.data.map((x: { name: string }) => x.name)).toContain('spring');
    expect(await outcomeOf('L-flow-1')).toMatch(new RegExp(`; replied \\(flow ${flow}: 2 message\\(s\\)\\)$`));
  });
});
