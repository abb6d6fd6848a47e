import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { event, recordedEvents } from './support/recorded-events.js';

/**
 * customFieldValueChanged (workspace_events, written with the change): one per field whose stored
 * value changed, with the field's name and the stored text before and after (null when unset), from
 * setting one value (PUT, the legacy POST, GraphQL), clearing one or all, the PATCH operations and
 * the PUT `fields` (the final value against the value before the call). Setting a value to what it
 * was, clearing an unset one, a refused batch, a type change converting values and a field's
 * deletion record nothing.
 */
describe(`events of custom-field values on ${testEngine}`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let events: ReturnType<typeof recordedEvents>;
  let serial = 0;
  const field = { company: 0, orders: 0, vip: 0, plan: 0 };

  const api = (method: string, path: string, body?: unknown, token = ws.developerToken) => t.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await api(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const changed = (contact: number, name: string, oldValue: string | null, newValue: string | null) =>
    event('customFieldValueChanged', 'custom_field_changed', contact, { custom_field: { name, old_value: oldValue, new_value: newValue } });
  const newContact = () => f.contact({ email: `v${++serial}@example.com` });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    f = fixtures(t.db, ws.id);
    field.company = await f.customField('Company');
    field.orders = await f.customField('Order count', 'number');
    field.vip = await f.customField('VIP', 'boolean');
    field.plan = await f.customField('Plan');
    events = recordedEvents(t.db, ws.id);
  });
  afterAll(() => t?.close());

  it('PUT one value: set, changed, set to the same canonical value (nothing), cleared with null', async () => {
    const c = await newContact();
    await ok('PUT', `/v1/contacts/${c}/custom-fields/Order count`, { value: 3 });
    expect(await events.next()).toEqual([changed(c, 'Order count', null, '3')]);
    await ok('PUT', `/v1/contacts/${c}/custom-fields/${field.orders}`, { value: '4.0' });
    expect(await events.next()).toEqual([changed(c, 'Order count', '3', '4')]);
    await ok('PUT', `/v1/contacts/${c}/custom-fields/order COUNT`, { value: 4 });
    expect(await events.next()).toEqual([]);
    await ok('PUT', `/v1/contacts/${c}/custom-fields/Order count`, { value: null });
    expect(await events.next()).toEqual([changed(c, 'Order count', '4', null)]);
    await ok('PUT', `/v1/contacts/${c}/custom-fields/Order count`, { value: '' });
    expect(await events.next()).toEqual([]);
    // A value that does not fit: 422, nothing recorded.
    expect((await api('PUT', `/v1/contacts/${c}/custom-fields/Order count`, { value: 'many' })).status).toBe(422);
    expect(await events.next()).toEqual([]);
  });

  it('the legacy POST by field id, and GraphQL setContactCustomField, record the same', async () => {
    const c = await newContact();
    await f.fieldValue(c, field.company, 'Initech');
    await ok('POST', `/v1/contacts/${c}/custom-fields/${field.company}`, { value: 'Globex' });
    expect(await events.next()).toEqual([changed(c, 'Company', 'Initech', 'Globex')]);
    await ok('POST', `/v1/contacts/${c}/custom-fields/${field.company}`, { value: 'Globex' });
    expect(await events.next()).toEqual([]);
    const set = (value: string | null) =>
      t.graphql('mutation($c: String!, $f: String!, $v: String) { setContactCustomField(identifier: $c, idOrName: $f, value: $v) { value } }', { c: String(c), f: 'VIP', v: value }, { token: ws.userToken });
    expect((await set('TRUE')).body).toEqual({ data: { setContactCustomField: { value: 'true' } } });
    expect(await events.next()).toEqual([changed(c, 'VIP', null, 'true')]);
    await set('true');
    expect(await events.next()).toEqual([]);
  });

  it('DELETE one value: the value it had; an unset one records nothing', async () => {
    const c = await newContact();
    await f.fieldValue(c, field.plan, 'gold');
    await ok('DELETE', `/v1/contacts/${c}/custom-fields/Plan`);
    expect(await events.next()).toEqual([changed(c, 'Plan', 'gold', null)]);
    await ok('DELETE', `/v1/contacts/${c}/custom-fields/Plan`);
    expect(await events.next()).toEqual([]);
  });

  it('DELETE all values: one event per value cleared, by field; again records nothing', async () => {
    const c = await newContact();
    await f.fieldValue(c, field.plan, 'silver');
    await f.fieldValue(c, field.company, 'Hooli');
    await ok('DELETE', `/v1/contacts/${c}/custom-fields`);
    expect(await events.next()).toEqual([changed(c, 'Company', 'Hooli', null), changed(c, 'Plan', 'silver', null)]);
    const res = await t.graphql('mutation($c: String!) { clearContactCustomFields(identifier: $c) { success } }', { c: String(c) }, { token: ws.developerToken });
    expect(res.body).toEqual({ data: { clearContactCustomFields: { success: true } } });
    expect(await events.next()).toEqual([]);
  });

  it('PATCH operations: one event per field whose final value differs from before the call', async () => {
    const c = await newContact();
    await f.fieldValue(c, field.orders, '2');
    await f.fieldValue(c, field.plan, 'gold');
    await f.fieldValue(c, field.company, 'Acme');
    await ok('PATCH', `/v1/contacts/${c}/custom-fields`, {
      operations: [
        { op: 'increment', name: 'Order count', value: 1 },
        { op: 'increment', customFieldId: String(field.orders), value: 2 },
        // Set and set back: no change.
        { op: 'set', name: 'Plan', value: 'bronze' },
        { op: 'set', name: 'Plan', value: 'gold' },
        { op: 'clear', name: 'Company' },
        { op: 'set', name: 'VIP', value: false },
      ],
    });
    expect(await events.next()).toEqual([changed(c, 'Order count', '2', '5'), changed(c, 'Company', 'Acme', null), changed(c, 'VIP', null, 'false')]);
    // A batch with an issue changes nothing and records nothing.
    expect((await api('PATCH', `/v1/contacts/${c}/custom-fields`, { operations: [{ op: 'set', name: 'Plan', value: 'platinum' }, { op: 'increment', name: 'Plan', value: 1 }] })).status).toBe(422);
    expect(await events.next()).toEqual([]);
  });

  it('PUT fields (and GraphQL setContactCustomFields(fields:)): one event per value that changed', async () => {
    const c = await newContact();
    await f.fieldValue(c, field.company, 'Acme');
    await ok('PUT', `/v1/contacts/${c}/custom-fields`, { fields: [{ customFieldId: String(field.company), value: 'Acme' }, { customFieldId: String(field.plan), value: 'gold' }] });
    expect(await events.next()).toEqual([changed(c, 'Plan', null, 'gold')]);
    const res = await t.graphql(
      'mutation($c: String!, $fields: [ContactCustomFieldValueInput!]) { setContactCustomFields(identifier: $c, fields: $fields) { name } }',
      { c: String(c), fields: [{ customFieldId: String(field.company), value: 'Acme Corp' }, { customFieldId: String(field.plan), value: 'gold' }] },
      { token: ws.developerToken },
    );
    expect(res.body.errors).toBeUndefined();
    expect(await events.next()).toEqual([changed(c, 'Company', 'Acme', 'Acme Corp')]);
  });

  it("a field's type change converting values, and its deletion, record nothing", async () => {
    const score = await f.customField('Score', 'shortText');
    const c = await newContact();
    await f.fieldValue(c, score, '7.50');
    await ok('PUT', `/v1/custom-fields/${score}`, { type: 'number' });
    expect((await t.db.selectFrom('contact_custom_fields').select('value').where('custom_field_id', '=', score).executeTakeFirstOrThrow()).value).toBe('7.5');
    await ok('DELETE', `/v1/custom-fields/${score}`);
    expect(await events.next()).toEqual([]);
  });
});
