import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateDynamicImageDocument,
  DeleteDynamicImageDocument,
  DynamicImageDocument,
  DynamicImagesWithCustomFieldDocument,
  SetDynamicImageEnabledDocument,
  UpdateDynamicImageDocument,
  type DynamicImageDataInput,
} from './graphql/generated/graphql.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { fieldError, gql, invalidInput } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, forbidden, imageLink, isoNow, notFound, validationError } from './support/rest.js';

/** Dynamic images as GraphQL queries and mutations: the services, zod schemas and errors of REST. */
describe('GraphQL dynamic images', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let field: number;
  let theirField: number;
  let theirImage: number;

  /** A picture (customField) and a text: the GraphQL input, nulls for the other kind's fields. */
  const input = (fieldId: string): DynamicImageDataInput => ({
    width: 600,
    height: 400,
    elements: [
      { id: 'photo', x: 10, y: 10, width: 200, height: 200, type: 'image', imageType: 'customField', customFieldId: fieldId, imageStyle: 'circle', text: null, fontSize: null },
      { id: 'caption', x: 10, y: 300, width: 500, height: 60, type: 'text', text: 'Hi there', fontSize: 32, color: '#FF0000', align: 'right', imageType: null, url: null },
    ],
  });
  /** The same layout as REST and GraphQL answer it (a transparent canvas, the text's typeface defaults). */
  const stored = (fieldId: number) => ({
    width: 600,
    height: 400,
    backgroundColor: '',
    elements: [
      { id: 'photo', x: 10, y: 10, width: 200, height: 200, type: 'image', priority: false, customFieldId: String(fieldId), imageType: 'customField', url: '', imageStyle: 'circle' },
      // Every element carries every field the contract names, null where it does not apply.
      { id: 'caption', x: 10, y: 300, width: 500, height: 60, type: 'text', priority: false, customFieldId: '', imageType: null, url: null, imageStyle: null, text: 'Hi there', fontSize: 32, color: '#FF0000', align: 'right', fontFamily: 'arial', bold: false, italic: false, uppercase: false, fallback: '' },
    ],
  });

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    field = await fixtures(t.db, ws.id).customField('Photo URL', 'url');
    theirField = await fixtures(t.db, other.id).customField('Theirs');
    theirImage = await fixtures(t.db, other.id).dynamicImage('Their image');
  });
  afterAll(() => t.close());

  it('createDynamicImage answers what GET /v1/dynamic-images/{id} answers; custom fields by global or plain id', async () => {
    const res = await gql(
      t,
      CreateDynamicImageDocument,
      { input: { name: ' Profile card ', customFieldId: encodeGlobalID('CustomField', String(field)), data: input(encodeGlobalID('CustomField', String(field))) } },
      { token: ws.developerToken },
    );
    const id = res.body.data?.createDynamicImage.id;
    expect(res.body).toEqual({
      data: {
        createDynamicImage: {
          id: digits(),
          name: 'Profile card',
          customFieldId: String(field),
          backgroundUrl: '',
          imageUrl: imageLink(t.config, id!),
          createdAt: isoNow(),
          updatedAt: isoNow(),
          enabled: true,
          data: stored(field),
        },
      },
    });
    const created = res.body.data!.createDynamicImage;
    const rest = await t.request('GET', `/v1/dynamic-images/${created.id}`, { token: ws.developerToken });
    expect(rest.body).toEqual(created);
  });

  it('dynamicImage by plain or global id; another workspace\'s image is notFound', async () => {
    const id = await fixtures(t.db, ws.id).dynamicImage('Read me', T0, { customFieldId: field, enabled: false, data: stored(field) });
    const expected = {
      id: String(id),
      name: 'Read me',
      customFieldId: String(field),
      backgroundUrl: 'https://cdn.example.com/bg.png',
      imageUrl: imageLink(t.config, id),
      createdAt: T0,
      updatedAt: T0,
      enabled: false,
      data: stored(field),
    };
    for (const ref of [String(id), encodeGlobalID('DynamicImage', String(id))]) {
      expect((await gql(t, DynamicImageDocument, { id: ref }, { token: ws.userToken })).body).toEqual({ data: { dynamicImage: expected } });
    }
    const theirs = await gql(t, DynamicImageDocument, { id: String(theirImage) }, { token: ws.developerToken });
    expect(theirs.body).toEqual({ data: null, errors: [fieldError(['dynamicImage'], notFound('Dynamic image'), 'Dynamic image not found')] });
  });

  it('updateDynamicImage replaces every writable field; customFieldId left out means none; imageUrl stays the public link', async () => {
    const id = String(await fixtures(t.db, ws.id).dynamicImage('Old', T0, { customFieldId: field }));
    const res = await gql(
      t,
      UpdateDynamicImageDocument,
      { id, input: { name: 'New', backgroundUrl: 'https://cdn.example.com/new.png', enabled: false, data: input(String(field)) } },
      { token: ws.developerToken },
    );
    expect(res.body).toEqual({
      data: {
        updateDynamicImage: {
          id,
          name: 'New',
          customFieldId: '',
          backgroundUrl: 'https://cdn.example.com/new.png',
          imageUrl: imageLink(t.config, id),
          createdAt: T0,
          updatedAt: isoNow(),
          enabled: false,
          data: stored(field),
        },
      },
    });
  });

  it('setDynamicImageEnabled and deleteDynamicImage; afterwards the image is notFound', async () => {
    const id = String(await fixtures(t.db, ws.id).dynamicImage('Short-lived'));
    const off = await gql(t, SetDynamicImageEnabledDocument, { id, enabled: false }, { token: ws.developerToken });
    expect(off.body.data?.setDynamicImageEnabled).toEqual(expect.objectContaining({ id, enabled: false, updatedAt: isoNow() }));
    expect((await gql(t, DeleteDynamicImageDocument, { id: encodeGlobalID('DynamicImage', id) }, { token: ws.developerToken })).body).toEqual({ data: { deleteDynamicImage: { success: true } } });
    const gone = fieldError(['dynamicImage'], notFound('Dynamic image'), 'Dynamic image not found');
    expect((await gql(t, DynamicImageDocument, { id }, { token: ws.developerToken })).body).toEqual({ data: null, errors: [gone] });
    expect((await gql(t, DeleteDynamicImageDocument, { id }, { token: ws.developerToken })).body).toEqual({ data: null, errors: [{ ...gone, path: ['deleteDynamicImage'] }] });
    const theirs = await gql(t, SetDynamicImageEnabledDocument, { id: String(theirImage), enabled: false }, { token: ws.developerToken });
    expect(theirs.body).toEqual({ data: null, errors: [fieldError(['setDynamicImageEnabled'], notFound('Dynamic image'), 'Dynamic image not found')] });
  });

  it('the layout rules of REST, at the argument paths', async () => {
    const data = input(String(field));
    data.elements[1] = { ...data.elements[1], x: 200, imageType: 'avatar' };
    const res = await gql(t, CreateDynamicImageDocument, { input: { name: 'Bad', data } }, { token: ws.developerToken });
    expect(res.body).toEqual({
      data: null,
      errors: [
        invalidInput(
          ['createDynamicImage'],
          [
            // An unknown key is named at its own path, as REST names it.
            { message: 'Unrecognized key: "imageType"', path: ['input', 'data', 'elements', 1, 'imageType'] },
            { message: 'x + width must be at most the canvas width (600)', path: ['input', 'data', 'elements', 1, 'width'] },
          ],
          'input.data.elements[1].imageType: Unrecognized key: "imageType" (and 1 more issue)',
        ),
      ],
    });
    data.elements[1] = { ...data.elements[1], imageType: null, type: 'shape' };
    const unknownType = await gql(t, CreateDynamicImageDocument, { input: { name: 'Bad', data } }, { token: ws.developerToken });
    expect(unknownType.body.errors![0].extensions.data).toEqual({ issues: [{ message: 'type must be one of image, text, qrCode', path: ['input', 'data', 'elements', 1, 'type'] }] });
    data.elements[1] = { ...data.elements[1], type: 'text' };
    const outside = await gql(t, CreateDynamicImageDocument, { input: { name: 'Bad', data } }, { token: ws.developerToken });
    expect(outside.body.errors![0].extensions.data).toEqual({ issues: [{ message: 'x + width must be at most the canvas width (600)', path: ['input', 'data', 'elements', 1, 'width'] }] });
  });

  it('qrCode elements, typeface options and the canvas colour: created, read, and sent back as read', async () => {
    const data: DynamicImageDataInput = {
      width: 400,
      height: 300,
      backgroundColor: '#FFF7ED',
      elements: [
        { id: 'qr', x: 10, y: 10, width: 120, height: 120, type: 'qrCode', text: 'https://example.com/?email={{email}}' },
        { id: 'hi', x: 150, y: 10, width: 240, height: 60, type: 'text', text: 'Hi {{first_name}}', fontSize: 24, color: '#111111', align: 'left', fontFamily: 'greatVibes', bold: true, uppercase: true, fallback: 'friend' },
        { id: 'face', x: 150, y: 100, width: 100, height: 100, type: 'image', imageType: 'avatarUser' },
      ],
    };
    const created = await gql(t, CreateDynamicImageDocument, { input: { name: 'Card', data } }, { token: ws.developerToken });
    const image = created.body.data!.createDynamicImage;
    const answered = {
      width: 400,
      height: 300,
      backgroundColor: '#FFF7ED',
      elements: [
        { id: 'qr', x: 10, y: 10, width: 120, height: 120, type: 'qrCode', priority: false, customFieldId: '', imageType: null, url: null, imageStyle: null, text: 'https://example.com/?email={{email}}', color: '#000000' },
        {
          id: 'hi', x: 150, y: 10, width: 240, height: 60, type: 'text', priority: false, customFieldId: '', imageType: null, url: null, imageStyle: null,
          text: 'Hi {{first_name}}', fontSize: 24, color: '#111111', align: 'left', fontFamily: 'greatVibes', bold: true, italic: false, uppercase: true, fallback: 'friend',
        },
        { id: 'face', x: 150, y: 100, width: 100, height: 100, type: 'image', priority: false, customFieldId: '', imageType: 'avatarUser', url: '', imageStyle: 'square' },
      ],
    };
    expect(created.body).toEqual({
      data: {
        createDynamicImage: {
          id: digits(), name: 'Card', customFieldId: '', backgroundUrl: '', imageUrl: imageLink(t.config, image.id), createdAt: isoNow(), updatedAt: isoNow(), enabled: true, data: answered,
        },
      },
    });
    // REST answers the same layout.
    expect((await t.request('GET', `/v1/dynamic-images/${image.id}`, { token: ws.developerToken })).body).toEqual(image);
    const read = (await gql(t, DynamicImageDocument, { id: image.id }, { token: ws.developerToken })).body.data!.dynamicImage;
    expect(read).toEqual(image);
    const { name, backgroundUrl, enabled } = read;
    const again = await gql(t, UpdateDynamicImageDocument, { id: image.id, input: { name, backgroundUrl, enabled, data: read.data as DynamicImageDataInput } }, { token: ws.developerToken });
    expect(again.body).toEqual({ data: { updateDynamicImage: { ...image, updatedAt: isoNow() } } });
  });

  it('a layout stored before the canvas colour and the typeface options reads with their defaults', async () => {
    const old = { width: 100, height: 100, elements: [{ id: 't', x: 0, y: 0, width: 100, height: 20, type: 'text', priority: false, text: 'Hi', customFieldId: '', fontSize: 12, color: '#000000', align: 'left' }] };
    const id = String(await fixtures(t.db, ws.id).dynamicImage('Old', T0, { data: old }));
    const res = await gql(t, DynamicImageDocument, { id }, { token: ws.developerToken });
    expect(res.body).toEqual({
      data: {
        dynamicImage: {
          id, name: 'Old', customFieldId: '', backgroundUrl: 'https://cdn.example.com/bg.png', imageUrl: imageLink(t.config, id), createdAt: T0, updatedAt: T0, enabled: true,
          data: {
            width: 100,
            height: 100,
            backgroundColor: '',
            elements: [{ ...old.elements[0], imageType: null, url: null, imageStyle: null, fontFamily: 'arial', bold: false, italic: false, uppercase: false, fallback: '' }],
          },
        },
      },
    });
  });

  it('private, local and credentialed URLs are refused at save, at the input paths; nothing is stored', async () => {
    const before = await t.db.selectFrom('dynamic_images').selectAll().where('workspace_id', '=', ws.id).orderBy('id').execute();
    const id = String(await fixtures(t.db, ws.id).dynamicImage('Kept'));
    const kept = await t.db.selectFrom('dynamic_images').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
    const spellings: [string, string][] = [
      ['http://127.0.0.1/x.png', "url's host 127.0.0.1 is not a public address"],
      ['http://localhost/x.png', "url's host localhost is a local name, not a public host"],
      ['http://[::1]/', "url's host [::1] is not a public address"],
      ['http://2130706433/', "url's host 127.0.0.1 is not a public address"],
      ['http://10.0.0.1/', "url's host 10.0.0.1 is not a public address"],
      ['http://169.254.169.254/latest', "url's host 169.254.169.254 is not a public address"],
      ['http://intranet/x.png', "url's host intranet is not a public host name (it has no dot)"],
      ['http://user:pass@cdn.example.com/x.png', 'url must not carry a user name or password'],
    ];
    for (const [url, message] of spellings) {
      const data: DynamicImageDataInput = { width: 200, height: 200, elements: [{ id: 'p', x: 0, y: 0, width: 100, height: 100, type: 'image', imageType: 'url', url }] };
      const issues = (at: string[]) => [
        { message, path: [...at, 'backgroundUrl'] },
        { message, path: [...at, 'data', 'elements', 0, 'url'] },
      ];
      const created = await gql(t, CreateDynamicImageDocument, { input: { name: 'Private', backgroundUrl: url, data } }, { token: ws.developerToken });
      expect(created.body).toEqual({ data: null, errors: [invalidInput(['createDynamicImage'], issues(['input']), `input.backgroundUrl: ${message} (and 1 more issue)`)] });
      const updated = await gql(t, UpdateDynamicImageDocument, { id, input: { name: 'Private', backgroundUrl: url, enabled: true, data } }, { token: ws.developerToken });
      expect(updated.body).toEqual({ data: null, errors: [invalidInput(['updateDynamicImage'], issues(['input']), `input.backgroundUrl: ${message} (and 1 more issue)`)] });
    }
    expect(await t.db.selectFrom('dynamic_images').selectAll().where('workspace_id', '=', ws.id).where('id', '!=', Number(id)).orderBy('id').execute()).toEqual(before);
    expect(await t.db.selectFrom('dynamic_images').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow()).toEqual(kept);
  });

  it('{{cf:...}} names a custom field by id or by name (any case); one that names nothing is a 422 validation listing it, and nothing is stored', async () => {
    const data = (text: string): DynamicImageDataInput => ({ width: 200, height: 100, elements: [{ id: 't', x: 0, y: 0, width: 200, height: 50, type: 'text', text, fontSize: 16, color: '#000000', align: 'left' }, { id: 'q', x: 0, y: 50, width: 50, height: 50, type: 'qrCode', text: `{{cf:${field}}}` }] });
    const ok = await gql(t, CreateDynamicImageDocument, { input: { name: 'Variables', data: data(`{{cf:${field}}} {{CF:x}} {{ cf: PHOTO url }}`) } }, { token: ws.developerToken });
    expect(ok.body.data?.createDynamicImage.data.elements.map((e) => (e as { text?: string }).text)).toEqual([`{{cf:${field}}} {{CF:x}} {{ cf: PHOTO url }}`, `{{cf:${field}}}`]);
    const count = async () => (await t.db.selectFrom('dynamic_images').select('id').where('workspace_id', '=', ws.id).execute()).length;
    const before = await count();
    const refusal = (path: string) => ({
      data: null,
      errors: [fieldError([path], validationError({ field: 'data.elements.text', reason: 'notFound', ids: ['{{cf:nope}}', '{{cf:Theirs}}'] }), 'data.elements.text names nothing in this workspace: {{cf:nope}}, {{cf:Theirs}}')],
    });
    const created = await gql(t, CreateDynamicImageDocument, { input: { name: 'Unknown', data: data('{{cf:nope}} {{cf:Theirs}}') } }, { token: ws.developerToken });
    expect(created.body).toEqual(refusal('createDynamicImage'));
    const id = ok.body.data!.createDynamicImage.id;
    const updated = await gql(t, UpdateDynamicImageDocument, { id, input: { name: 'Unknown', backgroundUrl: '', enabled: true, data: data('{{cf:nope}} {{cf:Theirs}}') } }, { token: ws.developerToken });
    expect(updated.body).toEqual(refusal('updateDynamicImage'));
    expect(await count()).toBe(before);
    expect((await gql(t, DynamicImageDocument, { id }, { token: ws.developerToken })).body.data?.dynamicImage).toEqual(ok.body.data!.createDynamicImage);
  });

  it("another workspace's custom field is a 422 validation naming it", async () => {
    const res = await gql(t, CreateDynamicImageDocument, { input: { name: 'Theirs', customFieldId: String(theirField), data: { width: 10, height: 10, elements: [] } } }, { token: ws.developerToken });
    expect(res.body).toEqual({
      data: null,
      errors: [fieldError(['createDynamicImage'], validationError({ field: 'customFieldId', reason: 'notFound', ids: [String(theirField)] }), `customFieldId names nothing in this workspace: ${theirField}`)],
    });
  });

  it('DynamicImage.customField: the field, or null when none', async () => {
    const own = await t.workspace({ name: 'Relation' });
    const f = fixtures(t.db, own.id);
    const plan = await f.customField('Plan');
    const withField = await f.dynamicImage('With', T0, { customFieldId: plan });
    const without = await f.dynamicImage('Without', '2026-11-01T09:00:00.000Z');
    const res = await gql(t, DynamicImagesWithCustomFieldDocument, { perPage: 10 }, { token: own.developerToken });
    expect(res.body).toEqual({
      data: { dynamicImages: { data: [{ id: String(withField), customField: { id: String(plan), name: 'Plan', type: 'shortText' } }, { id: String(without), customField: null }] } },
    });
  });

  it('needs the dynamic_images scope; mutations need a full token', async () => {
    const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
    const denied = await gql(t, DynamicImageDocument, { id: String(theirImage) }, { token: tagsOnly });
    expect(denied.body).toEqual({ data: null, errors: [fieldError(['dynamicImage'], forbidden({ reason: 'missingScope', scope: 'dynamic_images' }), 'This token lacks the "dynamic_images" scope')] });
    const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
    const refused = await gql(t, DeleteDynamicImageDocument, { id: String(theirImage) }, { token: readOnly });
    expect(refused.body.errors![0].extensions).toEqual({ ...envelopes.FORBIDDEN, message: undefined, data: { reason: 'readOnlyToken' } });
  });
});
