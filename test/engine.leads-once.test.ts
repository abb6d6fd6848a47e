import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelAdapter } from '../src/domain/channels/channel-adapter.js';
import { ChannelError } from '../src/domain/channels/channel-error.js';
import { PROCESS_EVENT_TASK, type ProcessEventsItem } from '../src/domain/events/channel-event.service.js';
import { upsertSandboxRecord } from '../src/domain/sandbox/sandbox-record.repository.js';
import { engineDepsOf } from '../src/engine/context.js';
import { LEAD_REPLY_TASK, type LeadReplyPayload } from '../src/engine/leads/lead.processor.js';
import { engineTasks } from '../src/engine/tasks.js';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';
import { manualJobHelpers } from './support/queue.js';

/**
 * Each lead acts once: a redelivered webhook, an event job or reply job run again (a worker died),
 * and several leads of one new person at once (one contact); the MAC limit; tenants that connect
 * the same page; a send the network refuses (error log, the message stored as failed, retried
 * while it is worth it).
 */
describe(`lead-ad automations act once per lead on ${testEngine}`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let automation: number;
  const PAGE = '8100001';
  const FORM = '8200001';
  let seconds = 1795436000;

  const inbox = async (workspaceId: number, page: string) =>
    (await t.db.insertInto('inboxes').values({ workspace_id: workspaceId, name: `Page ${page}`, channel: 'net', source_id: page, status: 'active', created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow()).id;
  const seed = (workspaceId: number, leadId: string, email: string, more: { name: string; values: string[] }[] = []) =>
    upsertSandboxRecord(t.db, workspaceId, 'lead', leadId, { createdAt: T0, formId: FORM, adId: null, fields: [{ name: 'email', values: [email] }, ...more] });
  const leadgen = (leadIds: string[], page = PAGE) => ({
    object: 'page',
    entry: [{ id: page, time: ++seconds, changes: leadIds.map((id) => ({ field: 'leadgen', value: { leadgen_id: id, page_id: page, form_id: FORM, created_time: seconds } })) }],
  });
  const outbox = async (w: TestWorkspace = ws) => (await t.request('GET', '/v1/outbox?perPage=50', { token: w.developerToken })).body.data as { recipientId: string; contactId: string; payload: unknown }[];
  const contacts = async (workspaceId = ws.id) => t.db.selectFrom('contacts').select(['id', 'email']).where('workspace_id', '=', workspaceId).orderBy('id').execute();
  const messages = async (workspaceId = ws.id) => t.db.selectFrom('messages').select(['id', 'contact_id', 'status', 'error', 'text']).where('workspace_id', '=', workspaceId).orderBy('id').execute();
  const errorLogs = async (w: TestWorkspace = ws) => (await t.request('GET', '/v1/error-logs?perPage=50', { token: w.developerToken })).body.data as { action: string; detail: string; httpCode: string; contactId: string }[];
  const eventOf = async (leadId: string, workspaceId = ws.id) =>
    t.db.selectFrom('channel_events').select(['id', 'outcome', 'processed_at']).where('workspace_id', '=', workspaceId).where('kind', '=', 'lead').where('external_id', '=', leadId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createEngineTestApp(unlimited);
    ws = await t.workspace({ developmentMode: true });
    await inbox(ws.id, PAGE);
    automation = await fixtures(t.db, ws.id).leadAd('Leads', { pageId: PAGE, formIds: [FORM], reply: { type: 'text', value: 'Hi {{first_name}}' } });
  });
  afterAll(() => t?.close());

  it('a redelivered lead is stored and answered once', async () => {
    await seed(ws.id, 'R-1', 'redelivered@example.com');
    expect((await t.webhook('net', leadgen(['R-1']))).body).toMatchObject({ stored: 1, duplicates: 0 });
    await t.settle();
    expect((await t.webhook('net', leadgen(['R-1']))).body).toMatchObject({ stored: 0, duplicates: 1 });
    await t.settle();
    expect((await outbox()).filter((e) => e.recipientId === 'lead:R-1')).toHaveLength(1);
    expect((await contacts()).filter((c) => c.email === 'redelivered@example.com')).toHaveLength(1);
  });

  it('the event job and the reply job run again (a worker died after their work): nothing is done twice', async () => {
    await seed(ws.id, 'R-2', 'rerun@example.com', [{ name: 'first_name', values: ['Rita'] }]);
    await t.webhook('net', leadgen(['R-2']));
    await t.settle();
    const event = await eventOf('R-2');
    const [contact] = (await contacts()).filter((c) => c.email === 'rerun@example.com');
    const before = { outbox: (await outbox()).length, messages: (await messages()).length, logs: (await errorLogs()).length, outcome: event.outcome };
    expect(before.outcome).toMatch(/; replied \(message \d+\)$/);

    const conversation = await t.db.selectFrom('conversations').select('id').where('workspace_id', '=', ws.id).where('contact_id', '=', contact!.id).executeTakeFirstOrThrow();
    const reply: LeadReplyPayload = { workspaceId: ws.id, eventId: event.id, automationId: automation, contactId: contact!.id, conversationId: conversation.id };
    await t.db.transaction().execute(async (trx) => {
      await t.app.deps.queue.enqueue(trx, { task: PROCESS_EVENT_TASK, payload: { workspaceId: ws.id, eventId: event.id } });
      await t.app.deps.queue.enqueue(trx, { task: LEAD_REPLY_TASK, payload: { ...reply } });
    });
    await t.settle();
    expect({ outbox: (await outbox()).length, messages: (await messages()).length, logs: (await errorLogs()).length, outcome: (await eventOf('R-2')).outcome }).toEqual(before);

    // Died between the send and recording it: the send is made again with the same idempotency key, which the outbox records once.
    await t.db.deleteFrom('messages').where('workspace_id', '=', ws.id).where('contact_id', '=', contact!.id).execute();
    await t.db.updateTable('channel_events').set({ outcome: before.outcome!.replace(/; replied \(message \d+\)$/, '; reply queued') }).where('id', '=', event.id).execute();
    await t.db.transaction().execute((trx) => t.app.deps.queue.enqueue(trx, { task: LEAD_REPLY_TASK, payload: { ...reply } }));
    await t.settle();
    expect((await outbox()).filter((e) => e.recipientId === 'lead:R-2')).toHaveLength(1);
    expect((await messages()).filter((m) => m.contact_id === contact!.id)).toEqual([expect.objectContaining({ status: 'sent', text: 'Hi Rita' })]);
  });

  it('leads of one new person arriving together make one contact, each answered', async () => {
    const ids = ['S-1', 'S-2', 'S-3', 'S-4', 'S-5', 'S-6'];
    for (const [i, id] of ids.entries()) await seed(ws.id, id, i % 2 ? 'Same@Example.com' : 'same@example.com', [{ name: 'phone_number', values: ['+15550009999'] }]);
    // Workers stopped, the six event jobs are run all at once here (on PostgreSQL, six transactions at the same time).
    await t.stopWorkers();
    try {
      expect((await t.webhook('net', leadgen(ids))).body).toMatchObject({ stored: 6 });
      const tasks = engineTasks(engineDepsOf(t.app.deps));
      const events = await Promise.all(ids.map((id) => eventOf(id)));
      await Promise.all(events.map((e) => tasks[PROCESS_EVENT_TASK]!({ workspaceId: ws.id, eventId: e.id }, manualJobHelpers(1, 10))));
    } finally {
      await t.startWorkers();
    }
    await t.settle();
    const same = (await contacts()).filter((c) => c.email?.toLowerCase() === 'same@example.com');
    expect(same).toHaveLength(1);
    const sent = (await outbox()).filter((e) => e.recipientId.startsWith('lead:S-'));
    expect(sent.map((e) => e.recipientId).sort()).toEqual(ids.map((id) => `lead:${id}`));
    expect(new Set(sent.map((e) => e.contactId))).toEqual(new Set([String(same[0]!.id)]));
    expect((await t.db.selectFrom('contact_inboxes').select('id').where('contact_id', '=', same[0]!.id).execute()).length).toBe(1);
    expect((await t.db.selectFrom('conversations').select('id').where('contact_id', '=', same[0]!.id).execute()).length).toBe(1);
  });

  it('leads of one known contact arriving together give it one contact inbox and one conversation', async () => {
    const known = await fixtures(t.db, ws.id).contact({ email: 'known@example.com' });
    const ids = ['K-1', 'K-2', 'K-3', 'K-4'];
    for (const id of ids) await seed(ws.id, id, 'known@example.com', [{ name: 'full_name', values: ['Kim Known'] }]);
    await t.stopWorkers();
    try {
      await t.webhook('net', leadgen(ids));
      const tasks = engineTasks(engineDepsOf(t.app.deps));
      const events = await Promise.all(ids.map((id) => eventOf(id)));
      await Promise.all(events.map((e) => tasks[PROCESS_EVENT_TASK]!({ workspaceId: ws.id, eventId: e.id }, manualJobHelpers(1, 10))));
    } finally {
      await t.startWorkers();
    }
    await t.settle();
    expect((await contacts()).filter((c) => c.email === 'known@example.com')).toEqual([{ id: known, email: 'known@example.com' }]);
    expect((await t.db.selectFrom('contact_inboxes').select('id').where('contact_id', '=', known).execute()).length).toBe(1);
    expect((await t.db.selectFrom('conversations').select('id').where('contact_id', '=', known).execute()).length).toBe(1);
    expect((await outbox()).filter((e) => e.contactId === String(known))).toHaveLength(4);
  });

  it('over the MAC limit a new person gets nothing (outcome macLimitReached); a contact that already counts is answered', async () => {
    const limited = await t.workspace({ name: 'Limited', developmentMode: true, macLimit: 1 });
    const LIMITED_PAGE = '8100002';
    await inbox(limited.id, LIMITED_PAGE);
    await fixtures(t.db, limited.id).leadAd('Limited leads', { pageId: LIMITED_PAGE, formIds: [FORM] });
    await fixtures(t.db, limited.id).contact({ email: 'counted@example.com', createdAt: new Date().toISOString() });
    await seed(limited.id, 'M-1', 'newcomer@example.com');
    await seed(limited.id, 'M-2', 'counted@example.com');
    await t.webhook('net', leadgen(['M-1'], LIMITED_PAGE));
    await t.settle();
    expect((await eventOf('M-1', limited.id)).outcome).toBe('macLimitReached');
    expect((await contacts(limited.id)).map((c) => c.email)).toEqual(['counted@example.com']);
    expect(await outbox(limited)).toEqual([]);

    await t.webhook('net', leadgen(['M-2'], LIMITED_PAGE));
    await t.settle();
    expect((await outbox(limited)).map((e) => e.recipientId)).toEqual(['lead:M-2']);
  });

  it('workspaces connecting the same page each act with their own automation and leads, and see only their own', async () => {
    const SHARED = '8100003';
    const other = await t.workspace({ name: 'Other', developmentMode: true });
    const third = await t.workspace({ name: 'Third', developmentMode: true });
    await inbox(ws.id, SHARED);
    await inbox(other.id, SHARED);
    await inbox(third.id, SHARED);
    const mine = await fixtures(t.db, ws.id).leadAd('Mine', { pageId: SHARED, formIds: [FORM], reply: { type: 'text', value: 'mine' } });
    const theirs = await fixtures(t.db, other.id).leadAd('Theirs', { pageId: SHARED, formIds: [FORM], reply: { type: 'text', value: 'theirs' } });
    await seed(ws.id, 'T-1', 'mine@example.com');
    await seed(other.id, 'T-1', 'theirs@example.com');
    await seed(third.id, 'T-1', 'third@example.com');
    expect((await t.webhook('net', leadgen(['T-1'], SHARED))).body).toMatchObject({ stored: 3 });
    await t.settle();
    const myEntries = (await outbox()).filter((e) => e.recipientId === 'lead:T-1');
    expect(myEntries).toEqual([expect.objectContaining({ automationId: String(mine), payload: { type: 'text', text: 'mine' } })]);
    expect(await outbox(other)).toEqual([expect.objectContaining({ recipientId: 'lead:T-1', automationId: String(theirs), payload: { type: 'text', text: 'theirs' } })]);
    expect((await contacts(other.id)).map((c) => c.email)).toEqual(['theirs@example.com']);
    expect((await contacts()).map((c) => c.email)).not.toContain('theirs@example.com');
    // The third workspace has no automation for the page: nothing.
    expect((await eventOf('T-1', third.id)).outcome).toBe('no automation');
    expect(await contacts(third.id)).toEqual([]);
    expect(await outbox(third)).toEqual([]);
  });

  it('a send the network refuses: an error log each try, retried while worth it, then the message stored as failed', async () => {
    await t.stopWorkers();
    try {
      let refusal = new ChannelError({ reason: 'rateLimited', httpCode: 429, providerMessage: '(#4) Application request limit reached' });
      const adapter: ChannelAdapter = { ...t.app.deps.adapter, sendMessage: async () => Promise.reject(refusal) };
      const tasks = engineTasks({ ...engineDepsOf(t.app.deps), adapter });
      await seed(ws.id, 'F-1', 'refused@example.com');
      await t.webhook('net', leadgen(['F-1']));
      const event = await eventOf('F-1');
      // Its job waits (no workers): this test runs it, with the refusing adapter.
      expect((await t.jobs()).filter((j) => j.task === PROCESS_EVENT_TASK && (j.payload as ProcessEventsItem[]).some((item) => item.eventId === event.id))).toHaveLength(1);
      await tasks[PROCESS_EVENT_TASK]!({ workspaceId: ws.id, eventId: event.id }, manualJobHelpers(1, 10));
      const replyJob = (await t.jobs()).find((j) => j.task === LEAD_REPLY_TASK && (j.payload as LeadReplyPayload).eventId === event.id);
      expect(replyJob).toMatchObject({ key: `lead:${event.id}:reply` });
      const payload = replyJob!.payload as LeadReplyPayload;

      // Retryable with tries left: logged and thrown (the queue retries with backoff); nothing stored.
      await expect(tasks[LEAD_REPLY_TASK]!(payload, manualJobHelpers(1, 3))).rejects.toThrow(/rateLimited/);
      expect((await messages()).filter((m) => m.contact_id === payload.contactId)).toEqual([]);
      // The last try: logged, and the message stored as failed.
      await tasks[LEAD_REPLY_TASK]!(payload, manualJobHelpers(3, 3));
      expect((await messages()).filter((m) => m.contact_id === payload.contactId)).toEqual([
        expect.objectContaining({ status: 'failed', text: 'Hi', error: 'rateLimited: (#4) Application request limit reached' }),
      ]);
      expect((await errorLogs()).filter((l) => l.contactId === String(payload.contactId))).toEqual([
        expect.objectContaining({ action: 'net', detail: '(#4) Application request limit reached', httpCode: '429' }),
        expect.objectContaining({ action: 'net', detail: '(#4) Application request limit reached', httpCode: '429' }),
      ]);
      expect((await eventOf('F-1')).outcome).toMatch(/; reply failed \(message \d+\): rateLimited: \(#4\) Application request limit reached$/);

      // A refusal not worth retrying fails at once, on the first try.
      refusal = new ChannelError({ reason: 'windowClosed', httpCode: 400, providerMessage: 'Outside of allowed window', providerCode: 10, providerSubcode: 2018278 });
      await seed(ws.id, 'F-2', 'closed@example.com');
      await t.webhook('net', leadgen(['F-2']));
      const second = await eventOf('F-2');
      await tasks[PROCESS_EVENT_TASK]!({ workspaceId: ws.id, eventId: second.id }, manualJobHelpers(1, 10));
      const secondPayload = (await t.jobs()).find((j) => j.task === LEAD_REPLY_TASK && (j.payload as LeadReplyPayload).eventId === second.id)!.payload as LeadReplyPayload;
      await tasks[LEAD_REPLY_TASK]!(secondPayload, manualJobHelpers(1, 10));
      expect((await messages()).filter((m) => m.contact_id === secondPayload.contactId)).toEqual([expect.objectContaining({ status: 'failed', error: 'windowClosed: Outside of allowed window' })]);
    } finally {
      await t.startWorkers();
    }
    // The queued jobs run now with the sandbox: both events are done and both replies recorded; nothing is sent again.
    await t.settle();
    expect((await outbox()).filter((e) => e.recipientId === 'lead:F-1' || e.recipientId === 'lead:F-2')).toEqual([]);
    expect((await messages()).filter((m) => m.status === 'failed')).toHaveLength(2);
  });
});
