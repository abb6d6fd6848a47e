import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../db/seeds/demo.js';
import { seedSyntheticContacts } from '../db/seeds/synthetic.js';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData, validationError } from './support/rest.js';

/**
 * The layout rules of POST and PUT /v1/dynamic-images: the canvas, the elements' boxes, ids and
 * enumerations, URLs and custom fields. A refused body stores nothing.
 */
describe('dynamic image layouts', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let field: number;
  let theirField: number;
  let image: number;

  const picture = (extra: Record<string, unknown> = {}) => ({
    id: 'pic', x: 0, y: 0, width: 100, height: 100, type: 'image', imageType: 'url', url: 'https://cdn.example.com/p.png', ...extra,
  });
  const text = (extra: Record<string, unknown> = {}) => ({
    id: 'txt', x: 0, y: 0, width: 100, height: 20, type: 'text', text: 'Hello', fontSize: 16, color: '#000000', align: 'left', ...extra,
  });
  const noPicture = { imageType: null, url: null, imageStyle: null };
  /** A text element's typeface options when not given. */
  const textDefaults = { fontFamily: 'arial', bold: false, italic: false, uppercase: false, fallback: '' };
  const body = (elements: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'Layout', data: { width: 1000, height: 500, elements }, ...extra });
  const create = (b: unknown) => api.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: b });
  const replace = (b: Record<string, unknown>) =>
    api.request('PUT', `/v1/dynamic-images/${image}`, { token: ws.developerToken, body: { customFieldId: null, backgroundUrl: '', enabled: true, ...b } });
  const count = async () => (await t.db.selectFrom('dynamic_images').select('id').where('workspace_id', '=', ws.id).execute()).length;
  const elementIssue = (i: number, key: string, message: string) => ({ message, path: ['body', 'data', 'elements', i, key] });

  /** Every refusal below must leave the workspace's images as they were. */
  const refused = async (b: unknown, expected: unknown) => {
    const before = await count();
    const res = await create(b);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(expected);
    // PUT applies the same rules.
    const put = await replace(b as Record<string, unknown>);
    expect(put.body).toEqual(expected);
    expect(await count()).toBe(before);
  };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    field = await f.customField('Avatar URL', 'url');
    image = await f.dynamicImage('Replaced');
    theirField = await fixtures(t.db, (await t.workspace({ name: 'Other' })).id).customField('Theirs');
  });
  afterAll(() => t.close());

  it('takes every element kind and enumeration value', async () => {
    const elements = [
      picture({ id: 'a', imageStyle: 'square' }),
      picture({ id: 'b', imageType: 'customField', customFieldId: String(field), url: '', imageStyle: 'circle' }),
      picture({ id: 'c', imageType: 'avatar', url: '', imageStyle: 'rounded', priority: true }),
      picture({ id: 'g', imageType: 'avatarUser', url: '' }),
      text({ id: 'd', align: 'left' }),
      text({ id: 'e', text: '', customFieldId: String(field), align: 'center', color: '#ABCDEF', fontFamily: 'serif' }),
      text({ id: 'f', align: 'right', fontSize: 512, fontFamily: 'roboto' }),
      text({ id: 'h', fontFamily: 'greatVibes', bold: true, italic: true, uppercase: true, fallback: 'friend' }),
      { id: 'q', x: 0, y: 0, width: 100, height: 100, type: 'qrCode', text: 'https://example.com/' },
    ];
    // A colour in either case, kept as given.
    const res = await create({ name: 'Layout', data: { width: 1000, height: 500, backgroundColor: '#0a0B0c', elements } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      width: 1000,
      height: 500,
      backgroundColor: '#0a0B0c',
      elements: [
        { ...picture({ id: 'a' }), priority: false, customFieldId: '', imageStyle: 'square' },
        { ...picture({ id: 'b', imageType: 'customField', url: '' }), priority: false, customFieldId: String(field), imageStyle: 'circle' },
        // avatar is kept as given (an alias of avatarUser).
        { ...picture({ id: 'c', imageType: 'avatar', url: '' }), priority: true, customFieldId: '', imageStyle: 'rounded' },
        { ...picture({ id: 'g', imageType: 'avatarUser', url: '' }), priority: false, customFieldId: '', imageStyle: 'square' },
        // Every element answers every field the contract names: a text element's picture fields are null.
        { ...text({ id: 'd' }), priority: false, customFieldId: '', ...noPicture, ...textDefaults },
        { ...text({ id: 'e', text: '', color: '#ABCDEF', align: 'center' }), priority: false, customFieldId: String(field), ...noPicture, ...textDefaults, fontFamily: 'serif' },
        { ...text({ id: 'f', align: 'right', fontSize: 512 }), priority: false, customFieldId: '', ...noPicture, ...textDefaults, fontFamily: 'roboto' },
        { ...text({ id: 'h' }), priority: false, customFieldId: '', ...noPicture, fontFamily: 'greatVibes', bold: true, italic: true, uppercase: true, fallback: 'friend' },
        // A QR code's picture fields are null and its customFieldId "", its colour black unless given.
        { id: 'q', x: 0, y: 0, width: 100, height: 100, type: 'qrCode', priority: false, text: 'https://example.com/', color: '#000000', customFieldId: '', ...noPicture },
      ],
    });
  });

  it('canvas: whole pixels from 1 to 4096 each way', async () => {
    expect((await create({ name: 'Edges', data: { width: 4096, height: 1, elements: [] } })).status).toBe(201);
    await refused(
      { name: 'Bad canvas', data: { width: 0, height: 4097, elements: [] } },
      invalidRequestData([
        { message: 'width must be at least 1', path: ['body', 'data', 'width'] },
        { message: 'height must be at most 4096', path: ['body', 'data', 'height'] },
      ]),
    );
    await refused(
      { name: 'Bad canvas', data: { width: 100.5, height: '100', elements: [] } },
      invalidRequestData([
        { message: 'width must be a whole number of pixels', path: ['body', 'data', 'width'] },
        { message: 'height must be a number', path: ['body', 'data', 'height'] },
      ]),
    );
  });

  it('boxes: inside the canvas (touching its edges is inside), x and y at least 0, width and height above 0', async () => {
    expect((await create(body([picture({ x: 900, y: 400 })]))).status).toBe(201);
    await refused(
      body([picture({ id: 'right', x: 901 }), picture({ id: 'below', y: 450 })]),
      invalidRequestData([elementIssue(0, 'width', 'x + width must be at most the canvas width (1000)'), elementIssue(1, 'height', 'y + height must be at most the canvas height (500)')]),
    );
    await refused(
      body([picture({ x: -1, y: -0.5, width: 0, height: -3 })]),
      invalidRequestData([
        elementIssue(0, 'x', 'x must be at least 0'),
        elementIssue(0, 'y', 'y must be at least 0'),
        elementIssue(0, 'width', 'width must be greater than 0'),
        elementIssue(0, 'height', 'height must be greater than 0'),
      ]),
    );
  });

  it('numbers: JSON has no NaN or Infinity, and huge finite numbers fall outside the canvas', async () => {
    await refused(
      body([picture({ x: 1e308, width: 1e308 }), text({ y: 1.7976931348623157e308 })]),
      invalidRequestData([elementIssue(0, 'width', 'x + width must be at most the canvas width (1000)'), elementIssue(1, 'height', 'y + height must be at most the canvas height (500)')]),
    );
    // 1e999 parses as Infinity in JSON.parse: refused as not a (finite) number.
    const raw = await t.request('POST', '/v1/dynamic-images', {
      token: ws.developerToken,
      body: '{"name":"Inf","data":{"width":1000,"height":500,"elements":[{"id":"a","x":1e999,"y":0,"width":1,"height":1,"type":"image","imageType":"avatar"}]}}',
    });
    expect(raw.status).toBe(422);
    expect(raw.body).toEqual(invalidRequestData([elementIssue(0, 'x', 'x must be a number')]));
  });

  it('at most 50 elements', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => picture({ id: `e${i}`, x: i * 10, width: 10, height: 10 }));
    expect((await create(body(many(50)))).status).toBe(201);
    await refused(body(many(51)), invalidRequestData([{ message: 'elements must hold at most 50 elements', path: ['body', 'data', 'elements'] }]));
  });

  it('element ids: unique and 1 to 64 characters', async () => {
    await refused(
      body([picture({ id: 'x' }), text({ id: 'y' }), text({ id: 'x' }), picture({ id: 'y' })]),
      invalidRequestData([elementIssue(2, 'id', 'id "x" is already the id of element 0'), elementIssue(3, 'id', 'id "y" is already the id of element 1')]),
    );
    await refused(
      body([picture({ id: '' }), text({ id: 'i'.repeat(65) })]),
      invalidRequestData([elementIssue(0, 'id', 'id must not be empty'), elementIssue(1, 'id', 'id must be at most 64 characters')]),
    );
  });

  it('enumerations are closed: type, imageType, imageStyle, align, fontFamily', async () => {
    await refused(body([picture({ type: 'video' })]), invalidRequestData([elementIssue(0, 'type', 'type must be one of image, text, qrCode')]));
    await refused(
      body([picture({ imageType: 'gif', imageStyle: 'hexagon' }), text({ id: 't', align: 'justify', fontFamily: 'comicSans' })]),
      invalidRequestData([
        elementIssue(0, 'imageType', 'imageType must be one of url, customField, avatarUser, avatar'),
        elementIssue(0, 'imageStyle', 'imageStyle must be one of square, circle, rounded'),
        elementIssue(1, 'align', 'align must be one of left, center, right'),
        elementIssue(1, 'fontFamily', 'fontFamily must be one of arial, serif, roboto, greatVibes'),
      ]),
    );
  });

  it("each kind takes its own fields: a text element's colour, size and text; no fields of the other kind", async () => {
    await refused(
      body([text({ color: 'red', fontSize: 0, text: 't'.repeat(1001) })]),
      invalidRequestData([
        elementIssue(0, 'text', 'text must be at most 1000 characters'),
        elementIssue(0, 'fontSize', 'fontSize must be at least 1'),
        elementIssue(0, 'color', 'color must be #RRGGBB (six hex digits)'),
      ]),
    );
    await refused(
      body([text({ imageStyle: 'circle', fontSize: undefined }), picture({ id: 'p', align: 'left' })]),
      invalidRequestData([
        elementIssue(0, 'fontSize', 'Required'),
        elementIssue(0, 'imageStyle', 'Unrecognized key: "imageStyle"'),
        elementIssue(1, 'align', 'Unrecognized key: "align"'),
      ]),
    );
    await refused(body([text({ text: '' })]), invalidRequestData([elementIssue(0, 'text', 'A text element needs a text or a customFieldId')]));
  });

  it('imageType decides what an image element needs: url for url, customFieldId for customField (and only there)', async () => {
    await refused(
      body([picture({ url: '' }), picture({ id: 'cf', imageType: 'customField' }), picture({ id: 'av', imageType: 'avatar', customFieldId: String(field) })]),
      invalidRequestData([
        elementIssue(0, 'url', 'url is required when imageType is url'),
        elementIssue(1, 'customFieldId', 'customFieldId is required when imageType is customField'),
        elementIssue(2, 'customFieldId', 'customFieldId must be "" when imageType is avatar'),
      ]),
    );
  });

  it('URLs: http or https only, at most 2048 characters', async () => {
    await refused(
      body([picture({ url: 'javascript:alert(1)' }), picture({ id: 'b', url: 'ftp://cdn.example.com/p.png' }), picture({ id: 'c', url: 'data:image/png;base64,AAAA' })], {
        backgroundUrl: 'cdn.example.com/bg.png',
      }),
      invalidRequestData([
        { message: 'backgroundUrl must be an http or https URL (or "" for none)', path: ['body', 'backgroundUrl'] },
        elementIssue(0, 'url', 'url must be an http or https URL (or "" for none)'),
        elementIssue(1, 'url', 'url must be an http or https URL (or "" for none)'),
        elementIssue(2, 'url', 'url must be an http or https URL (or "" for none)'),
      ]),
    );
    await refused(
      body([picture({ url: `https://cdn.example.com/${'a'.repeat(2030)}` })], { backgroundUrl: 'JavaScript:alert(1)' }),
      invalidRequestData([
        { message: 'backgroundUrl must be an http or https URL (or "" for none)', path: ['body', 'backgroundUrl'] },
        elementIssue(0, 'url', 'url must be at most 2048 characters'),
      ]),
    );
    // Scheme and host in any case, any port (local hosts are refused by the outbound guard: rest.dynamic-images.model.test.ts).
    expect((await create(body([picture({ url: 'HTTP://CDN.EXAMPLE.COM/A.PNG' })], { backgroundUrl: 'http://cdn.example.com:8080/bg.png' }))).status).toBe(201);
  });

  it("custom fields: the image's and the elements' must be fields of the workspace (another workspace's is unknown)", async () => {
    await refused(
      body([], { customFieldId: String(theirField) }),
      validationError({ field: 'customFieldId', reason: 'notFound', ids: [String(theirField)] }),
    );
    await refused(
      body([picture({ imageType: 'customField', customFieldId: String(theirField), url: '' }), text({ customFieldId: '999999' }), text({ id: 't2', customFieldId: String(field) })], {
        customFieldId: String(field),
      }),
      validationError({ field: 'data.elements.customFieldId', reason: 'notFound', ids: [String(theirField), '999999'] }),
    );
    // An id beyond the key range names nothing either; the image's own field is reported first.
    await refused(
      body([text({ customFieldId: '99999999999999999999' })], { customFieldId: '99999999999999999999' }),
      validationError({ field: 'customFieldId', reason: 'notFound', ids: ['99999999999999999999'] }),
    );
    await refused(
      body([text({ customFieldId: 5 })], { customFieldId: 5 }),
      invalidRequestData([
        { message: 'customFieldId must be a digit-string custom field id, or null or "" for none', path: ['body', 'customFieldId'] },
        elementIssue(0, 'customFieldId', 'customFieldId must be a digit-string custom field id, or "" for none'),
      ]),
    );
  });

  it('every image the demo and synthetic seeds store reads back and is accepted again as it is (GET, then PUT of the same fields)', async () => {
    const demo = await createDemoWorkspace(t.db);
    const synthetic = await t.workspace({ name: 'Synthetic' });
    await seedSyntheticContacts(t.db, synthetic.id, 20, { seed: 7 });
    for (const token of [demo.tokens.developer.token, synthetic.developerToken]) {
      const list = await api.request('GET', '/v1/dynamic-images?perPage=50', { token });
      expect(list.status).toBe(200);
      expect(list.body.data.length).toBeGreaterThan(0);
      for (const img of list.body.data) {
        const { name, customFieldId, backgroundUrl, enabled, data } = img;
        const res = await api.request('PUT', `/v1/dynamic-images/${img.id}`, { token, body: { name, customFieldId, backgroundUrl, enabled, data } });
        expect(res.status, img.name).toBe(200);
        expect(res.body).toEqual({ ...img, updatedAt: res.body.updatedAt });
      }
    }
  });
});
