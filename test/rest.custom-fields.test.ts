import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { forbidden, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

/** Custom field definitions: /v1/custom-fields list, create, get by id or name, update, delete. */
describe('/v1/custom-fields', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let token: { token: string };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    token = { token: ws.developerToken };
  });
  afterAll(() => t.close());

  /** A field as fixtures insert it (type shortText unless given, no options, T0 stamps). */
  const stored = (id: number | string, name: string, type = 'shortText', description = '', options: string[] | null = null) => ({
    id: String(id),
    name,
    description,
    type,
    options,
    createdAt: T0,
    updatedAt: T0,
  });

  describe('GET /v1/custom-fields', () => {
    let list: TestWorkspace;
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      list = await t.workspace({ name: 'Lists' });
      const f = fixtures(t.db, list.id);
      for (const [name, type] of [['vip level', 'number'], ['Birthday', 'date'], ['beta', 'shortText'], ['Alpha', 'boolean'], ['_x', 'shortText'], ['a b', 'url']] as const) {
        ids[name] = await f.customField(name, type);
      }
      await fixtures(t.db, other.id).customField('Not mine');
    });
    const get = (query = '') => api.request('GET', `/v1/custom-fields${query}`, { token: list.developerToken });

    it('lists the workspace fields by name case-insensitively, ties by id, with {data, pageCount}', async () => {
      const res = await get();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [
          stored(ids._x, '_x'),
          stored(ids['a b'], 'a b', 'url'),
          stored(ids.Alpha, 'Alpha', 'boolean'),
          stored(ids.beta, 'beta'),
          stored(ids.Birthday, 'Birthday', 'date'),
          stored(ids['vip level'], 'vip level', 'number'),
        ],
        pageCount: 1,
      });
    });

    it('pages with page and perPage; a page past the end is empty', async () => {
      expect((await get('?perPage=4')).body).toEqual({
        data: [stored(ids._x, '_x'), stored(ids['a b'], 'a b', 'url'), stored(ids.Alpha, 'Alpha', 'boolean'), stored(ids.beta, 'beta')],
        pageCount: 2,
      });
      expect((await get('?perPage=4&page=2')).body).toEqual({ data: [stored(ids.Birthday, 'Birthday', 'date'), stored(ids['vip level'], 'vip level', 'number')], pageCount: 2 });
      expect((await get('?perPage=4&page=3')).body).toEqual({ data: [], pageCount: 2 });
    });

    it('filters by type', async () => {
      expect((await get('?type=shortText')).body).toEqual({ data: [stored(ids._x, '_x'), stored(ids.beta, 'beta')], pageCount: 1 });
      expect((await get('?type=select')).body).toEqual({ data: [], pageCount: 0 });
    });

    it('is 422 for an unknown type, bad page values and unknown parameters', async () => {
      const bad = await get('?type=text');
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(
        invalidRequestData([
          {
            message: 'Invalid option: expected one of "shortText"|"longText"|"number"|"boolean"|"date"|"datetime"|"email"|"phone"|"url"|"select"',
            path: ['query', 'type'],
          },
        ]),
      );
      expect((await get('?perPage=51')).body).toEqual(invalidRequestData([{ message: 'perPage must be at most 50', path: ['query', 'perPage'] }]));
      expect((await get('?sort=name')).body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "sort"', path: ['query', 'sort'] }]));
    });

    it('is an empty page in a workspace without fields', async () => {
      const empty = await t.workspace({ name: 'Empty' });
      const res = await api.request('GET', '/v1/custom-fields', { token: empty.developerToken });
      expect(res.body).toEqual({ data: [], pageCount: 0 });
    });
  });

  describe('POST /v1/custom-fields', () => {
    const post = (body: unknown, options = token) => api.request('POST', '/v1/custom-fields', { ...options, body });
    const created = (name: string, type: string, description = '', options: string[] | null = null) => ({
      id: digits(),
      name,
      description,
      type,
      options,
      createdAt: isoNow(),
      updatedAt: isoNow(),
    });

    it('creates a field of every type and answers 200 with it', async () => {
      for (const type of ['shortText', 'longText', 'number', 'boolean', 'date', 'datetime', 'email', 'phone', 'url']) {
        const res = await post({ name: `New ${type}`, type });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(created(`New ${type}`, type));
        expect(res.body.createdAt).toBe(res.body.updatedAt);
      }
      const select = await post({ name: ' Plan ', description: ' Subscription plan ', type: 'select', options: [' Free', 'Pro ', 'Business'] });
      expect(select.status).toBe(200);
      expect(select.body).toEqual(created('Plan', 'select', 'Subscription plan', ['Free', 'Pro', 'Business']));
      const get = await api.request('GET', `/v1/custom-fields/${select.body.id}`, token);
      expect(get.body).toEqual(select.body);
    });

    it('is 422 validation naming the field for a name the workspace has, in any case', async () => {
      await fixtures(t.db, ws.id).customField('Company');
      for (const name of ['Company', 'COMPANY', ' company ']) {
        const res = await post({ name, type: 'longText' });
        expect(res.status).toBe(422);
        expect(res.body).toEqual(validationError({ field: 'name', reason: 'alreadyExists' }));
      }
      // Another workspace may use the name.
      expect((await post({ name: 'Company', type: 'shortText' }, { token: other.developerToken })).status).toBe(200);
    });

    it('lets exactly one of several simultaneous creates of a name win; the others get the same 422', async () => {
      const results = await Promise.all(['Race', 'race', 'RACE', 'Race', 'rAce'].map((name) => post({ name, type: 'number' })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
      for (const r of results.filter((r) => r.status === 422)) expect(r.body).toEqual(validationError({ field: 'name', reason: 'alreadyExists' }));
      const list = await api.request('GET', '/v1/custom-fields?type=number', token);
      expect(list.body.data.filter((f: { name: string }) => f.name.toLowerCase() === 'race')).toHaveLength(1);
    });

    it('checks name, description, type and options, with the path of each issue', async () => {
      const cases: [unknown, { message: string; path: (string | number)[] }[]][] = [
        [{ type: 'shortText' }, [{ message: 'Required', path: ['body', 'name'] }]],
        [{ name: '  ', type: 'shortText' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]],
        [{ name: 'x'.repeat(256), type: 'shortText' }, [{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]],
        [{ name: '2026', type: 'number' }, [{ message: 'name must not be only digits: it would read as an id in /v1/custom-fields/{idOrName}', path: ['body', 'name'] }]],
        [{ name: 'Notes', type: 'shortText', description: 'd'.repeat(1001) }, [{ message: 'description must be at most 1000 characters', path: ['body', 'description'] }]],
        [
          { name: 'Kind', type: 'text' },
          [{ message: 'Invalid option: expected one of "shortText"|"longText"|"number"|"boolean"|"date"|"datetime"|"email"|"phone"|"url"|"select"', path: ['body', 'type'] }],
        ],
        [{ name: 'Kind', type: 'select' }, [{ message: 'options are required for a select field', path: ['body', 'options'] }]],
        [{ name: 'Kind', type: 'number', options: ['1'] }, [{ message: 'options are only for select fields', path: ['body', 'options'] }]],
        [{ name: 'Kind', type: 'select', options: [] }, [{ message: 'options must list at least one choice', path: ['body', 'options'] }]],
        [
          { name: 'Kind', type: 'select', options: Array.from({ length: 101 }, (_, i) => `o${i}`) },
          [{ message: 'options must list at most 100 choices', path: ['body', 'options'] }],
        ],
        [
          { name: 'Kind', type: 'select', options: ['Red', ' ', 'red', 'x'.repeat(256), 3] },
          [
            { message: 'an option must not be empty', path: ['body', 'options', 1] },
            { message: 'an option must be at most 255 characters', path: ['body', 'options', 3] },
            { message: 'Invalid input: expected string, received number', path: ['body', 'options', 4] },
          ],
        ],
        [{ name: 'Kind', type: 'select', options: ['Red', 'Blue', 'red'] }, [{ message: 'duplicate option "red" (options are compared case-insensitively)', path: ['body', 'options', 2] }]],
        [{ name: 'Kind', type: 'shortText', required: true }, [{ message: 'Unrecognized key: "required"', path: ['body', 'required'] }]],
      ];
      for (const [body, issues] of cases) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
        expect(res.body, JSON.stringify(body).slice(0, 80)).toEqual(invalidRequestData(issues));
      }
      const list = await api.request('GET', '/v1/custom-fields', token);
      expect(list.body.data.map((f: { name: string }) => f.name)).not.toContain('Kind');
    });
  });

  describe('GET /v1/custom-fields/{idOrName}', () => {
    let planId: number;
    beforeAll(async () => {
      planId = await fixtures(t.db, ws.id).customField('Plan Tier', 'shortText', 'Which plan');
    });

    it('finds a field by id, and by name in any case (percent-encoded, trimmed)', async () => {
      for (const ref of [String(planId), 'Plan%20Tier', 'plan%20tier', 'PLAN%20TIER', '%20Plan%20Tier%20']) {
        const res = await api.request('GET', `/v1/custom-fields/${ref}`, token);
        expect(res.status, ref).toBe(200);
        expect(res.body).toEqual(stored(planId, 'Plan Tier', 'shortText', 'Which plan'));
      }
    });

    it('is 404 for an unknown id or name, and for another workspace\'s field', async () => {
      const foreign = await fixtures(t.db, other.id).customField('Foreign');
      for (const ref of ['424242', '0', '99999999999', 'Nope', String(foreign), 'Foreign']) {
        const res = await api.request('GET', `/v1/custom-fields/${ref}`, token);
        expect(res.status, ref).toBe(404);
        expect(res.body).toEqual(notFound('Custom field'));
      }
    });
  });

  describe('PUT /v1/custom-fields/{id}', () => {
    const put = (id: number | string, body: unknown, options = token) => api.request('PUT', `/v1/custom-fields/${id}`, { ...options, body });

    it('changes only what it is given: name, description', async () => {
      const id = await fixtures(t.db, ws.id).customField('Shoe size', 'number', 'EU size');
      const renamed = await put(id, { name: ' Shoe size (EU) ' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ ...stored(id, 'Shoe size (EU)', 'number', 'EU size'), updatedAt: isoNow() });
      const described = await put(id, { description: '' });
      expect(described.body).toEqual({ ...stored(id, 'Shoe size (EU)', 'number', ''), updatedAt: isoNow() });
      // A new spelling of its own name is no conflict.
      expect((await put(id, { name: 'SHOE SIZE (EU)' })).body.name).toBe('SHOE SIZE (EU)');
      expect((await api.request('GET', `/v1/custom-fields/${id}`, token)).body).toEqual({ ...stored(id, 'SHOE SIZE (EU)', 'number', ''), updatedAt: isoNow() });
    });

    it("is 422 validation for another field's name, in any case; nothing changes", async () => {
      const f = fixtures(t.db, ws.id);
      const a = await f.customField('Coupon');
      const b = await f.customField('Voucher', 'shortText', 'keep');
      const res = await put(b, { name: 'COUPON', description: 'changed' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(validationError({ field: 'name', reason: 'alreadyExists' }));
      expect((await api.request('GET', `/v1/custom-fields/${b}`, token)).body).toEqual(stored(b, 'Voucher', 'shortText', 'keep'));
      expect(a).toBeGreaterThan(0);
    });

    it('options belong to select fields only: given for another type, or missing when becoming select, is 422', async () => {
      const f = fixtures(t.db, ws.id);
      const text = await f.customField('Tier text');
      expect((await put(text, { options: ['a'] })).body).toEqual(invalidRequestData([{ message: 'options are only for select fields', path: ['body', 'options'] }]));
      expect((await put(text, { type: 'select' })).body).toEqual(invalidRequestData([{ message: 'options are required for a select field', path: ['body', 'options'] }]));
      const made = await put(text, { type: 'select', options: ['Gold', 'Silver'] });
      expect(made.body).toEqual({ ...stored(text, 'Tier text', 'select', '', ['Gold', 'Silver']), updatedAt: isoNow() });
      // A select field keeps its options when they are not given; leaving select drops them.
      expect((await put(text, { name: 'Tier' })).body.options).toEqual(['Gold', 'Silver']);
      expect((await put(text, { type: 'shortText' })).body).toEqual({ ...stored(text, 'Tier', 'shortText'), updatedAt: isoNow() });
    });

    it('needs at least one field, and checks each as create does', async () => {
      const id = await fixtures(t.db, ws.id).customField('Checked');
      expect((await put(id, {})).body).toEqual(invalidRequestData([{ message: 'Give at least one of name, description, type or options', path: ['body'] }]));
      expect((await put(id, { name: '', type: 'colour', color: 'red' })).body).toEqual(
        invalidRequestData([
          { message: 'name must not be empty', path: ['body', 'name'] },
          { message: 'Invalid option: expected one of "shortText"|"longText"|"number"|"boolean"|"date"|"datetime"|"email"|"phone"|"url"|"select"', path: ['body', 'type'] },
          { message: 'Unrecognized key: "color"', path: ['body', 'color'] },
        ]),
      );
    });

    it("is 404 for an unknown id, a name in the path, and another workspace's field", async () => {
      const foreign = await fixtures(t.db, other.id).customField('Theirs');
      for (const ref of ['424242', String(foreign)]) {
        const res = await put(ref, { name: 'Mine now' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Custom field'));
      }
      expect((await api.request('GET', `/v1/custom-fields/${foreign}`, { token: other.developerToken })).body).toEqual(stored(foreign, 'Theirs'));
      const byName = await put('Checked', { name: 'x' });
      expect(byName.status).toBe(422);
      expect(byName.body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
    });
  });

  describe('DELETE /v1/custom-fields/{id}', () => {
    it("deletes the field and every contact's value of it; other fields' values stay", async () => {
      const f = fixtures(t.db, ws.id);
      const doomed = await f.customField('Doomed');
      const kept = await f.customField('Kept');
      const ada = await f.contact({ email: 'ada-delete@example.com' });
      await f.fieldValue(ada, doomed, 'bye');
      await f.fieldValue(ada, kept, 'stays');
      const res = await api.request('DELETE', `/v1/custom-fields/${doomed}`, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await api.request('GET', `/v1/custom-fields/${doomed}`, token)).status).toBe(404);
      const values = await t.db.selectFrom('contact_custom_fields').select(['custom_field_id', 'value']).where('contact_id', '=', ada).execute();
      expect(values).toEqual([{ custom_field_id: kept, value: 'stays' }]);
      // Deleting again: 404.
      expect((await api.request('DELETE', `/v1/custom-fields/${doomed}`, token)).body).toEqual(notFound('Custom field'));
    });

    it('unlinks dynamic images that use the field (their customFieldId and their elements\' become ""); the images stay', async () => {
      const f = fixtures(t.db, ws.id);
      const field = await f.customField('Avatar URL', 'url');
      const keep = await f.customField('Badge text');
      const element = (id: string, customFieldId: string) => ({
        id, x: 0, y: 0, width: 10, height: 10, type: 'image', imageType: 'url', priority: false, url: 'https://cdn.example.com/a.png', customFieldId, imageStyle: 'square',
      });
      const image = await f.dynamicImage('Uses the field');
      await t.db
        .updateTable('dynamic_images')
        .set({ custom_field_id: field, data: JSON.stringify({ width: 100, height: 100, elements: [element('e1', String(field)), element('e2', String(keep)), element('e3', '')] }) })
        .where('id', '=', image)
        .execute();
      const elementOnly = await f.dynamicImage('Element only');
      await t.db
        .updateTable('dynamic_images')
        .set({ custom_field_id: keep, data: JSON.stringify({ width: 100, height: 100, elements: [element('e1', String(field))] }) })
        .where('id', '=', elementOnly)
        .execute();
      const untouched = await f.dynamicImage('Untouched');
      // An id that merely contains the field's digits is another field: untouched.
      await t.db
        .updateTable('dynamic_images')
        .set({ data: JSON.stringify({ width: 100, height: 100, elements: [element('e1', `${field}0`)] }) })
        .where('id', '=', untouched)
        .execute();

      expect((await api.request('DELETE', `/v1/custom-fields/${field}`, token)).body).toEqual({ success: true });

      const images = await api.request('GET', '/v1/dynamic-images', { token: ws.developerToken });
      const byName = Object.fromEntries(images.body.data.map((i: { name: string }) => [i.name, i]));
      expect(byName['Uses the field']).toMatchObject({
        customFieldId: '',
        updatedAt: isoNow(),
        data: { width: 100, height: 100, elements: [element('e1', ''), element('e2', String(keep)), element('e3', '')] },
      });
      expect(byName['Element only']).toMatchObject({ customFieldId: String(keep), updatedAt: isoNow(), data: { width: 100, height: 100, elements: [element('e1', '')] } });
      expect(byName.Untouched).toMatchObject({ customFieldId: '', updatedAt: T0, data: { width: 100, height: 100, elements: [element('e1', `${field}0`)] } });
    });

    it("is 404 for an unknown id and another workspace's field, which stays", async () => {
      const foreign = await fixtures(t.db, other.id).customField('Not yours');
      for (const ref of ['424242', String(foreign)]) {
        const res = await api.request('DELETE', `/v1/custom-fields/${ref}`, token);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound('Custom field'));
      }
      expect((await api.request('GET', `/v1/custom-fields/${foreign}`, { token: other.developerToken })).status).toBe(200);
    });
  });

  describe('access', () => {
    it('needs the custom_fields scope; read-only tokens read but do not write', async () => {
      const id = await fixtures(t.db, ws.id).customField('Scoped');
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      const fieldsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['custom_fields'] });
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      const refused = await api.request('GET', '/v1/custom-fields', { token: contactsOnly });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(forbidden({ reason: 'missingScope', scope: 'custom_fields' }));
      expect((await api.request('POST', '/v1/custom-fields', { token: contactsOnly, body: { name: 'x', type: 'shortText' } })).status).toBe(403);
      expect((await api.request('GET', `/v1/custom-fields/${id}`, { token: fieldsOnly })).status).toBe(200);
      expect((await api.request('PUT', `/v1/custom-fields/${id}`, { token: fieldsOnly, body: { description: 'ok' } })).status).toBe(200);
      expect((await api.request('GET', `/v1/custom-fields/${id}`, { token: readOnly })).status).toBe(200);
      const write = await api.request('DELETE', `/v1/custom-fields/${id}`, { token: readOnly });
      expect(write.status).toBe(403);
      expect(write.body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      // The user token of the workspace works as well (all three schemes).
      expect((await api.request('GET', `/v1/custom-fields/${id}`, { token: ws.userToken })).status).toBe(200);
    });
  });
});
