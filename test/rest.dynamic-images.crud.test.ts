import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBool } from '../src/db/values.js';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, imageLink, invalidRequestData, isoNow, notFound } from './support/rest.js';

/** POST /v1/dynamic-images, GET, PUT and DELETE /v1/dynamic-images/{id}, PATCH .../{id}/enabled. */
describe('dynamic images', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  /** Another workspace's image. */
  let theirs: number;
  let field: number;

  /** A 600 x 400 canvas with a picture and a text; every value given. */
  const layout = (fieldId: number | string) => ({
    width: 600,
    height: 400,
    elements: [
      { id: 'logo', x: 20, y: 20, width: 100, height: 100, type: 'image', imageType: 'url', priority: true, url: 'https://cdn.example.com/logo.png', customFieldId: '', imageStyle: 'rounded' },
      { id: 'plan', x: 20, y: 300, width: 560, height: 80, type: 'text', priority: false, text: 'Member', customFieldId: String(fieldId), fontSize: 48, color: '#112233', align: 'center' },
    ],
  });
  /** A text element's typeface options as answered when not given (or stored before they existed). */
  const textDefaults = { fontFamily: 'arial', bold: false, italic: false, uppercase: false, fallback: '' };
  /**
   * The layout as REST answers it: a transparent canvas (backgroundColor ""), every element carries
   * every field the contract names, a text element's picture fields null and its typeface defaults.
   */
  const answered = (fieldId: number | string) => {
    const { elements, ...canvas } = layout(fieldId);
    return { ...canvas, backgroundColor: '', elements: elements.map((e) => (e.type === 'text' ? { ...e, imageType: null, url: null, imageStyle: null, ...textDefaults } : e)) };
  };
  /** The fixture image as REST answers it. */
  const fixtureImage = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
    id: String(id),
    name,
    customFieldId: '',
    backgroundUrl: 'https://cdn.example.com/bg.png',
    // The public link, whatever the stored image_url column holds (the fixture's is a CDN URL).
    imageUrl: imageLink(t.config, id),
    createdAt: T0,
    updatedAt: T0,
    enabled: true,
    data: { width: 1080, height: 1080, backgroundColor: '', elements: [] },
    ...extra,
  });
  const stored = (id: number | string) => t.db.selectFrom('dynamic_images').selectAll().where('id', '=', Number(id)).executeTakeFirst();
  const countOf = async (workspaceId: number) => (await t.db.selectFrom('dynamic_images').select('id').where('workspace_id', '=', workspaceId).execute()).length;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    theirs = await fixtures(t.db, other.id).dynamicImage('Their image');
    field = await fixtures(t.db, ws.id).customField('Plan');
  });
  afterAll(() => t.close());

  describe('POST /v1/dynamic-images', () => {
    it('creates an image: 201, Location, the whole image; imageUrl is its public link; GET at Location answers the same', async () => {
      const body = { name: ' Member card ', customFieldId: String(field), backgroundUrl: 'https://cdn.example.com/card.png', enabled: false, data: layout(field) };
      const res = await api.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: digits(),
        name: 'Member card',
        customFieldId: String(field),
        backgroundUrl: 'https://cdn.example.com/card.png',
        imageUrl: imageLink(t.config, res.body.id),
        createdAt: isoNow(),
        updatedAt: res.body.createdAt,
        enabled: false,
        data: answered(field),
      });
      expect(res.headers.get('location')).toBe(`/v1/dynamic-images/${res.body.id}`);
      const read = await api.request('GET', res.headers.get('location')!, { token: ws.userToken });
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
      expect(await stored(res.body.id)).toMatchObject({ workspace_id: ws.id, custom_field_id: field, image_url: '' });
    });

    it('takes name and data alone: no custom field, no background, enabled, element defaults filled in', async () => {
      const res = await api.request('POST', '/v1/dynamic-images', {
        token: ws.developerToken,
        body: {
          name: 'Minimal',
          data: {
            width: 100,
            height: 100,
            elements: [
              { id: 'a', x: 0, y: 0, width: 100, height: 100, type: 'image', imageType: 'url', url: 'http://cdn.example.com/a.png' },
              { id: 'b', x: 0, y: 0, width: 50, height: 50, type: 'image', imageType: 'avatar' },
              { id: 'c', x: 10, y: 10, width: 80, height: 20, type: 'text', text: 'Hi', fontSize: 12, color: '#ffffff', align: 'left' },
            ],
          },
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: digits(),
        name: 'Minimal',
        customFieldId: '',
        backgroundUrl: '',
        imageUrl: imageLink(t.config, res.body.id),
        createdAt: isoNow(),
        updatedAt: res.body.createdAt,
        enabled: true,
        data: {
          width: 100,
          height: 100,
          backgroundColor: '',
          elements: [
            { id: 'a', x: 0, y: 0, width: 100, height: 100, type: 'image', imageType: 'url', priority: false, url: 'http://cdn.example.com/a.png', customFieldId: '', imageStyle: 'square' },
            { id: 'b', x: 0, y: 0, width: 50, height: 50, type: 'image', imageType: 'avatar', priority: false, url: '', customFieldId: '', imageStyle: 'square' },
            { id: 'c', x: 10, y: 10, width: 80, height: 20, type: 'text', priority: false, text: 'Hi', customFieldId: '', fontSize: 12, color: '#ffffff', align: 'left', imageType: null, url: null, imageStyle: null, ...textDefaults },
          ],
        },
      });
      expect((await stored(res.body.id))?.custom_field_id).toBeNull();
    });

    it('customFieldId null and "" both mean none; a field id with leading zeros is stored in its plain digits', async () => {
      for (const customFieldId of [null, '']) {
        const res = await api.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: { name: 'No field', customFieldId, data: { width: 10, height: 10, elements: [] } } });
        expect([res.status, res.body.customFieldId]).toEqual([201, '']);
      }
      const padded = `00${field}`;
      const res = await api.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: { name: 'Padded', customFieldId: padded, data: layout(padded) } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(expect.objectContaining({ customFieldId: String(field), data: answered(field) }));
    });

    it('requires name and data, refuses imageUrl, unknown keys and an empty name; nothing is stored', async () => {
      const before = await countOf(ws.id);
      const missing = await api.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: {} });
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual(
        invalidRequestData([
          { message: 'Required', path: ['body', 'name'] },
          { message: 'Required', path: ['body', 'data'] },
        ]),
      );
      const extra = await api.request('POST', '/v1/dynamic-images', {
        token: ws.developerToken,
        body: { name: '  ', imageUrl: 'https://cdn.example.com/x.png', data: { width: 10, height: 10, elements: [] } },
      });
      expect(extra.body).toEqual(
        invalidRequestData([
          { message: 'name must not be empty', path: ['body', 'name'] },
          { message: 'Unrecognized key: "imageUrl"', path: ['body', 'imageUrl'] },
        ]),
      );
      const long = await api.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: { name: 'x'.repeat(256), data: { width: 10, height: 10, elements: [] } } });
      expect(long.body).toEqual(invalidRequestData([{ message: 'name must be at most 255 characters', path: ['body', 'name'] }]));
      expect(await countOf(ws.id)).toBe(before);
    });

    it('needs a full token with the dynamic_images scope', async () => {
      const body = { name: 'Denied', data: { width: 10, height: 10, elements: [] } };
      const contactsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['contacts'] });
      expect((await api.request('POST', '/v1/dynamic-images', { token: contactsOnly, body })).body).toEqual(forbidden({ reason: 'missingScope', scope: 'dynamic_images' }));
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await api.request('POST', '/v1/dynamic-images', { token: readOnly, body })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
    });
  });

  describe('GET /v1/dynamic-images/{id}', () => {
    it('answers the image with its layout', async () => {
      const id = await fixtures(t.db, ws.id).dynamicImage('Stored', T0, { customFieldId: field, enabled: false, data: layout(field) });
      const res = await api.request('GET', `/v1/dynamic-images/${id}`, { token: ws.developerToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(fixtureImage(id, 'Stored', { customFieldId: String(field), enabled: false, data: answered(field) }));
      // The /api/v1 alias answers the same.
      expect((await t.request('GET', `/api/v1/dynamic-images/${id}`, { token: ws.developerToken })).body).toEqual(res.body);
    });

    it("is 404 for an unknown id, another workspace's image and an id beyond the key range; 422 for a non-digit id", async () => {
      for (const id of ['999999', String(theirs), '99999999999999999999']) {
        const res = await api.request('GET', `/v1/dynamic-images/${id}`, { token: ws.developerToken });
        expect([res.status, res.body]).toEqual([404, notFound('Dynamic image')]);
      }
      const bad = await api.request('GET', '/v1/dynamic-images/abc', { token: ws.developerToken });
      expect(bad.body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
    });

    it('needs the dynamic_images scope', async () => {
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      expect((await api.request('GET', `/v1/dynamic-images/${theirs}`, { token: tagsOnly })).body).toEqual(forbidden({ reason: 'missingScope', scope: 'dynamic_images' }));
    });
  });

  describe('PUT /v1/dynamic-images/{id}', () => {
    it('replaces every writable field; id, createdAt and imageUrl (the public link) stay; updatedAt moves', async () => {
      const id = await fixtures(t.db, ws.id).dynamicImage('Before', T0, { customFieldId: field, data: layout(field) });
      const newLayout = { width: 200, height: 200, elements: [{ id: 'only', x: 0, y: 0, width: 200, height: 200, type: 'image', imageType: 'customField', customFieldId: String(field) }] };
      const res = await api.request('PUT', `/v1/dynamic-images/${id}`, {
        token: ws.developerToken,
        body: { name: 'After', customFieldId: null, backgroundUrl: '', enabled: false, data: newLayout },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        fixtureImage(id, 'After', {
          backgroundUrl: '',
          enabled: false,
          updatedAt: isoNow(),
          data: { width: 200, height: 200, backgroundColor: '', elements: [{ ...newLayout.elements[0], priority: false, url: '', imageStyle: 'square' }] },
        }),
      );
      expect(res.body.updatedAt).not.toBe(T0);
      expect((await api.request('GET', `/v1/dynamic-images/${id}`, { token: ws.developerToken })).body).toEqual(res.body);
      expect((await stored(id))?.custom_field_id).toBeNull();
    });

    it('needs every writable field: a missing one is 422 and nothing changes', async () => {
      const id = await fixtures(t.db, ws.id).dynamicImage('Whole');
      const before = await stored(id);
      const res = await api.request('PUT', `/v1/dynamic-images/${id}`, { token: ws.developerToken, body: { name: 'Partial', data: { width: 10, height: 10, elements: [] } } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalidRequestData([
          { message: 'Required', path: ['body', 'customFieldId'] },
          { message: 'Required', path: ['body', 'backgroundUrl'] },
          { message: 'Required', path: ['body', 'enabled'] },
        ]),
      );
      expect(await stored(id)).toEqual(before);
    });

    it("is 404 for an unknown id and another workspace's image, which stays as it was", async () => {
      const before = await stored(theirs);
      const body = { name: 'Taken over', customFieldId: null, backgroundUrl: '', enabled: false, data: { width: 10, height: 10, elements: [] } };
      for (const id of ['999999', String(theirs)]) {
        const res = await api.request('PUT', `/v1/dynamic-images/${id}`, { token: ws.developerToken, body });
        expect([res.status, res.body]).toEqual([404, notFound('Dynamic image')]);
      }
      expect(await stored(theirs)).toEqual(before);
    });
  });

  describe('PATCH /v1/dynamic-images/{id}/enabled', () => {
    it('switches the image off and on, answering the image', async () => {
      const id = await fixtures(t.db, ws.id).dynamicImage('Switch');
      const off = await api.request('PATCH', `/v1/dynamic-images/${id}/enabled`, { token: ws.developerToken, body: { enabled: false } });
      expect(off.status).toBe(200);
      expect(off.body).toEqual(fixtureImage(id, 'Switch', { enabled: false, updatedAt: isoNow() }));
      const on = await api.request('PATCH', `/v1/dynamic-images/${id}/enabled`, { token: ws.developerToken, body: { enabled: true } });
      expect(on.body).toEqual(fixtureImage(id, 'Switch', { enabled: true, updatedAt: isoNow() }));
    });

    it('needs a boolean enabled and nothing else', async () => {
      const id = await fixtures(t.db, ws.id).dynamicImage('Strict');
      const none = await api.request('PATCH', `/v1/dynamic-images/${id}/enabled`, { token: ws.developerToken, body: {} });
      expect(none.body).toEqual(invalidRequestData([{ message: 'Required', path: ['body', 'enabled'] }]));
      const text = await api.request('PATCH', `/v1/dynamic-images/${id}/enabled`, { token: ws.developerToken, body: { enabled: 'false', name: 'x' } });
      expect(text.body).toEqual(
        invalidRequestData([
          { message: 'Invalid input: expected boolean, received string', path: ['body', 'enabled'] },
          { message: 'Unrecognized key: "name"', path: ['body', 'name'] },
        ]),
      );
      expect(toBool((await stored(id))?.enabled)).toBe(true);
    });

    it("is 404 for another workspace's image, which stays as it was", async () => {
      const res = await api.request('PATCH', `/v1/dynamic-images/${theirs}/enabled`, { token: ws.developerToken, body: { enabled: false } });
      expect([res.status, res.body]).toEqual([404, notFound('Dynamic image')]);
      expect(toBool((await stored(theirs))?.enabled)).toBe(true);
    });
  });

  describe('DELETE /v1/dynamic-images/{id}', () => {
    it('deletes for good: {success: true}, then 404 on every route', async () => {
      const id = await fixtures(t.db, ws.id).dynamicImage('Doomed');
      const res = await api.request('DELETE', `/v1/dynamic-images/${id}`, { token: ws.developerToken });
      expect([res.status, res.body]).toEqual([200, { success: true }]);
      expect(await stored(id)).toBeUndefined();
      expect((await api.request('GET', `/v1/dynamic-images/${id}`, { token: ws.developerToken })).body).toEqual(notFound('Dynamic image'));
      expect((await api.request('DELETE', `/v1/dynamic-images/${id}`, { token: ws.developerToken })).body).toEqual(notFound('Dynamic image'));
      expect((await api.request('PATCH', `/v1/dynamic-images/${id}/enabled`, { token: ws.developerToken, body: { enabled: true } })).body).toEqual(notFound('Dynamic image'));
    });

    it("is 404 for another workspace's image, which stays", async () => {
      const res = await api.request('DELETE', `/v1/dynamic-images/${theirs}`, { token: ws.developerToken });
      expect([res.status, res.body]).toEqual([404, notFound('Dynamic image')]);
      expect(await stored(theirs)).toBeDefined();
    });

    it('a read-only token may not delete', async () => {
      const id = await fixtures(t.db, ws.id).dynamicImage('Kept');
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await api.request('DELETE', `/v1/dynamic-images/${id}`, { token: readOnly })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect(await stored(id)).toBeDefined();
    });
  });
});
