import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { forbidden, unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData, notFound } from './support/rest.js';

/**
 * One contact's value of one custom field: GET, PUT {value}, the older POST .../{customFieldId},
 * DELETE; and DELETE .../custom-fields (all of them). Each value is checked against its field's
 * type and stored in the type's canonical form.
 */
describe('/v1/contacts/{identifier}/custom-fields/{idOrName}', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let token: { token: string };
  let ada: number;
  const field: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    token = { token: ws.developerToken };
    const f = fixtures(t.db, ws.id);
    ada = await f.contact({ email: 'ada@example.com', phone: '+15550001' });
    for (const type of ['shortText', 'longText', 'number', 'boolean', 'date', 'datetime', 'email', 'phone', 'url', 'select']) {
      field[type] = await f.customField(`My ${type}`, type, `A ${type} field`);
    }
    await t.db.updateTable('custom_fields').set({ options: JSON.stringify(['Free', 'Pro']) }).where('id', '=', field.select).execute();
  });
  afterAll(() => t.close());

  const item = (type: string, value: string) => ({ id: String(field[type]), name: `My ${type}`, description: `A ${type} field`, value, type });
  const put = (type: string, body: unknown, contact: string | number = ada) =>
    api.request('PUT', `/v1/contacts/${contact}/custom-fields/${field[type]}`, { ...token, body });
  const getOne = (type: string, contact: string | number = ada) => api.request('GET', `/v1/contacts/${contact}/custom-fields/${field[type]}`, token);

  describe('typed values', () => {
    /** type -> [sent, stored] pairs that are accepted. */
    const accepted: Record<string, [unknown, string][]> = {
      shortText: [['Northwind', 'Northwind'], [' spaced ', ' spaced '], ['x'.repeat(255), 'x'.repeat(255)]],
      longText: [['y'.repeat(10_000), 'y'.repeat(10_000)], ['Line 1\nLine 2', 'Line 1\nLine 2']],
      number: [[3.0, '3'], ['3.50', '3.5'], [-0.25, '-0.25'], ['1e3', '1000'], [' 7 ', '7'], [0.1, '0.1'], ['-0', '0'], ['.5', '0.5'], [12345678901234567890, '12345678901234567000']],
      boolean: [[true, 'true'], ['FALSE', 'false'], [' true ', 'true']],
      date: [['2024-02-29', '2024-02-29'], [' 2026-01-05 ', '2026-01-05']],
      datetime: [
        ['2026-03-01T11:00:00+01:00', '2026-03-01T10:00:00.000Z'],
        ['2026-03-01T10:00Z', '2026-03-01T10:00:00.000Z'],
        ['2026-03-01T10:00:00.123456-05:30', '2026-03-01T15:30:00.123Z'],
        ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00.000Z'],
      ],
      email: [[' Ada@Example.COM ', 'ada@example.com']],
      phone: [['+15550001', '+15550001'], [' 5550002123 ', '5550002123']],
      url: [['https://Example.com/Path?q=1', 'https://example.com/Path?q=1'], ['http://localhost:8080', 'http://localhost:8080/']],
      select: [['pro', 'Pro'], [' Free ', 'Free']],
    };
    const messages = {
      text: 'value must be a string',
      number: 'value must be a number: a JSON number or a decimal string such as "3.5"',
      boolean: 'value must be true or false (or the string "true" or "false")',
      date: 'value must be a calendar date written YYYY-MM-DD, e.g. 2026-03-01',
      datetime: 'value must be an ISO 8601 date-time with a time zone, e.g. 2026-03-01T10:00:00Z or 2026-03-01T11:00:00+01:00',
      email: 'value must be a valid email address',
      phone: 'value must be an optional + followed by 7 to 20 digits',
      url: 'value must be an absolute http or https URL, e.g. https://example.com/page',
    };
    /** type -> [sent, message] pairs that are 422 at ["body", "value"]. */
    const refused: Record<string, [unknown, string][]> = {
      shortText: [[42, messages.text], [true, messages.text], ['x'.repeat(256), 'value must be at most 255 characters for a shortText field']],
      longText: [['y'.repeat(10_001), 'value must be at most 10,000 characters for a longText field'], [1, messages.text]],
      number: [
        ['abc', messages.number],
        [true, messages.number],
        ['1,5', messages.number],
        ['NaN', messages.number],
        ['Infinity', messages.number],
        ['0x10', messages.number],
        ['1e70', 'value must be at most 64 characters written out in plain decimal'],
      ],
      boolean: [[1, messages.boolean], ['yes', messages.boolean], [0, messages.boolean]],
      date: [['2023-02-29', messages.date], ['2026-1-5', messages.date], ['05/01/2026', messages.date], ['2026-01-05T00:00:00Z', messages.date], [20260105, messages.date], ['0000-01-01', messages.date]],
      datetime: [
        ['2026-03-01', messages.datetime],
        ['2026-03-01T10:00:00', messages.datetime],
        ['2026-02-30T10:00:00Z', messages.datetime],
        ['2026-03-01T24:00:00Z', messages.datetime],
        [1767225600000, messages.datetime],
      ],
      email: [['ada@', messages.email], [5, messages.email]],
      phone: [['555-0100', messages.phone], ['+1 555 0100', messages.phone], ['123456', messages.phone], [15550001, messages.phone]],
      url: [['ftp://example.com', messages.url], ['example.com', messages.url], ['javascript:alert(1)', messages.url], ['https://exa mple.com', messages.url], [`https://example.com/${'a'.repeat(2048)}`, 'value must be at most 2048 characters']],
      select: [['Enterprise', 'value must be one of the options: "Free", "Pro"'], [1, 'value must be a string, one of the options']],
    };

    for (const [type, pairs] of Object.entries(accepted)) {
      it(`${type}: stores each accepted value in its canonical form`, async () => {
        for (const [sent, canonical] of pairs) {
          const res = await put(type, { value: sent });
          expect(res.status, JSON.stringify(sent).slice(0, 60)).toBe(200);
          expect(res.body).toEqual(item(type, canonical));
          expect((await getOne(type)).body).toEqual(item(type, canonical));
        }
      });
    }

    for (const [type, pairs] of Object.entries(refused)) {
      it(`${type}: a value of the wrong type is 422 at ["body", "value"] and the stored value stays`, async () => {
        const [last] = accepted[type].at(-1)!;
        expect((await put(type, { value: last })).status).toBe(200);
        const kept = (await getOne(type)).body;
        for (const [sent, message] of pairs) {
          const res = await put(type, { value: sent });
          expect(res.status, JSON.stringify(sent).slice(0, 60)).toBe(422);
          expect(res.body).toEqual(invalidRequestData([{ message, path: ['body', 'value'] }]));
        }
        expect((await getOne(type)).body).toEqual(kept);
      });
    }

    it('the stored values are what the contact list and the contact object show', async () => {
      expect((await put('number', { value: '4.20' })).body).toEqual(item('number', '4.2'));
      const list = await api.request('GET', `/v1/contacts/${ada}/custom-fields`, token);
      expect(list.body.data.find((v: { id: string }) => v.id === String(field.number))).toEqual(item('number', '4.2'));
      const rows = await t.db.selectFrom('contact_custom_fields').select('value').where('contact_id', '=', ada).where('custom_field_id', '=', field.number).execute();
      expect(rows).toEqual([{ value: '4.2' }]);
    });
  });

  describe('PUT {value}', () => {
    it('null or "" clears the value (the answer shows "")', async () => {
      for (const value of [null, '']) {
        expect((await put('shortText', { value: 'set' })).body).toEqual(item('shortText', 'set'));
        const res = await put('shortText', { value });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(item('shortText', ''));
        const rows = await t.db.selectFrom('contact_custom_fields').select('value').where('contact_id', '=', ada).where('custom_field_id', '=', field.shortText).execute();
        expect(rows).toEqual([]);
      }
    });

    it('finds the field by name in any case, and the contact by any identifier form', async () => {
      const byName = await api.request('PUT', `/v1/contacts/email:ada@example.com/custom-fields/my%20NUMBER`, { ...token, body: { value: 8 } });
      expect(byName.body).toEqual(item('number', '8'));
      const byPhone = await api.request('PUT', `/v1/contacts/phone:+15550001/custom-fields/My%20number`, { ...token, body: { value: 9 } });
      expect(byPhone.body).toEqual(item('number', '9'));
      const viaApi = await t.request('PUT', `/api/v1/contacts/id:${ada}/custom-fields/${field.number}`, { ...token, body: { value: 10 } });
      expect(viaApi.body).toEqual(item('number', '10'));
    });

    it('needs value, a JSON scalar, and nothing else in the body', async () => {
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{}, [{ message: 'Required', path: ['body', 'value'] }]],
        [{ value: { a: 1 } }, [{ message: 'value must be a string, number, boolean or null', path: ['body', 'value'] }]],
        [{ value: [1] }, [{ message: 'value must be a string, number, boolean or null', path: ['body', 'value'] }]],
        [{ value: 1, type: 'number' }, [{ message: 'Unrecognized key: "type"', path: ['body', 'type'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await put('number', body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(invalidRequestData(issues));
      }
    });

    it("is 404 for an unknown contact or field, and for the other workspace's", async () => {
      const g = fixtures(t.db, other.id);
      const theirContact = await g.contact({ email: 'theirs@example.com' });
      const theirField = await g.customField('Theirs');
      const cases: [string, string][] = [
        [`/v1/contacts/424242/custom-fields/${field.number}`, 'Contact'],
        [`/v1/contacts/nobody@example.com/custom-fields/${field.number}`, 'Contact'],
        [`/v1/contacts/${theirContact}/custom-fields/${field.number}`, 'Contact'],
        [`/v1/contacts/${ada}/custom-fields/424242`, 'Custom field'],
        [`/v1/contacts/${ada}/custom-fields/No%20such%20field`, 'Custom field'],
        [`/v1/contacts/${ada}/custom-fields/${theirField}`, 'Custom field'],
        [`/v1/contacts/${ada}/custom-fields/Theirs`, 'Custom field'],
      ];
      for (const [path, resource] of cases) {
        for (const [method, body] of [['GET', undefined], ['PUT', { value: '1' }], ['DELETE', undefined]] as const) {
          const res = await api.request(method, path, { ...token, body });
          expect(res.status, `${method} ${path}`).toBe(404);
          expect(res.body).toEqual(notFound(resource));
        }
      }
      // The contact is looked up first: an unknown contact and an unknown field is about the contact.
      expect((await api.request('GET', '/v1/contacts/424242/custom-fields/424242', token)).body).toEqual(notFound('Contact'));
      const theirRows = await t.db.selectFrom('contact_custom_fields').select('id').where('workspace_id', '=', other.id).execute();
      expect(theirRows).toEqual([]);
    });
  });

  describe('POST .../custom-fields/{customFieldId} (the older form)', () => {
    it('sets the value as PUT does, by field id only', async () => {
      const res = await api.request('POST', `/v1/contacts/${ada}/custom-fields/${field.boolean}`, { ...token, body: { value: 'TRUE' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(item('boolean', 'true'));
      expect((await getOne('boolean')).body).toEqual(item('boolean', 'true'));
      const bad = await api.request('POST', `/v1/contacts/${ada}/custom-fields/${field.boolean}`, { ...token, body: { value: 'maybe' } });
      expect(bad.body).toEqual(invalidRequestData([{ message: 'value must be true or false (or the string "true" or "false")', path: ['body', 'value'] }]));
      const byName = await api.request('POST', `/v1/contacts/${ada}/custom-fields/My%20boolean`, { ...token, body: { value: true } });
      expect(byName.status).toBe(422);
      expect(byName.body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'customFieldId'] }]));
      const cleared = await api.request('POST', `/v1/contacts/${ada}/custom-fields/${field.boolean}`, { ...token, body: { value: null } });
      expect(cleared.body).toEqual(item('boolean', ''));
    });
  });

  describe('GET and DELETE one value', () => {
    it('GET answers "" for a field the contact has no value for', async () => {
      const bare = await fixtures(t.db, ws.id).contact({ email: 'bare@example.com' });
      expect((await getOne('date', bare)).body).toEqual(item('date', ''));
    });

    it('DELETE clears the value and answers {success: true}, also when there was none', async () => {
      expect((await put('email', { value: 'x@example.com' })).status).toBe(200);
      for (let i = 0; i < 2; i++) {
        const res = await api.request('DELETE', `/v1/contacts/${ada}/custom-fields/My%20email`, token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true });
        expect((await getOne('email')).body).toEqual(item('email', ''));
      }
    });
  });

  describe('DELETE /v1/contacts/{identifier}/custom-fields', () => {
    it("clears every value of the contact, and only that contact's", async () => {
      const f = fixtures(t.db, ws.id);
      const grace = await f.contact({ email: 'grace@example.com' });
      const alan = await f.contact({ email: 'alan@example.com' });
      for (const c of [grace, alan]) {
        await f.fieldValue(c, field.shortText, 'a');
        await f.fieldValue(c, field.number, '1');
      }
      const res = await api.request('DELETE', `/v1/contacts/grace@example.com/custom-fields`, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      const rows = await t.db.selectFrom('contact_custom_fields').select(['contact_id', 'value']).where('contact_id', 'in', [grace, alan]).orderBy('id').execute();
      expect(rows).toEqual([
        { contact_id: alan, value: 'a' },
        { contact_id: alan, value: '1' },
      ]);
      const list = await api.request('GET', `/v1/contacts/${grace}/custom-fields`, token);
      expect(list.body.data.every((v: { value: string }) => v.value === '')).toBe(true);
      expect((await api.request('DELETE', `/v1/contacts/${grace}/custom-fields`, token)).body).toEqual({ success: true });
    });

    it("is 404 for an unknown contact and for the other workspace's", async () => {
      const g = fixtures(t.db, other.id);
      const theirs = await g.contact({ email: 'keep@example.com' });
      await g.fieldValue(theirs, await g.customField('Kept'), 'kept');
      for (const ref of ['424242', String(theirs), 'keep@example.com']) {
        const res = await api.request('DELETE', `/v1/contacts/${ref}/custom-fields`, token);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Contact'));
      }
      const rows = await t.db.selectFrom('contact_custom_fields').select('value').where('contact_id', '=', theirs).execute();
      expect(rows).toEqual([{ value: 'kept' }]);
    });
  });

  describe('access', () => {
    it('values need the contacts scope (not custom_fields); read-only tokens read them', async () => {
      const fieldsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['custom_fields'] });
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      const refused = await api.request('GET', `/v1/contacts/${ada}/custom-fields/${field.number}`, { token: fieldsOnly });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(forbidden({ reason: 'missingScope', scope: 'contacts' }));
      expect((await api.request('PUT', `/v1/contacts/${ada}/custom-fields/${field.number}`, { token: contactsOnly, body: { value: 1 } })).status).toBe(200);
      expect((await api.request('GET', `/v1/contacts/${ada}/custom-fields/${field.number}`, { token: readOnly })).status).toBe(200);
      for (const [method, path, body] of [
        ['PUT', `/v1/contacts/${ada}/custom-fields/${field.number}`, { value: 2 }],
        ['POST', `/v1/contacts/${ada}/custom-fields/${field.number}`, { value: 2 }],
        ['DELETE', `/v1/contacts/${ada}/custom-fields/${field.number}`, undefined],
        ['DELETE', `/v1/contacts/${ada}/custom-fields`, undefined],
        ['PATCH', `/v1/contacts/${ada}/custom-fields`, { operations: [{ op: 'clear', name: 'My number' }] }],
      ] as const) {
        const res = await api.request(method, path, { token: readOnly, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      }
      expect((await getOne('number')).body).toEqual(item('number', '1'));
    });
  });
});
