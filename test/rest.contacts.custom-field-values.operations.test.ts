import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData, notFound } from './support/rest.js';

/**
 * PATCH /v1/contacts/{identifier}/custom-fields {operations}: 1 to 20 set/clear/increment
 * operations applied in order, in one transaction, all or nothing; answers the contact's whole list.
 */
describe('PATCH /v1/contacts/{identifier}/custom-fields', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let token: { token: string };
  let serial = 0;
  let company: number;
  let orders: number;
  let sms: number;
  let birthday: number;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    token = { token: ws.developerToken };
    const f = fixtures(t.db, ws.id);
    company = await f.customField('Company', 'shortText', 'Where they work');
    orders = await f.customField('Order count', 'number');
    sms = await f.customField('Wants SMS', 'boolean');
    birthday = await f.customField('Birthday', 'date');
  });
  afterAll(() => t.close());

  const newContact = () => fixtures(t.db, ws.id).contact({ email: `c${++serial}@example.com` });
  const patch = (contact: number | string, operations: unknown, options = token) =>
    api.request('PATCH', `/v1/contacts/${contact}/custom-fields`, { ...options, body: { operations } });
  /** The whole list, in field order, with these values ("" for the others). */
  const list = (values: { company?: string; orders?: string; sms?: string; birthday?: string }) => ({
    data: [
      { id: String(company), name: 'Company', description: 'Where they work', value: values.company ?? '', type: 'shortText' },
      { id: String(orders), name: 'Order count', description: '', value: values.orders ?? '', type: 'number' },
      { id: String(sms), name: 'Wants SMS', description: '', value: values.sms ?? '', type: 'boolean' },
      { id: String(birthday), name: 'Birthday', description: '', value: values.birthday ?? '', type: 'date' },
    ],
  });
  const rowsOf = (contact: number) =>
    t.db.selectFrom('contact_custom_fields').select(['custom_field_id', 'value', 'updated_at']).where('contact_id', '=', contact).orderBy('custom_field_id').execute();

  it('applies set, clear and increment in order and answers the whole list', async () => {
    const c = await newContact();
    await fixtures(t.db, ws.id).fieldValue(c, birthday, '1990-01-01');
    const res = await patch(c, [
      { op: 'set', name: 'company', value: 'Northwind' },
      { op: 'increment', customFieldId: String(orders), value: 2 },
      { op: 'set', customFieldId: sms, value: 'TRUE' },
      { op: 'clear', name: 'BIRTHDAY' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(list({ company: 'Northwind', orders: '2', sms: 'true' }));
    expect((await api.request('GET', `/v1/contacts/${c}/custom-fields`, token)).body).toEqual(res.body);
  });

  it('increments exactly: an unset value counts as 0, decimals add without float error, strings and negatives too', async () => {
    const c = await newContact();
    expect((await patch(c, [{ op: 'increment', name: 'Order count', value: 0.1 }])).body).toEqual(list({ orders: '0.1' }));
    expect((await patch(c, [{ op: 'increment', name: 'Order count', value: 0.2 }])).body).toEqual(list({ orders: '0.3' }));
    expect((await patch(c, [{ op: 'increment', name: 'Order count', value: '-1.30' }])).body).toEqual(list({ orders: '-1' }));
    expect((await patch(c, [{ op: 'increment', name: 'Order count', value: 1 }])).body).toEqual(list({ orders: '0' }));
    expect((await patch(c, [{ op: 'increment', name: 'Order count', value: '1e3' }])).body).toEqual(list({ orders: '1000' }));
  });

  it('later operations see earlier ones on the same field; set null or "" clears', async () => {
    const c = await newContact();
    const res = await patch(c, [
      { op: 'set', name: 'Order count', value: 5 },
      { op: 'increment', name: 'Order count', value: 2 },
      { op: 'set', name: 'Company', value: 'Gone soon' },
      { op: 'set', name: 'Company', value: null },
      { op: 'set', name: 'Wants SMS', value: false },
      { op: 'set', name: 'Birthday', value: '2000-02-29' },
      { op: 'set', name: 'Birthday', value: '' },
    ]);
    expect(res.body).toEqual(list({ orders: '7', sms: 'false' }));
    expect((await rowsOf(c)).map((r) => [r.custom_field_id, r.value])).toEqual([
      [orders, '7'],
      [sms, 'false'],
    ]);
  });

  it('writes only values that change: an operation that sets the stored value leaves its row alone', async () => {
    const c = await newContact();
    await fixtures(t.db, ws.id).fieldValue(c, company, 'Same');
    const before = await rowsOf(c);
    expect((await patch(c, [{ op: 'set', name: 'Company', value: 'Same' }, { op: 'increment', name: 'Order count', value: 0 }])).body).toEqual(list({ company: 'Same', orders: '0' }));
    const after = await rowsOf(c);
    expect(after[0]).toEqual(before[0]);
  });

  it('unknown field ids and names are 404 naming them all; nothing changes', async () => {
    const c = await newContact();
    await fixtures(t.db, ws.id).fieldValue(c, company, 'Keep');
    const theirs = await fixtures(t.db, other.id).customField('Theirs', 'number');
    const before = await rowsOf(c);
    const res = await patch(c, [
      { op: 'set', name: 'Company', value: 'Changed' },
      { op: 'set', customFieldId: '424242', value: 'x' },
      { op: 'clear', name: 'No such field' },
      { op: 'increment', customFieldId: theirs, value: 1 },
      { op: 'clear', name: 'Theirs' },
      { op: 'clear', customFieldId: '99999999999' },
    ]);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ ...notFound('Custom field'), data: { resource: 'Custom field', ids: ['424242', String(theirs), '99999999999'], names: ['No such field', 'Theirs'] } });
    expect(await rowsOf(c)).toEqual(before);
    const onlyIds = await patch(c, [{ op: 'clear', customFieldId: 424242 }]);
    expect(onlyIds.body).toEqual({ ...notFound('Custom field'), data: { resource: 'Custom field', ids: ['424242'], names: [] } });
  });

  it('values that do not fit are 422 at their operation, all issues at once; nothing changes', async () => {
    const c = await newContact();
    await fixtures(t.db, ws.id).fieldValue(c, orders, '3');
    const before = await rowsOf(c);
    const res = await patch(c, [
      { op: 'set', name: 'Company', value: 'Fine' },
      { op: 'set', name: 'Order count', value: 'three' },
      { op: 'increment', name: 'Company', value: 1 },
      { op: 'increment', name: 'Order count', value: 'a lot' },
      { op: 'set', name: 'Wants SMS', value: 'yes' },
      { op: 'set', name: 'Birthday', value: '1990-02-30' },
      { op: 'set', name: 'Company', value: 42 },
    ]);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalidRequestData([
        { message: 'value must be a number: a JSON number or a decimal string such as "3.5"', path: ['body', 'operations', 1, 'value'] },
        { message: 'increment needs a number field; "Company" is a shortText field', path: ['body', 'operations', 2, 'op'] },
        { message: 'value must be a number: a JSON number or a decimal string such as "3.5"', path: ['body', 'operations', 3, 'value'] },
        { message: 'value must be true or false (or the string "true" or "false")', path: ['body', 'operations', 4, 'value'] },
        { message: 'value must be a calendar date written YYYY-MM-DD, e.g. 2026-03-01', path: ['body', 'operations', 5, 'value'] },
        { message: 'value must be a string', path: ['body', 'operations', 6, 'value'] },
      ]),
    );
    expect(await rowsOf(c)).toEqual(before);
  });

  it('an increment of a stored value that is not a number (written before types were checked) is 422 at its op', async () => {
    const c = await newContact();
    await fixtures(t.db, ws.id).fieldValue(c, orders, 'value 12');
    const res = await patch(c, [{ op: 'increment', name: 'Order count', value: 1 }]);
    expect(res.body).toEqual(invalidRequestData([{ message: 'cannot increment: the contact\'s value "value 12" is not a number', path: ['body', 'operations', 0, 'op'] }]));
    // A set replaces it.
    expect((await patch(c, [{ op: 'set', name: 'Order count', value: 12 }, { op: 'increment', name: 'Order count', value: 1 }])).body).toEqual(list({ orders: '13' }));
  });

  it('checks the shape of each operation and the count (1 to 20)', async () => {
    const c = await newContact();
    const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
      [[], [{ message: 'operations must hold at least one operation', path: ['body', 'operations'] }]],
      [Array.from({ length: 21 }, () => ({ op: 'clear', name: 'Company' })), [{ message: 'operations must hold at most 20 operations', path: ['body', 'operations'] }]],
      [[{ op: 'bump', name: 'Company' }], [{ message: 'op must be set, clear or increment', path: ['body', 'operations', 0, 'op'] }]],
      [[{ name: 'Company', value: 1 }], [{ message: 'op must be set, clear or increment', path: ['body', 'operations', 0, 'op'] }]],
      [[{ op: 'set', customFieldId: String(company), name: 'Company', value: 'x' }], [{ message: 'Give exactly one of customFieldId or name', path: ['body', 'operations', 0] }]],
      [[{ op: 'clear' }], [{ message: 'Give exactly one of customFieldId or name', path: ['body', 'operations', 0] }]],
      [[{ op: 'set', name: 'Company' }], [{ message: 'Required', path: ['body', 'operations', 0, 'value'] }]],
      [[{ op: 'increment', name: 'Order count' }], [{ message: 'Required', path: ['body', 'operations', 0, 'value'] }]],
      [[{ op: 'increment', name: 'Order count', value: true }], [{ message: 'value must be a number', path: ['body', 'operations', 0, 'value'] }]],
      [[{ op: 'clear', name: 'Company', value: 'x' }], [{ message: 'Unrecognized key: "value"', path: ['body', 'operations', 0, 'value'] }]],
      [[{ op: 'set', customFieldId: 'abc', value: 'x' }], [{ message: 'must be a digit string', path: ['body', 'operations', 0, 'customFieldId'] }]],
      [[{ op: 'set', name: ' ', value: 'x' }], [{ message: 'name must not be empty', path: ['body', 'operations', 0, 'name'] }]],
    ];
    for (const [operations, issues] of cases) {
      const res = await patch(c, operations);
      expect(res.status, JSON.stringify(operations).slice(0, 80)).toBe(422);
      expect(res.body).toEqual(invalidRequestData(issues));
    }
    const body = await api.request('PATCH', `/v1/contacts/${c}/custom-fields`, { ...token, body: { ops: [] } });
    expect(body.body).toEqual(
      invalidRequestData([
        { message: 'Required', path: ['body', 'operations'] },
        { message: 'Unrecognized key: "ops"', path: ['body', 'ops'] },
      ]),
    );
    expect(await rowsOf(c)).toEqual([]);
    // Twenty is fine.
    expect((await patch(c, Array.from({ length: 20 }, () => ({ op: 'increment', name: 'Order count', value: 1 })))).body).toEqual(list({ orders: '20' }));
  });

  it("is 404 for an unknown contact and for the other workspace's; their values stay", async () => {
    const g = fixtures(t.db, other.id);
    const theirs = await g.contact({ email: 'theirs@example.com' });
    const theirField = await g.customField('Company');
    await g.fieldValue(theirs, theirField, 'Theirs');
    for (const ref of ['424242', String(theirs), 'theirs@example.com']) {
      const res = await patch(ref, [{ op: 'set', name: 'Company', value: 'Mine' }]);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound('Contact'));
    }
    expect((await rowsOf(theirs)).map((r) => r.value)).toEqual(['Theirs']);
  });

  it('concurrent increments on one contact all count', async () => {
    const c = await newContact();
    const results = await Promise.all(Array.from({ length: 8 }, () => patch(c, [{ op: 'increment', name: 'Order count', value: 1 }])));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((await rowsOf(c)).map((r) => r.value)).toEqual(['8']);
  });
});
