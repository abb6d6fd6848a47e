import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/** PUT, DELETE and the listings of a sequence's steps: the timing rules, 404s, and workspace scoping. */
describe(`sequence steps over REST (${testEngine})`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let sequence: string;
  let flow: string;

  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace({ name: 'Steps' });
    other = await t.workspace({ name: 'Other' });
    sequence = String(await fixtures(t.db, ws.id).sequence('Drip'));
    flow = String(await fixtures(t.db, ws.id).flow('Hello'));
  });
  afterAll(() => t.close());

  const put = (body: unknown, seq = sequence, token = ws.developerToken) => t.request('PUT', `/v1/sequences/${seq}/steps`, { token, body });
  const list = (seq = sequence, token = ws.developerToken) => t.request('GET', `/v1/sequences/${seq}/steps`, { token });
  const invalid = (message: string, path: string[]) => expect.objectContaining({ code: 'invalidRequestData', status: 422, data: expect.objectContaining({ issues: expect.arrayContaining([expect.objectContaining({ message, path: ['body', ...path] })]) }) });

  it('creates steps, lists them in order, and replaces one by stepId', async () => {
    const later = await put({ order: 1, delayUnit: 'days', delayDays: 2, flowId: flow });
    const first = await put({ order: 0, delayUnit: 'immediate', flowId: flow, sendTimeStart: '09:00', sendTimeEnd: '17:30', sendDays: ['mon', 'fri'] });
    expect([later.status, first.status]).toEqual([200, 200]);
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([first.body.stepId, later.body.stepId]);
    expect(res.body.data[0]).toEqual({
      id: first.body.stepId,
      sequenceId: sequence,
      order: 0,
      delayUnit: 'immediate',
      delayDays: null,
      delayMinutes: null,
      specificDateTime: null,
      flowId: flow,
      isActive: true,
      anytime: false,
      sendTimeStart: '09:00',
      sendTimeEnd: '17:30',
      sendDays: ['mon', 'fri'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const replaced = await put({ stepId: later.body.stepId, order: 1, delayUnit: 'hours', delayMinutes: 180, isActive: false });
    expect(replaced.body).toEqual({ stepId: later.body.stepId });
    const after = (await list()).body.data[1];
    expect(after).toMatchObject({ delayUnit: 'hours', delayDays: null, delayMinutes: 180, flowId: null, isActive: false, anytime: true, sendDays: [] });
  });

  it('refuses a delay that does not match its unit, and incomplete windows, with the contract message', async () => {
    expect((await put({ order: 0, delayUnit: 'minutes', delayDays: 3 })).body).toEqual(invalid('delayUnit does not match delayDays/delayMinutes', ['delayUnit']));
    expect((await put({ order: 0, delayUnit: 'immediate', delayMinutes: 3 })).body).toEqual(invalid('delayUnit does not match delayDays/delayMinutes', ['delayUnit']));
    expect((await put({ order: 0, delayUnit: 'days', delayDays: 100_000 })).body).toEqual(invalid('delayDays must be at most 99999', ['delayDays']));
    expect((await put({ order: 0, delayUnit: 'minutes', delayMinutes: 0 })).body).toEqual(invalid('delayMinutes must be at least 1', ['delayMinutes']));
    expect((await put({ order: 0, delayUnit: 'hours', delayMinutes: 90 })).body).toEqual(invalid('delayMinutes must be a whole number of hours (a multiple of 60) for delayUnit hours', ['delayMinutes']));
    expect((await put({ order: 0, delayUnit: 'specificTime' })).body).toEqual(invalid('specificDateTime is required for delayUnit specificTime', ['specificDateTime']));
    expect((await put({ order: 0, delayUnit: 'immediate', sendTimeStart: '09:00' })).body).toEqual(invalid('A send window needs sendTimeStart, sendTimeEnd and sendDays', ['sendTimeStart']));
    expect((await put({ order: 0, delayUnit: 'immediate', anytime: true, sendTimeStart: '09:00', sendTimeEnd: '10:00', sendDays: ['mon'] })).body).toEqual(
      invalid('anytime excludes a send window (sendTimeStart, sendTimeEnd, sendDays)', ['anytime']),
    );
    expect((await put({ order: 0, delayUnit: 'immediate', sendTimeStart: '9am', sendTimeEnd: '10:00', sendDays: ['mon'] })).body).toEqual(invalid('must be a time HH:mm (00:00 to 23:59)', ['sendTimeStart']));
    expect((await put({ order: 0, delayUnit: 'weekly' })).status).toBe(422);
  });

  it('404s: an unknown sequence, another sequence\'s step, an unknown flow, another workspace', async () => {
    const otherSequence = String(await fixtures(t.db, ws.id).sequence('Other drip'));
    const foreignStep = (await put({ order: 0, delayUnit: 'immediate' }, otherSequence)).body.stepId;
    const notFound = (resource: string) => expect.objectContaining({ code: 'notFound', status: 404, data: { resource } });
    expect((await put({ order: 0, delayUnit: 'immediate' }, '999999')).body).toEqual(notFound('Sequence'));
    expect((await put({ stepId: foreignStep, order: 0, delayUnit: 'immediate' })).body).toEqual(notFound('SequenceStep'));
    expect((await put({ order: 0, delayUnit: 'immediate', flowId: '999999' })).body).toEqual(notFound('Flow'));
    expect((await t.request('DELETE', `/v1/sequences/${sequence}/steps/${foreignStep}`, { token: ws.developerToken })).body).toEqual(notFound('SequenceStep'));
    expect((await list(sequence, other.developerToken)).body).toEqual(notFound('Sequence'));
    expect((await put({ order: 0, delayUnit: 'immediate' }, sequence, other.developerToken)).body).toEqual(notFound('Sequence'));
    expect((await t.request('GET', `/v1/sequences/${sequence}/steps/${foreignStep}/contacts`, { token: ws.developerToken })).body).toEqual(notFound('SequenceStep'));
  });

  it('deletes a step (204) and a sequence with its steps', async () => {
    const seq = String(await fixtures(t.db, ws.id).sequence('Short-lived'));
    const a = (await put({ order: 0, delayUnit: 'immediate' }, seq)).body.stepId;
    const b = (await put({ order: 1, delayUnit: 'minutes', delayMinutes: 5 }, seq)).body.stepId;
    const del = await t.request('DELETE', `/v1/sequences/${seq}/steps/${a}`, { token: ws.developerToken });
    expect([del.status, del.text]).toEqual([204, '']);
    expect((await list(seq)).body.data.map((s: { id: string }) => s.id)).toEqual([b]);
    expect((await t.request('DELETE', `/v1/sequences/${seq}`, { token: ws.developerToken })).status).toBe(200);
    expect(await t.db.selectFrom('sequence_steps').select('id').where('sequence_id', '=', Number(seq)).execute()).toEqual([]);
  });

  it('lists a step\'s contacts by event type, with the total, and refuses unknown types', async () => {
    const f = fixtures(t.db, ws.id);
    const seq = String(await f.sequence('Listed'));
    const step = (await put({ order: 0, delayUnit: 'immediate' }, seq)).body.stepId;
    const ada = await f.contact({ firstName: 'Ada', email: 'ada-steps@example.com' });
    const bob = await f.contact({ firstName: 'Bob', email: 'bob-steps@example.com' });
    const event = (contact: number, type: string, reason: string | null, at: string) => ({ workspace_id: ws.id, sequence_id: Number(seq), step_id: Number(step), contact_id: contact, event_type: type, reason, created_at: at });
    await t.db.insertInto('sequence_step_events').values([event(ada, 'message:sent', null, '2030-01-01T09:00:00.000Z'), event(bob, 'step:skipped', 'threadNotOwned', '2030-01-01T09:00:01.000Z')]).execute();
    const all = await t.request('GET', `/v1/sequences/${seq}/steps/${step}/contacts`, { token: ws.developerToken });
    expect(all.body).toEqual({
      data: [
        { contactId: String(bob), firstName: 'Bob', lastName: null, eventType: 'step:skipped', reason: 'threadNotOwned', createdAt: '2030-01-01T09:00:01.000Z' },
        { contactId: String(ada), firstName: 'Ada', lastName: null, eventType: 'message:sent', reason: null, createdAt: '2030-01-01T09:00:00.000Z' },
      ],
      total: 2,
      pageCount: 1,
    });
    const sent = await t.request('GET', `/v1/sequences/${seq}/steps/${step}/contacts?eventType=message:sent&perPage=1`, { token: ws.developerToken });
    expect([sent.body.total, sent.body.pageCount, sent.body.data.map((e: { contactId: string }) => e.contactId)]).toEqual([1, 1, [String(ada)]]);
    expect((await t.request('GET', `/v1/sequences/${seq}/steps/${step}/contacts?eventType=message:bounced`, { token: ws.developerToken })).status).toBe(422);
  });
});
