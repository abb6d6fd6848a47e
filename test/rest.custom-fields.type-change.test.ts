import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { isoNow, validationError } from './support/rest.js';

/**
 * PUT /v1/custom-fields/{id} changing the type (or a select field's options) of a field that has
 * values: every value is converted to the new type's canonical form, or, when any does not fit,
 * the answer is 422 validation naming them (the first 20 by contact id) and nothing changes.
 */
describe('changing the type of a custom field that has values', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let token: { token: string };
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    token = { token: ws.developerToken };
  });
  afterAll(() => t.close());

  /** A field of `type` (with options) and one contact per value, in order: returns the field and contact ids. */
  const fieldWith = async (type: string, values: string[], options: string[] | null = null) => {
    const f = fixtures(t.db, ws.id);
    const field = await f.customField(`Field ${++serial}`, type);
    if (options) await t.db.updateTable('custom_fields').set({ options: JSON.stringify(options) }).where('id', '=', field).execute();
    const contacts: number[] = [];
    for (const value of values) {
      const contact = await f.contact({ email: `c${serial}-${contacts.length}@example.com` });
      await f.fieldValue(contact, field, value);
      contacts.push(contact);
    }
    return { field, contacts };
  };
  const valuesOf = (field: number) =>
    t.db.selectFrom('contact_custom_fields').select(['contact_id', 'value', 'updated_at']).where('custom_field_id', '=', field).orderBy('contact_id').execute();
  const put = (field: number, body: unknown) => api.request('PUT', `/v1/custom-fields/${field}`, { ...token, body });
  const definition = async (field: number) => (await api.request('GET', `/v1/custom-fields/${field}`, token)).body;

  it('converts every value to the canonical form of the new type; unchanged ones keep their updatedAt', async () => {
    const { field, contacts } = await fieldWith('shortText', ['3.0', ' 42 ', '-1.50', '7', '1e3']);
    const res = await put(field, { type: 'number' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'number', options: null, updatedAt: isoNow() });
    expect(await valuesOf(field)).toEqual([
      { contact_id: contacts[0], value: '3', updated_at: isoNow() },
      { contact_id: contacts[1], value: '42', updated_at: isoNow() },
      { contact_id: contacts[2], value: '-1.5', updated_at: isoNow() },
      { contact_id: contacts[3], value: '7', updated_at: T0 },
      { contact_id: contacts[4], value: '1000', updated_at: isoNow() },
    ]);
    // And back to text: numbers are already text.
    expect((await put(field, { type: 'longText' })).status).toBe(200);
    expect((await valuesOf(field)).map((v) => v.value)).toEqual(['3', '42', '-1.5', '7', '1000']);
  });

  it('is 422 validation naming the values that do not fit, with their contacts; nothing changes', async () => {
    const { field, contacts } = await fieldWith('shortText', ['12', 'abc', '4.5', 'twelve']);
    const before = await definition(field);
    const res = await put(field, { type: 'number', name: 'Renamed too' });
    expect(res.status).toBe(422);
    const message = 'value must be a number: a JSON number or a decimal string such as "3.5"';
    expect(res.body).toEqual(
      validationError({
        field: 'type',
        reason: 'valuesDoNotFit',
        count: 2,
        values: [
          { contactId: String(contacts[1]), value: 'abc', message },
          { contactId: String(contacts[3]), value: 'twelve', message },
        ],
      }),
    );
    expect(await definition(field)).toEqual(before);
    expect(await valuesOf(field)).toEqual(contacts.map((c, i) => ({ contact_id: c, value: ['12', 'abc', '4.5', 'twelve'][i], updated_at: T0 })));
  });

  it('names at most 20 values, the first by contact id, and counts them all', async () => {
    const { field, contacts } = await fieldWith('shortText', Array.from({ length: 25 }, (_, i) => `not a date ${i}`));
    const res = await put(field, { type: 'date' });
    expect(res.status).toBe(422);
    expect(res.body.data).toEqual({
      field: 'type',
      reason: 'valuesDoNotFit',
      count: 25,
      values: contacts.slice(0, 20).map((c, i) => ({ contactId: String(c), value: `not a date ${i}`, message: 'value must be a calendar date written YYYY-MM-DD, e.g. 2026-03-01' })),
    });
  });

  it('converts between the types: booleans, emails, dates and date-times, urls', async () => {
    const cases: [string, string, string[], string[]][] = [
      ['shortText', 'boolean', ['TRUE', 'false', ' True '], ['true', 'false', 'true']],
      ['shortText', 'email', ['Ada@Example.COM', ' grace@example.com'], ['ada@example.com', 'grace@example.com']],
      ['date', 'datetime', ['2026-01-05', '1999-12-31'], ['2026-01-05T00:00:00.000Z', '1999-12-31T00:00:00.000Z']],
      ['datetime', 'date', ['2026-01-05T23:30:00.000Z', '2026-01-06T00:30:00+02:00'], ['2026-01-05', '2026-01-05']],
      ['shortText', 'datetime', ['2026-03-01T11:00:00+01:00'], ['2026-03-01T10:00:00.000Z']],
      ['shortText', 'url', ['https://Example.com', 'http://example.com/a?b=1'], ['https://example.com/', 'http://example.com/a?b=1']],
      ['shortText', 'phone', ['+15550001', ' 5550002123 '], ['+15550001', '5550002123']],
      ['boolean', 'shortText', ['true', 'false'], ['true', 'false']],
      ['number', 'shortText', ['3', '-0.5'], ['3', '-0.5']],
    ];
    for (const [from, to, values, expected] of cases) {
      const { field } = await fieldWith(from, values);
      const res = await put(field, { type: to });
      expect(res.status, `${from} -> ${to}`).toBe(200);
      expect((await valuesOf(field)).map((v) => v.value), `${from} -> ${to}`).toEqual(expected);
    }
  });

  it('refuses what does not fit the new type', async () => {
    const long = 'x'.repeat(256);
    const cases: [string, string, string, string][] = [
      ['number', 'boolean', '1', 'value must be true or false (or the string "true" or "false")'],
      ['longText', 'shortText', long, 'value must be at most 255 characters for a shortText field'],
      ['shortText', 'email', 'not-an-email', 'value must be a valid email address'],
      ['shortText', 'phone', '555-0100', 'value must be an optional + followed by 7 to 20 digits'],
      ['shortText', 'url', 'example.com', 'value must be an absolute http or https URL, e.g. https://example.com/page'],
      ['shortText', 'datetime', '2026-03-01T10:00:00', 'value must be an ISO 8601 date-time with a time zone, e.g. 2026-03-01T10:00:00Z or 2026-03-01T11:00:00+01:00'],
      ['date', 'number', '2026-03-01', 'value must be a number: a JSON number or a decimal string such as "3.5"'],
    ];
    for (const [from, to, value, message] of cases) {
      const { field, contacts } = await fieldWith(from, [value]);
      const res = await put(field, { type: to });
      expect(res.body, `${from} -> ${to}`).toEqual(validationError({ field: 'type', reason: 'valuesDoNotFit', count: 1, values: [{ contactId: String(contacts[0]), value, message }] }));
      expect((await definition(field)).type).toBe(from);
    }
  });

  it('becoming a select field: values match the options case-insensitively and take their spelling', async () => {
    const { field } = await fieldWith('shortText', ['gold', 'SILVER', 'Gold']);
    const res = await put(field, { type: 'select', options: ['Gold', 'Silver', 'Bronze'] });
    expect(res.status).toBe(200);
    expect((await valuesOf(field)).map((v) => v.value)).toEqual(['Gold', 'Silver', 'Gold']);
    const { field: other, contacts } = await fieldWith('shortText', ['gold', 'platinum']);
    expect((await put(other, { type: 'select', options: ['Gold'] })).body).toEqual(
      validationError({ field: 'type', reason: 'valuesDoNotFit', count: 1, values: [{ contactId: String(contacts[1]), value: 'platinum', message: 'value must be one of the options: "Gold"' }] }),
    );
  });

  it("a select field's new options: values of a removed option are 422 (field options); a respelled one converts", async () => {
    const { field, contacts } = await fieldWith('select', ['Free', 'Pro', 'Free'], ['Free', 'Pro']);
    const removed = await put(field, { options: ['Free', 'Business'] });
    expect(removed.body).toEqual(
      validationError({ field: 'options', reason: 'valuesDoNotFit', count: 1, values: [{ contactId: String(contacts[1]), value: 'Pro', message: 'value must be one of the options: "Free", "Business"' }] }),
    );
    expect((await definition(field)).options).toEqual(['Free', 'Pro']);
    const respelled = await put(field, { options: ['FREE', 'Pro', 'Business'] });
    expect(respelled.status).toBe(200);
    expect(respelled.body.options).toEqual(['FREE', 'Pro', 'Business']);
    expect((await valuesOf(field)).map((v) => v.value)).toEqual(['FREE', 'Pro', 'FREE']);
    // Leaving select keeps the values as text.
    expect((await put(field, { type: 'shortText' })).body.options).toBeNull();
    expect((await valuesOf(field)).map((v) => v.value)).toEqual(['FREE', 'Pro', 'FREE']);
  });

  it('a field without values changes type freely', async () => {
    const { field } = await fieldWith('email', []);
    const res = await put(field, { type: 'select', options: ['a'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'select', options: ['a'] });
  });
});
