import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopes, forbidden, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { fieldError, invalidInput, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, isoNow } from './support/rest.js';

const globalId = (type: string, id: number | string) => Buffer.from(`${type}:${id}`).toString('base64');

/**
 * Custom fields on GraphQL: the same services, zod schemas, access rules and errors as REST
 * (/v1/custom-fields and /v1/contacts/{identifier}/custom-fields), and CustomField.valuesCount
 * through one DataLoader batch.
 */
describe('GraphQL custom fields', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let token: { token: string };
  const field: Record<string, number> = {};
  let ada: number;
  let grace: number;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    token = { token: ws.developerToken };
    const f = fixtures(t.db, ws.id);
    field.plan = await f.customField('Plan', 'shortText', 'Subscription plan');
    field.orders = await f.customField('Order count', 'number');
    field.birthday = await f.customField('Birthday', 'date');
    ada = await f.contact({ email: 'ada@example.com' });
    grace = await f.contact({ email: 'grace@example.com' });
    await f.fieldValue(ada, field.plan, 'gold');
    await f.fieldValue(grace, field.plan, 'silver');
    await f.fieldValue(ada, field.orders, '3');
  });
  afterAll(() => t.close());

  const gql = (query: string, variables?: Record<string, unknown>, options = token) => t.graphql(query, variables, options);
  const fieldSelection = 'id rawId name description type options createdAt updatedAt valuesCount';
  const node = (id: number, name: string, type: string, description: string, valuesCount: number, options: string[] | null = null) => ({
    id: globalId('CustomField', id),
    rawId: String(id),
    name,
    description,
    type,
    options,
    createdAt: T0,
    updatedAt: T0,
    valuesCount,
  });

  describe('queries', () => {
    it('customFields pages by name with valuesCount, and filters by type', async () => {
      const res = await gql(`query($type: String) { customFields(perPage: 2, type: $type) { data { ${fieldSelection} } pageCount } }`);
      expect(res.body).toEqual({
        data: {
          customFields: {
            data: [node(field.birthday, 'Birthday', 'date', '', 0), node(field.orders, 'Order count', 'number', '', 1)],
            pageCount: 2,
          },
        },
      });
      const numbers = await gql(`query($type: String) { customFields(type: $type) { data { name } pageCount } }`, { type: 'number' });
      expect(numbers.body).toEqual({ data: { customFields: { data: [{ name: 'Order count' }], pageCount: 1 } } });
      const bad = await gql(`{ customFields(type: "text", perPage: 51) { pageCount } }`);
      expect(bad.body).toEqual({
        data: null,
        errors: [
          invalidInput(
            ['customFields'],
            [
              { message: 'perPage must be at most 50', path: ['perPage'] },
              { message: 'Invalid option: expected one of "shortText"|"longText"|"number"|"boolean"|"date"|"datetime"|"email"|"phone"|"url"|"select"', path: ['type'] },
            ],
            'perPage must be at most 50 (and 1 more issue)',
          ),
        ],
      });
    });

    it('valuesCount costs one statement for the whole page, whatever the number of fields', async () => {
      const count = async (perPage: number) => {
        const res = await gql(`{ customFields(perPage: ${perPage}) { data { name valuesCount } } }`);
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.customFields.data).toHaveLength(perPage);
        return statementsOf(res);
      };
      const without = statementsOf(await gql('{ customFields(perPage: 3) { data { name } } }'));
      expect(await count(1)).toBe(without + 1);
      expect(await count(3)).toBe(without + 1);
    });

    it('customField by plain id, name in any case, or global id; another workspace\'s field is notFound', async () => {
      const expected = { data: { customField: node(field.plan, 'Plan', 'shortText', 'Subscription plan', 2) } };
      for (const idOrName of [String(field.plan), 'PLAN', globalId('CustomField', field.plan)]) {
        expect((await gql(`query($x: String!) { customField(idOrName: $x) { ${fieldSelection} } }`, { x: idOrName })).body, idOrName).toEqual(expected);
      }
      const theirs = await fixtures(t.db, other.id).customField('Theirs');
      for (const idOrName of [String(theirs), 'Theirs', globalId('CustomField', theirs), 'nope']) {
        expect((await gql(`query($x: String!) { customField(idOrName: $x) { name } }`, { x: idOrName })).body, idOrName).toEqual({
          data: null,
          errors: [fieldError(['customField'], { ...envelopes.notFound, data: { resource: 'Custom field' } }, 'Custom field not found')],
        });
      }
      // node(id:) reads another workspace's field as null.
      expect((await gql('query($id: ID!) { node(id: $id) { id } }', { id: globalId('CustomField', theirs) })).body).toEqual({ data: { node: null } });
    });

    it("contactCustomField: the contact's value of one field, \"\" when unset, with its definition", async () => {
      const res = await gql(
        `query($c: String!, $f: String!) { contactCustomField(identifier: $c, idOrName: $f) { rawId name description value type customField { id options valuesCount } } }`,
        { c: 'ada@example.com', f: 'plan' },
      );
      expect(res.body).toEqual({
        data: {
          contactCustomField: {
            rawId: String(field.plan),
            name: 'Plan',
            description: 'Subscription plan',
            value: 'gold',
            type: 'shortText',
            customField: { id: globalId('CustomField', field.plan), options: null, valuesCount: 2 },
          },
        },
      });
      const unset = await gql(`query($c: String!, $f: String!) { contactCustomField(identifier: $c, idOrName: $f) { value } }`, { c: globalId('Contact', grace), f: 'Birthday' });
      expect(unset.body).toEqual({ data: { contactCustomField: { value: '' } } });
      const missing = await gql(`query($c: String!, $f: String!) { contactCustomField(identifier: $c, idOrName: $f) { value } }`, { c: 'nobody@example.com', f: 'Plan' });
      expect(missing.body).toEqual({ data: null, errors: [fieldError(['contactCustomField'], { ...envelopes.notFound, data: { resource: 'Contact' } }, 'Contact not found')] });
    });

    it('findContactsByCustomField: canonical match, contacts with their relations', async () => {
      const res = await gql(`query($f: ID!, $v: String!) { findContactsByCustomField(customFieldId: $f, value: $v) { data { rawId email customFields { name value } } pageCount } }`, {
        f: globalId('CustomField', field.orders),
        v: '3.000',
      });
      expect(res.body).toEqual({
        data: {
          findContactsByCustomField: {
            data: [
              {
                rawId: String(ada),
                email: 'ada@example.com',
                customFields: [
                  { name: 'Plan', value: 'gold' },
                  { name: 'Order count', value: '3' },
                  { name: 'Birthday', value: '' },
                ],
              },
            ],
            pageCount: 1,
          },
        },
      });
      const bad = await gql(`query($f: ID!, $v: String!) { findContactsByCustomField(customFieldId: $f, value: $v) { pageCount } }`, { f: String(field.orders), v: 'three' });
      expect(bad.body).toEqual({
        data: null,
        errors: [
          invalidInput(
            ['findContactsByCustomField'],
            [{ message: 'value must be a number: a JSON number or a decimal string such as "3.5"', path: ['value'] }],
            'value must be a number: a JSON number or a decimal string such as "3.5"',
          ),
        ],
      });
    });
  });

  describe('definitions', () => {
    it('createCustomField creates what POST /v1/custom-fields would; duplicates and bad input are the same errors', async () => {
      const create = (input: Record<string, unknown>) => gql(`mutation($input: CreateCustomFieldInput!) { createCustomField(input: $input) { ${fieldSelection} } }`, { input });
      const res = await create({ name: ' Tier ', type: 'select', options: ['Free', 'Pro'], description: null });
      expect(res.body).toEqual({
        data: {
          createCustomField: {
            id: expect.any(String),
            rawId: digits(),
            name: 'Tier',
            description: '',
            type: 'select',
            options: ['Free', 'Pro'],
            createdAt: isoNow(),
            updatedAt: isoNow(),
            valuesCount: 0,
          },
        },
      });
      const rest = await t.request('GET', `/v1/custom-fields/${res.body.data.createCustomField.rawId}`, token);
      expect(rest.body).toMatchObject({ name: 'Tier', type: 'select', options: ['Free', 'Pro'] });

      const duplicate = await create({ name: 'TIER', type: 'number' });
      expect(duplicate.body).toEqual({
        data: null,
        errors: [fieldError(['createCustomField'], { defined: true, code: 'validation', status: 422, message: 'Validation error', data: { field: 'name', reason: 'alreadyExists' } }, 'This name is already taken in the workspace')],
      });
      const bad = await create({ name: '123', type: 'number', options: ['x'] });
      expect(bad.body).toEqual({
        data: null,
        errors: [
          invalidInput(
            ['createCustomField'],
            [
              { message: 'name must not be only digits: it would read as an id in /v1/custom-fields/{idOrName}', path: ['input', 'name'] },
              { message: 'options are only for select fields', path: ['input', 'options'] },
            ],
            'name must not be only digits: it would read as an id in /v1/custom-fields/{idOrName} (and 1 more issue)',
          ),
        ],
      });
    });

    it('updateCustomField converts values on a type change, or names those that do not fit; nothing changes then', async () => {
      const f = fixtures(t.db, ws.id);
      const score = await f.customField('Score');
      await f.fieldValue(ada, score, '4.50');
      const update = (id: string, input: Record<string, unknown>) =>
        gql(`mutation($id: ID!, $input: UpdateCustomFieldInput!) { updateCustomField(id: $id, input: $input) { rawId name type options updatedAt } }`, { id, input });
      const res = await update(globalId('CustomField', score), { type: 'number', name: null });
      expect(res.body).toEqual({ data: { updateCustomField: { rawId: String(score), name: 'Score', type: 'number', options: null, updatedAt: isoNow() } } });
      const value = await gql(`query($c: String!, $f: String!) { contactCustomField(identifier: $c, idOrName: $f) { value } }`, { c: String(ada), f: 'Score' });
      expect(value.body).toEqual({ data: { contactCustomField: { value: '4.5' } } });

      const refused = await update(String(score), { type: 'boolean', name: 'Renamed' });
      expect(refused.body).toEqual({
        data: null,
        errors: [
          fieldError(
            ['updateCustomField'],
            {
              defined: true,
              code: 'validation',
              status: 422,
              message: 'Validation error',
              data: { field: 'type', reason: 'valuesDoNotFit', count: 1, values: [{ contactId: String(ada), value: '4.5', message: 'value must be true or false (or the string "true" or "false")' }] },
            },
            '1 stored value would not fit the new type: nothing was changed (data.values lists them)',
          ),
        ],
      });
      const options = await update(String(score), { options: ['a'] });
      expect(options.body).toEqual({
        data: null,
        errors: [invalidInput(['updateCustomField'], [{ message: 'options are only for select fields', path: ['input', 'options'] }], 'options are only for select fields')],
      });
      expect((await t.request('GET', `/v1/custom-fields/${score}`, token)).body).toMatchObject({ name: 'Score', type: 'number' });
      const wrongType = await update(globalId('Tag', 1), { name: 'x' });
      expect(wrongType.body.errors[0].extensions.data.issues).toEqual([{ message: 'must be a CustomField id, but this is the global id of a Tag', path: ['id'] }]);
    });

    it('deleteCustomField answers { success: true }; then the field is notFound', async () => {
      const id = await fixtures(t.db, ws.id).customField('Temporary');
      const del = (x: string) => gql('mutation($id: ID!) { deleteCustomField(id: $id) { success } }', { id: x });
      expect((await del(String(id))).body).toEqual({ data: { deleteCustomField: { success: true } } });
      expect((await del(String(id))).body).toEqual({
        data: null,
        errors: [fieldError(['deleteCustomField'], { ...envelopes.notFound, data: { resource: 'Custom field' } }, 'Custom field not found')],
      });
      const theirs = await fixtures(t.db, other.id).customField('Keep me');
      expect((await del(globalId('CustomField', theirs))).body.errors[0].extensions.code).toBe('notFound');
      expect((await t.request('GET', `/v1/custom-fields/${theirs}`, { token: other.developerToken })).status).toBe(200);
    });
  });

  describe('values', () => {
    const set = (identifier: string, idOrName: string, value: string | null | undefined) =>
      gql(`mutation($c: String!, $f: String!, $v: String) { setContactCustomField(identifier: $c, idOrName: $f, value: $v) { rawId name value type } }`, {
        c: identifier,
        f: idOrName,
        ...(value === undefined ? {} : { v: value }),
      });

    it('setContactCustomField stores the canonical value; null or "" clears; a wrong value is invalidRequestData at value', async () => {
      expect((await set(String(grace), 'Order count', '7.0')).body).toEqual({ data: { setContactCustomField: { rawId: String(field.orders), name: 'Order count', value: '7', type: 'number' } } });
      expect((await t.request('GET', `/v1/contacts/${grace}/custom-fields/${field.orders}`, token)).body.value).toBe('7');
      expect((await set(String(grace), 'Order count', null)).body).toEqual({ data: { setContactCustomField: { rawId: String(field.orders), name: 'Order count', value: '', type: 'number' } } });
      expect((await set(String(grace), 'Order count', '7')).body.data.setContactCustomField.value).toBe('7');
      expect((await set(String(grace), 'Order count', '')).body.data.setContactCustomField.value).toBe('');
      expect((await set(String(grace), 'Birthday', '1990-02-30')).body).toEqual({
        data: null,
        errors: [
          invalidInput(
            ['setContactCustomField'],
            [{ message: 'value must be a calendar date written YYYY-MM-DD, e.g. 2026-03-01', path: ['value'] }],
            'value must be a calendar date written YYYY-MM-DD, e.g. 2026-03-01',
          ),
        ],
      });
      expect((await set(String(grace), 'No such', 'x')).body.errors[0].extensions).toEqual({ ...envelopes.notFound, message: undefined, data: { resource: 'Custom field' } });
    });

    it('clearContactCustomField and clearContactCustomFields answer { success: true }', async () => {
      const f = fixtures(t.db, ws.id);
      const alan = await f.contact({ email: 'alan@example.com' });
      await f.fieldValue(alan, field.plan, 'bronze');
      await f.fieldValue(alan, field.orders, '1');
      expect((await gql('mutation($c: String!, $f: String!) { clearContactCustomField(identifier: $c, idOrName: $f) { success } }', { c: 'alan@example.com', f: 'Plan' })).body).toEqual({
        data: { clearContactCustomField: { success: true } },
      });
      const rows = () => t.db.selectFrom('contact_custom_fields').select('custom_field_id').where('contact_id', '=', alan).execute();
      expect(await rows()).toEqual([{ custom_field_id: field.orders }]);
      expect((await gql('mutation($c: String!) { clearContactCustomFields(identifier: $c) { success } }', { c: globalId('Contact', alan) })).body).toEqual({ data: { clearContactCustomFields: { success: true } } });
      expect(await rows()).toEqual([]);
    });

    it('setContactCustomFields applies the operations all or nothing and answers the whole list', async () => {
      const f = fixtures(t.db, ws.id);
      const edsger = await f.contact({ email: 'edsger@example.com' });
      const ops = (operations: unknown[]) =>
        gql(`mutation($c: String!, $ops: [CustomFieldOperationInput!]!) { setContactCustomFields(identifier: $c, operations: $ops) { name value } }`, { c: String(edsger), ops: operations });
      const res = await ops([
        { op: 'set', name: 'plan', value: 'platinum' },
        { op: 'increment', customFieldId: globalId('CustomField', field.orders), value: '2' },
        { op: 'increment', customFieldId: String(field.orders), value: '0.5' },
        { op: 'set', name: 'Birthday', value: '2000-01-01' },
        { op: 'clear', name: 'Birthday', value: null },
      ]);
      expect(res.body.errors).toBeUndefined();
      const values = res.body.data.setContactCustomFields.filter((v: { name: string }) => ['Plan', 'Order count', 'Birthday'].includes(v.name));
      expect(values).toEqual([
        { name: 'Plan', value: 'platinum' },
        { name: 'Order count', value: '2.5' },
        { name: 'Birthday', value: '' },
      ]);

      const before = await t.db.selectFrom('contact_custom_fields').select(['custom_field_id', 'value']).where('contact_id', '=', edsger).orderBy('custom_field_id').execute();
      const missing = await ops([{ op: 'set', name: 'Plan', value: 'x' }, { op: 'clear', customFieldId: '424242' }, { op: 'clear', name: 'Nope' }]);
      expect(missing.body).toEqual({
        data: null,
        errors: [fieldError(['setContactCustomFields'], { ...envelopes.notFound, data: { resource: 'Custom field', ids: ['424242'], names: ['Nope'] } }, 'Custom field not found: 424242')],
      });
      const invalid = await ops([{ op: 'set', name: 'Plan', value: 'x' }, { op: 'increment', name: 'Plan', value: '1' }, { op: 'set', name: 'Order count', value: 'many' }]);
      expect(invalid.body).toEqual({
        data: null,
        errors: [
          invalidInput(
            ['setContactCustomFields'],
            [
              { message: 'increment needs a number field; "Plan" is a shortText field', path: ['operations', 1, 'op'] },
              { message: 'value must be a number: a JSON number or a decimal string such as "3.5"', path: ['operations', 2, 'value'] },
            ],
            'operations[1].op: increment needs a number field; "Plan" is a shortText field (and 1 more issue)',
          ),
        ],
      });
      const shape = await ops([{ op: 'set', customFieldId: '1', name: 'Plan', value: 'x' }]);
      expect(shape.body.errors[0].extensions.data.issues).toEqual([{ message: 'Give exactly one of customFieldId or name', path: ['operations', 0] }]);
      const empty = await ops([]);
      expect(empty.body.errors[0].extensions.data.issues).toEqual([{ message: 'operations must hold at least one operation', path: ['operations'] }]);
      const after = await t.db.selectFrom('contact_custom_fields').select(['custom_field_id', 'value']).where('contact_id', '=', edsger).orderBy('custom_field_id').execute();
      expect(after).toEqual(before);
    });
  });

  describe('access', () => {
    it('definitions need custom_fields, values need contacts; mutations need a full token', async () => {
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      const fieldsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['custom_fields'] });
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await gql('{ customFields { pageCount } }', undefined, { token: contactsOnly })).body).toEqual({
        data: null,
        errors: [fieldError(['customFields'], forbidden({ reason: 'missingScope', scope: 'custom_fields' }), 'This token lacks the "custom_fields" scope')],
      });
      expect((await gql('query($id: ID!) { node(id: $id) { id } }', { id: globalId('CustomField', field.plan) }, { token: contactsOnly })).body.errors[0].extensions.data).toEqual({
        reason: 'missingScope',
        scope: 'custom_fields',
      });
      expect((await gql('{ customFields { pageCount } }', undefined, { token: fieldsOnly })).body).toEqual({ data: { customFields: { pageCount: 1 } } });
      const value = await gql('mutation { setContactCustomField(identifier: "ada@example.com", idOrName: "Plan", value: "gold") { value } }', undefined, { token: fieldsOnly });
      expect(value.body.errors[0].extensions.data).toEqual({ reason: 'missingScope', scope: 'contacts' });
      expect((await gql('mutation { setContactCustomField(identifier: "ada@example.com", idOrName: "Plan", value: "gold") { value } }', undefined, { token: contactsOnly })).body).toEqual({
        data: { setContactCustomField: { value: 'gold' } },
      });
      for (const mutation of [
        'mutation { createCustomField(input: {name: "x", type: "number"}) { rawId } }',
        `mutation { deleteCustomField(id: "${field.plan}") { success } }`,
        'mutation { clearContactCustomFields(identifier: "ada@example.com") { success } }',
      ]) {
        expect((await gql(mutation, undefined, { token: readOnly })).body.errors[0].extensions.data, mutation).toEqual({ reason: 'readOnlyToken' });
      }
      expect((await gql('{ customFields { pageCount } }', undefined, { token: readOnly })).body).toEqual({ data: { customFields: { pageCount: 1 } } });
    });
  });
});
