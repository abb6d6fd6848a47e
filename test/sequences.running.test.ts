import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { fixtures } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';

/**
 * Sequences that send: each step runs its flow once, at its moment by the engine's clock, moved
 * into its send window, skipped with a reason when it cannot send. The clock is set years ahead of
 * real time, so the queue (real time) holds every delayed job until the test moves the clock and
 * makes the jobs due; a job that runs before its step's moment puts itself back in line.
 */
describe(`sequences running on schedule (${testEngine})`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let inbox: number;
  const MONDAY_8AM = '2030-01-07T08:00:00.000Z';
  const minutes = (n: number) => n * 60_000;

  beforeAll(async () => {
    t = await createEngineTestApp();
    ws = await t.workspace({ name: 'Sequences' });
    f = fixtures(t.db, ws.id);
    inbox = await f.inbox('Page', 'net');
  });
  afterAll(() => t.close());

  const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ws.developerToken, body });

  /** A contact reachable in the inbox: a person id there and a conversation it wrote in `repliedAgoMs` before the clock. */
  async function reachableContact(firstName: string, repliedAgoMs = minutes(60)): Promise<{ contact: number; conversation: number; contactInbox: number }> {
    const contact = await f.contact({ firstName, email: `${firstName.toLowerCase()}-${Math.floor(performance.now() * 1000)}@example.com` });
    const contactInbox = await f.contactInbox(contact, inbox, 'net');
    await t.db.updateTable('contact_inboxes').set({ source_id: `psid-${contact}` }).where('id', '=', contactInbox).execute();
    const conversation = await f.conversation({ contactId: contact, inboxId: inbox });
    await t.db.updateTable('conversations').set({ contact_replied_at: new Date(t.clock.now().getTime() - repliedAgoMs).toISOString() }).where('id', '=', conversation).execute();
    return { contact, conversation, contactInbox };
  }

  async function sequenceWithSteps(name: string, steps: Record<string, unknown>[]): Promise<{ id: string; steps: string[] }> {
    const created = await api('POST', '/v1/sequences', { name });
    expect(created.status).toBe(200);
    const ids: string[] = [];
    for (const [order, step] of steps.entries()) {
      const res = await api('PUT', `/v1/sequences/${created.body.id}/steps`, { order, ...step });
      expect([res.status, res.body]).toEqual([200, { stepId: expect.stringMatching(/^\d+$/) }]);
      ids.push(res.body.stepId);
    }
    return { id: created.body.id, steps: ids };
  }

  /** The texts the sandbox sent to the contact, oldest first. */
  async function sentTo(contact: number): Promise<string[]> {
    const rows = await t.db.selectFrom('outbox').select(['payload', 'contact_id']).where('workspace_id', '=', ws.id).where('contact_id', '=', contact).where('action', '=', 'message').orderBy('id').execute();
    return rows.map((r) => JSON.parse(r.payload as string).text as string);
  }

  async function tick(to: string | number): Promise<void> {
    if (typeof to === 'number') t.clock.advance(to);
    else t.clock.set(to);
    await t.dueNow();
    await t.settle();
  }

  const stepEvents = async (sequence: string, step: string, eventType?: string) =>
    (await api('GET', `/v1/sequences/${sequence}/steps/${step}/contacts${eventType ? `?eventType=${encodeURIComponent(eventType)}` : ''}`)).body;

  it('a three-step sequence sends each step once, at its moment, across a restart of the workers', async () => {
    t.clock.set(MONDAY_8AM);
    const hello = await f.flow('Hello', [{ type: 'text', text: 'Hello {{first_name}}' }]);
    const tip = await f.flow('Tip', [{ type: 'text', text: 'A tip' }]);
    const offer = await f.flow('Offer', [{ type: 'text', text: 'The offer' }]);
    const seq = await sequenceWithSteps('Onboarding', [
      { delayUnit: 'immediate', flowId: String(hello) },
      { delayUnit: 'minutes', delayMinutes: 10, flowId: String(tip) },
      { delayUnit: 'specificTime', specificDateTime: '2030-01-07T10:30:00.000Z', flowId: String(offer), sendTimeStart: '09:00', sendTimeEnd: '17:00', sendDays: ['mon', 'tue', 'wed', 'thu', 'fri'] },
    ]);
    const { contact } = await reachableContact('Ada');

    expect((await api('POST', `/v1/contacts/id:${contact}/sequences`, { sequenceIds: [seq.id] })).status).toBe(200);
    await t.settle();
    expect(await sentTo(contact)).toEqual(['Hello Ada']);

    await tick(minutes(9));
    expect(await sentTo(contact)).toEqual(['Hello Ada']);

    await t.stopWorkers();
    await t.startWorkers();
    await tick(minutes(1));
    expect(await sentTo(contact)).toEqual(['Hello Ada', 'A tip']);

    await tick('2030-01-07T10:29:00.000Z');
    expect(await sentTo(contact)).toEqual(['Hello Ada', 'A tip']);
    await tick('2030-01-07T10:30:00.000Z');
    expect(await sentTo(contact)).toEqual(['Hello Ada', 'A tip', 'The offer']);

    // Nothing is left to send, however often the jobs are made due.
    await tick(minutes(60 * 24));
    expect(await sentTo(contact)).toEqual(['Hello Ada', 'A tip', 'The offer']);
    for (const step of seq.steps) {
      expect(await stepEvents(seq.id, step)).toEqual({
        data: [{ contactId: String(contact), firstName: 'Ada', lastName: null, eventType: 'message:sent', reason: null, createdAt: expect.any(String) }],
        total: 1,
        pageCount: 1,
      });
    }
    // The messages are on the conversation too.
    const messages = await t.db.selectFrom('messages').select('text').where('contact_id', '=', contact).where('direction', '=', 'outgoing').orderBy('id').execute();
    expect(messages.map((m) => m.text)).toEqual(['Hello Ada', 'A tip', 'The offer']);
  });

  it('unsubscribing cancels the steps still pending', async () => {
    t.clock.set('2030-02-04T08:00:00.000Z');
    const flow = await f.flow('Nudge', [{ type: 'text', text: 'Nudge' }]);
    const seq = await sequenceWithSteps('Nudges', [
      { delayUnit: 'immediate', flowId: String(flow) },
      { delayUnit: 'minutes', delayMinutes: 10, flowId: String(flow) },
    ]);
    const { contact } = await reachableContact('Bob');
    await api('POST', `/v1/contacts/id:${contact}/sequences`, { sequenceIds: [seq.id] });
    await t.settle();
    expect(await sentTo(contact)).toEqual(['Nudge']);
    expect((await api('DELETE', `/v1/contacts/id:${contact}/sequences`, { sequenceIds: [seq.id] })).status).toBe(200);
    await tick(minutes(30));
    expect(await sentTo(contact)).toEqual(['Nudge']);
    expect(await stepEvents(seq.id, seq.steps[1]!)).toEqual({ data: [], total: 0, pageCount: 0 });
  });

  it('a step due outside its send window moves to the next opening (Friday 17:05 -> Monday 09:00)', async () => {
    t.clock.set('2030-03-08T16:55:00.000Z');
    const flow = await f.flow('Window', [{ type: 'text', text: 'In the window' }]);
    const seq = await sequenceWithSteps('Office hours', [
      { delayUnit: 'immediate', flowId: String(flow) },
      { delayUnit: 'minutes', delayMinutes: 10, flowId: String(flow), sendTimeStart: '09:00', sendTimeEnd: '17:00', sendDays: ['mon', 'tue', 'wed', 'thu', 'fri'] },
    ]);
    const { contact, conversation } = await reachableContact('Cleo');
    await api('POST', `/v1/contacts/id:${contact}/sequences`, { sequenceIds: [seq.id] });
    await t.settle();
    expect(await sentTo(contact)).toEqual(['In the window']);
    await tick('2030-03-08T17:05:00.000Z');
    await tick('2030-03-11T08:59:00.000Z');
    expect(await sentTo(contact)).toEqual(['In the window']);
    // The person wrote again over the weekend: the 24-hour window is open on Monday.
    await t.db.updateTable('conversations').set({ contact_replied_at: '2030-03-11T08:00:00.000Z' }).where('id', '=', conversation).execute();
    await tick('2030-03-11T09:00:00.000Z');
    expect(await sentTo(contact)).toEqual(['In the window', 'In the window']);
  });

  it('records why a step sent nothing: the 24-hour window closed, another app holding the thread', async () => {
    t.clock.set('2030-04-01T08:00:00.000Z');
    const flow = await f.flow('Late', [{ type: 'text', text: 'Late' }]);
    const seq = await sequenceWithSteps('Reasons', [{ delayUnit: 'immediate', flowId: String(flow) }]);
    const silent = await reachableContact('Dana', minutes(60 * 25));
    const held = await reachableContact('Eve');
    const pass = await api('POST', `/v1/conversations/${held.conversation}/thread-control`, { contactInboxId: String(held.contactInbox), action: 'pass' });
    expect(pass.status).toBe(200);
    // The hand-over happened at the engine's time (the API's clock is the real one, years before).
    await t.db.updateTable('thread_states').set({ transitioned_at: t.clock.now().toISOString(), expires_at: new Date(t.clock.now().getTime() + minutes(60 * 24)).toISOString() }).where('contact_inbox_id', '=', held.contactInbox).execute();
    for (const who of [silent, held]) await api('POST', `/v1/contacts/id:${who.contact}/sequences`, { sequenceIds: [seq.id] });
    await t.settle();
    expect([await sentTo(silent.contact), await sentTo(held.contact)]).toEqual([[], []]);
    const skipped = await stepEvents(seq.id, seq.steps[0]!, 'step:skipped');
    expect(skipped.data.map((e: { contactId: string; reason: string }) => [e.contactId, e.reason]).sort()).toEqual(
      [
        [String(silent.contact), 'messagingWindowClosed'],
        [String(held.contact), 'threadNotOwned'],
      ].sort(),
    );
    expect(skipped.total).toBe(2);
  });

  it('a switched-off sequence holds its subscribers; switching it on resumes them', async () => {
    t.clock.set('2030-05-06T08:00:00.000Z');
    const flow = await f.flow('Resumed', [{ type: 'text', text: 'Resumed' }]);
    const seq = await sequenceWithSteps('Paused', [{ delayUnit: 'immediate', flowId: String(flow) }]);
    expect((await api('PATCH', `/v1/sequences/${seq.id}`, { isActive: false })).status).toBe(200);
    const { contact } = await reachableContact('Finn');
    await api('POST', `/v1/contacts/id:${contact}/sequences`, { sequenceIds: [seq.id] });
    await tick(minutes(5));
    expect(await sentTo(contact)).toEqual([]);
    expect((await api('PATCH', `/v1/sequences/${seq.id}`, { isActive: true })).status).toBe(200);
    await t.settle();
    expect(await sentTo(contact)).toEqual(['Resumed']);
  });

  it('subscribers of a sequence without steps start when its first step is added', async () => {
    t.clock.set('2030-06-03T08:00:00.000Z');
    const flow = await f.flow('Late step', [{ type: 'text', text: 'First step at last' }]);
    const seq = await sequenceWithSteps('Empty', []);
    const { contact } = await reachableContact('Gus');
    await api('POST', `/v1/contacts/id:${contact}/sequences`, { sequenceIds: [seq.id] });
    await t.settle();
    expect(await sentTo(contact)).toEqual([]);
    await api('PUT', `/v1/sequences/${seq.id}/steps`, { order: 0, delayUnit: 'immediate', flowId: String(flow) });
    await t.settle();
    expect(await sentTo(contact)).toEqual(['First step at last']);
  });
});
