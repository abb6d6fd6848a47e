import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../db/seeds/demo.js';
import { DEFAULT_MAX_ATTEMPTS } from '../src/queue/types.js';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { storedJobs, workerSchemaForTest } from './support/queue.js';
import { imageLink, invalidRequestData, isoNow, validationError } from './support/rest.js';

/**
 * The layout model's additions, through POST, GET and PUT /v1/dynamic-images: the canvas colour,
 * a text element's typeface options, QR-code elements, `avatarUser` (and its alias `avatar`),
 * {{cf:...}} variables that must name a custom field of the workspace, literal URLs that must pass
 * the outbound guard, layouts stored before these fields existed, and what a save leaves behind
 * (a bake job; no renders of the earlier template). A refused save stores nothing.
 */
describe('dynamic image model', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  /** The demo workspace, made first on the fresh database (as `npm start` does). */
  let demoToken: string;
  let workerSchema: string;
  let plan: number;
  let colour: number;
  let theirField: number;
  /** An image every PUT below replaces (and must leave as it was when refused). */
  let image: number;

  /** A text element's typeface options when not given. */
  const textDefaults = { fontFamily: 'arial', bold: false, italic: false, uppercase: false, fallback: '' };
  const noPicture = { imageType: null, url: null, imageStyle: null };
  const box = { x: 0, y: 0, width: 100, height: 100 };
  const picture = (id: string, extra: Record<string, unknown> = {}) => ({ id, ...box, type: 'image', imageType: 'url', url: 'https://cdn.example.com/p.png', ...extra });
  const text = (id: string, extra: Record<string, unknown> = {}) => ({ id, ...box, height: 20, type: 'text', text: 'Hello', fontSize: 16, color: '#000000', align: 'left', ...extra });
  const qrCode = (id: string, extra: Record<string, unknown> = {}) => ({ id, ...box, type: 'qrCode', text: 'https://example.com/', ...extra });
  /** A text element as answered, given its input and the typeface options it was given. */
  const textAnswered = (input: Record<string, unknown>) => ({ priority: false, customFieldId: '', ...noPicture, ...textDefaults, ...input });

  const body = (elements: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'Model', data: { width: 400, height: 300, elements }, ...extra });
  const create = (b: unknown, token = ws.developerToken) => api.request('POST', '/v1/dynamic-images', { token, body: b });
  const replace = (b: Record<string, unknown>, id: number | string = image) =>
    api.request('PUT', `/v1/dynamic-images/${id}`, { token: ws.developerToken, body: { customFieldId: null, backgroundUrl: '', enabled: true, ...b } });
  const read = (id: number | string) => api.request('GET', `/v1/dynamic-images/${id}`, { token: ws.developerToken });
  /** GET, then PUT of every writable field as read: the same image comes back, updatedAt moved. */
  const roundTrip = async (id: number | string) => {
    const got = await read(id);
    expect(got.status).toBe(200);
    const { name, customFieldId, backgroundUrl, enabled, data } = got.body;
    const put = await replace({ name, customFieldId, backgroundUrl, enabled, data }, id);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...got.body, updatedAt: isoNow() });
    expect(await read(id).then((r) => r.body)).toEqual(put.body);
    return put.body;
  };
  const rows = () => t.db.selectFrom('dynamic_images').selectAll().where('workspace_id', '=', ws.id).orderBy('id').execute();
  const bakeJobs = async () => (await storedJobs(t.database, workerSchema)).filter((j) => j.task === 'dynamicImages.bake' && (j.payload as { workspaceId: number }).workspaceId === ws.id);

  /** A refused POST and PUT: the exact body, and the workspace's images and bake jobs as they were. */
  const refused = async (b: Record<string, unknown>, expected: unknown) => {
    const [before, jobsBefore] = [await rows(), await bakeJobs()];
    const res = await create(b);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(expected);
    const put = await replace(b);
    expect(put.status).toBe(422);
    expect(put.body).toEqual(expected);
    expect(await rows()).toEqual(before);
    expect(await bakeJobs()).toEqual(jobsBefore);
  };

  beforeAll(async () => {
    workerSchema = workerSchemaForTest();
    // 127.0.0.1:8080 stands for a test's local picture server: listed hosts pass the guard. Links
    // start with the configured public address (its trailing slash dropped).
    t = await createTestApp({ ...unlimited, WORKER_SCHEMA: workerSchema, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1:8080', PUBLIC_BASE_URL: 'https://images.example.com/api/' });
    api = await contractClient(t);
    demoToken = (await createDemoWorkspace(t.db)).tokens.developer.token;
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    plan = await f.customField('Plan');
    colour = await f.customField('Favourite Colour');
    image = await f.dynamicImage('Replaced');
    theirField = await fixtures(t.db, (await t.workspace({ name: 'Other' })).id).customField('Secret');
  });
  afterAll(() => t.close());

  describe('canvas colour', () => {
    it('is "" (transparent) when left out, kept as given (#RRGGBB, either case), and a PUT without it makes the canvas transparent again', async () => {
      const plain = await create(body([]));
      expect(plain.status).toBe(201);
      expect(plain.body.data).toEqual({ width: 400, height: 300, backgroundColor: '', elements: [] });
      const coloured = await create({ name: 'Coloured', data: { width: 400, height: 300, backgroundColor: '#fFa500', elements: [] } });
      expect(coloured.status).toBe(201);
      expect(coloured.body.data).toEqual({ width: 400, height: 300, backgroundColor: '#fFa500', elements: [] });
      await roundTrip(coloured.body.id);
      const cleared = await replace({ name: 'Coloured', data: { width: 400, height: 300, elements: [] } }, coloured.body.id);
      expect(cleared.body.data).toEqual({ width: 400, height: 300, backgroundColor: '', elements: [] });
      const transparent = await replace({ name: 'Coloured', data: { width: 400, height: 300, backgroundColor: '', elements: [] } }, coloured.body.id);
      expect(transparent.body.data).toEqual({ width: 400, height: 300, backgroundColor: '', elements: [] });
    });

    it('refuses anything but #RRGGBB or ""', async () => {
      const refuse = (backgroundColor: unknown, message: string) =>
        refused({ name: 'Bad colour', data: { width: 10, height: 10, backgroundColor, elements: [] } }, invalidRequestData([{ message, path: ['body', 'data', 'backgroundColor'] }]));
      for (const backgroundColor of ['red', '#FFF', '#GGGGGG', 'FFFFFF', '#FFFFFF00', ' #FFFFFF', 0xffffff, null, true]) {
        await refuse(backgroundColor, 'backgroundColor must be #RRGGBB (six hex digits), or "" for transparent');
      }
    });
  });

  describe('text elements', () => {
    it('answer their typeface options, arial and off unless given; a GET is accepted back as it is', async () => {
      const res = await create(body([text('plain'), text('styled', { fontFamily: 'greatVibes', bold: true, italic: true, uppercase: true, fallback: 'friend', text: 'Hi {{first_name}}' })]));
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id,
        name: 'Model',
        customFieldId: '',
        backgroundUrl: '',
        imageUrl: imageLink(t.config, res.body.id),
        createdAt: isoNow(),
        updatedAt: res.body.createdAt,
        enabled: true,
        data: {
          width: 400,
          height: 300,
          backgroundColor: '',
          elements: [
            textAnswered(text('plain')),
            textAnswered(text('styled', { fontFamily: 'greatVibes', bold: true, italic: true, uppercase: true, fallback: 'friend', text: 'Hi {{first_name}}' })),
          ],
        },
      });
      expect((await read(res.body.id)).body).toEqual(res.body);
      await roundTrip(res.body.id);
    });

    it('take every font family', async () => {
      const families = ['arial', 'serif', 'roboto', 'greatVibes'];
      const res = await create(body(families.map((fontFamily) => text(fontFamily, { fontFamily }))));
      expect(res.status).toBe(201);
      expect(res.body.data.elements).toEqual(families.map((fontFamily) => textAnswered(text(fontFamily, { fontFamily }))));
    });

    it('refuse typeface options of the wrong kind, a long fallback, and typeface options on other kinds', async () => {
      await refused(
        body([text('t', { fontFamily: 'Arial', bold: 'yes', italic: 1, uppercase: null, fallback: 'f'.repeat(1001) })]),
        invalidRequestData([
          { message: 'fontFamily must be one of arial, serif, roboto, greatVibes', path: ['body', 'data', 'elements', 0, 'fontFamily'] },
          { message: 'Invalid input: expected boolean, received string', path: ['body', 'data', 'elements', 0, 'bold'] },
          { message: 'Invalid input: expected boolean, received number', path: ['body', 'data', 'elements', 0, 'italic'] },
          { message: 'Invalid input: expected boolean, received null', path: ['body', 'data', 'elements', 0, 'uppercase'] },
          { message: 'fallback must be at most 1000 characters', path: ['body', 'data', 'elements', 0, 'fallback'] },
        ]),
      );
      await refused(
        body([picture('p', { fontFamily: 'serif' }), qrCode('q', { bold: true })]),
        invalidRequestData([
          { message: 'Unrecognized key: "fontFamily"', path: ['body', 'data', 'elements', 0, 'fontFamily'] },
          { message: 'Unrecognized key: "bold"', path: ['body', 'data', 'elements', 1, 'bold'] },
        ]),
      );
    });
  });

  describe('QR-code elements', () => {
    it('answer their text, a black colour unless given, and the picture fields as null with customFieldId ""; a GET is accepted back as it is', async () => {
      const elements = [qrCode('qr', { text: 'https://example.com/?email={{email}}' }), qrCode('tinted', { x: 200, color: '#1F2937', priority: true, text: 'x'.repeat(1000) })];
      const res = await create(body(elements));
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id,
        name: 'Model',
        customFieldId: '',
        backgroundUrl: '',
        imageUrl: imageLink(t.config, res.body.id),
        createdAt: isoNow(),
        updatedAt: res.body.createdAt,
        enabled: true,
        data: {
          width: 400,
          height: 300,
          backgroundColor: '',
          elements: [
            { id: 'qr', ...box, type: 'qrCode', priority: false, text: 'https://example.com/?email={{email}}', color: '#000000', customFieldId: '', ...noPicture },
            { id: 'tinted', ...box, x: 200, type: 'qrCode', priority: true, text: 'x'.repeat(1000), color: '#1F2937', customFieldId: '', ...noPicture },
          ],
        },
      });
      expect((await read(res.body.id)).body).toEqual(res.body);
      // Sent back as read: the nulls and the "" customFieldId are taken as left out.
      await roundTrip(res.body.id);
    });

    it('need a text of 1 to 1000 characters and a #RRGGBB colour; the picture fields only as null, customFieldId only as ""', async () => {
      await refused(
        body([qrCode('a', { text: undefined }), qrCode('b', { text: '' }), qrCode('c', { text: 'x'.repeat(1001), color: 'black' })]),
        invalidRequestData([
          { message: 'Required', path: ['body', 'data', 'elements', 0, 'text'] },
          { message: 'text must not be empty', path: ['body', 'data', 'elements', 1, 'text'] },
          { message: 'text must be at most 1000 characters', path: ['body', 'data', 'elements', 2, 'text'] },
          { message: 'color must be #RRGGBB (six hex digits)', path: ['body', 'data', 'elements', 2, 'color'] },
        ]),
      );
      await refused(
        body([qrCode('a', { imageType: 'url', url: 'https://cdn.example.com/p.png' }), qrCode('b', { customFieldId: String(plan), fontSize: 12 })]),
        invalidRequestData([
          { message: 'Unrecognized key: "imageType"', path: ['body', 'data', 'elements', 0, 'imageType'] },
          { message: 'Unrecognized key: "url"', path: ['body', 'data', 'elements', 0, 'url'] },
          { message: 'Unrecognized key: "customFieldId"', path: ['body', 'data', 'elements', 1, 'customFieldId'] },
          { message: 'Unrecognized key: "fontSize"', path: ['body', 'data', 'elements', 1, 'fontSize'] },
        ]),
      );
    });
  });

  describe("the contact's avatar", () => {
    it('avatarUser and its alias avatar are both taken, each stored and answered as given', async () => {
      const elements = [
        picture('user', { imageType: 'avatarUser', url: '', imageStyle: 'circle' }),
        picture('alias', { imageType: 'avatar', url: 'https://cdn.example.com/default-avatar.png' }),
      ];
      const res = await create(body(elements));
      expect(res.status).toBe(201);
      expect(res.body.data.elements).toEqual([
        { ...elements[0], priority: false, customFieldId: '' },
        { ...elements[1], priority: false, customFieldId: '', imageStyle: 'square' },
      ]);
      const row = await t.db.selectFrom('dynamic_images').select('data').where('id', '=', Number(res.body.id)).executeTakeFirstOrThrow();
      expect(JSON.parse(row.data).elements.map((e: { imageType: string }) => e.imageType)).toEqual(['avatarUser', 'avatar']);
      await roundTrip(res.body.id);
    });

    it('takes no customFieldId with either', async () => {
      await refused(
        body([picture('a', { imageType: 'avatarUser', url: '', customFieldId: String(plan) }), picture('b', { imageType: 'avatar', url: '', customFieldId: String(plan) })]),
        invalidRequestData([
          { message: 'customFieldId must be "" when imageType is avatarUser', path: ['body', 'data', 'elements', 0, 'customFieldId'] },
          { message: 'customFieldId must be "" when imageType is avatar', path: ['body', 'data', 'elements', 1, 'customFieldId'] },
        ]),
      );
    });
  });

  describe('{{cf:...}} variables', () => {
    it('name a custom field of the workspace by id (leading zeros too) or by name in any case, spaces inside the braces allowed; texts are stored as written', async () => {
      const texts = [
        `Plan: {{cf:${plan}}}`,
        `{{ cf: 00${plan} }} and {{cf:favourite colour}}`,
        '{{first_name}} {{last_name}} {{full_name}} {{email}} {{phone}} {{cf:Plan}}',
        // Not a variable (no such name): drawn as written, nothing to check.
        '{{nickname}} {cf:nope} {{cf:nope}',
      ];
      const elements = [text('a', { text: texts[0] }), text('b', { text: texts[1] }), qrCode('c', { text: texts[2] }), text('d', { text: texts[3] }), qrCode('e', { text: '{{cf:FAVOURITE COLOUR}}' })];
      const res = await create(body(elements));
      expect([res.status, res.body.data?.elements.map((e: { text: string }) => e.text)]).toEqual([201, [...texts, '{{cf:FAVOURITE COLOUR}}']]);
      await roundTrip(res.body.id);
    });

    it('naming nothing (an unknown name or id, another workspace\'s field) is 422 validation listing each reference once, as written trimmed', async () => {
      await refused(
        body([
          text('a', { text: 'Hi {{cf:nope}}', fallback: 'friend' }),
          qrCode('b', { text: `{{cf:999999}} {{ cf: Nope }} {{cf:${theirField}}}` }),
          text('c', { text: `{{cf:Secret}} {{cf:nope}} {{cf:${plan}}}` }),
        ]),
        validationError({ field: 'data.elements.text', reason: 'notFound', ids: ['{{cf:nope}}', '{{cf:999999}}', '{{cf:Nope}}', `{{cf:${theirField}}}`, '{{cf:Secret}}'] }),
      );
      // An id beyond the key range, and an empty reference, name nothing either.
      await refused(
        body([text('a', { text: '{{cf:99999999999999999999}}' }), qrCode('b', { text: '{{cf:}}' })]),
        validationError({ field: 'data.elements.text', reason: 'notFound', ids: ['{{cf:99999999999999999999}}', '{{cf:}}'] }),
      );
    });

    it('a reference that names nothing any more (its field renamed) still reads back; the next save refuses it', async () => {
      const field = await fixtures(t.db, ws.id).customField('Nickname');
      const res = await create(body([text('a', { text: '{{cf:Nickname}}' })]));
      expect(res.status).toBe(201);
      await t.db.updateTable('custom_fields').set({ name: 'Alias' }).where('id', '=', field).execute();
      expect((await read(res.body.id)).body).toEqual(res.body);
      const { name, customFieldId, backgroundUrl, enabled, data } = res.body;
      const again = await replace({ name, customFieldId, backgroundUrl, enabled, data }, res.body.id);
      expect([again.status, again.body]).toEqual([422, validationError({ field: 'data.elements.text', reason: 'notFound', ids: ['{{cf:Nickname}}'] })]);
    });
  });

  describe('literal URLs and the outbound guard', () => {
    /** Each spelling of a private, local or credentialed address, with the guard's message. */
    const refusedUrls: [string, string][] = [
      ['http://127.0.0.1/x.png', "url's host 127.0.0.1 is not a public address"],
      ['http://localhost/x.png', "url's host localhost is a local name, not a public host"],
      ['http://[::1]/', "url's host [::1] is not a public address"],
      ['http://2130706433/', "url's host 127.0.0.1 is not a public address"],
      ['http://10.0.0.1/', "url's host 10.0.0.1 is not a public address"],
      ['http://169.254.169.254/latest', "url's host 169.254.169.254 is not a public address"],
      ['http://intranet/x.png', "url's host intranet is not a public host name (it has no dot)"],
      ['http://user:pass@cdn.example.com/x.png', 'url must not carry a user name or password'],
      // Listed, but on another port.
      ['http://127.0.0.1:8081/x.png', "url's host 127.0.0.1 is not a public address"],
    ];

    it('are refused at save, each at its field: the background, a picture, and the fallback of an avatar or a custom-field picture', async () => {
      for (const [url, message] of refusedUrls) {
        await refused(
          body(
            [
              picture('p', { url }),
              text('t'),
              picture('avatar', { imageType: 'avatarUser', url }),
              picture('field', { imageType: 'customField', customFieldId: String(plan), url }),
            ],
            { backgroundUrl: url },
          ),
          invalidRequestData([
            { message, path: ['body', 'backgroundUrl'] },
            { message, path: ['body', 'data', 'elements', 0, 'url'] },
            { message, path: ['body', 'data', 'elements', 2, 'url'] },
            { message, path: ['body', 'data', 'elements', 3, 'url'] },
          ]),
        );
      }
    });

    it('public hosts, public IP literals and the listed host:port (OUTBOUND_ALLOWED_HOSTS) pass', async () => {
      const urls = ['https://cdn.example.com/x.png', 'http://93.184.216.34/x.png', 'http://[2606:2800:220:1:248:1893:25c8:1946]/x.png', 'http://127.0.0.1:8080/x.png'];
      const res = await create(body(urls.map((url, i) => picture(`p${i}`, { url })), { backgroundUrl: 'http://127.0.0.1:8080/bg.png' }));
      expect(res.status).toBe(201);
      expect([res.body.backgroundUrl, res.body.data.elements.map((e: { url: string }) => e.url)]).toEqual(['http://127.0.0.1:8080/bg.png', urls]);
    });

    it('a QR code\'s or a text\'s URL is only text: it is never fetched, so it is not checked', async () => {
      const res = await create(body([qrCode('q', { text: 'http://127.0.0.1/admin' }), text('t', { text: 'http://localhost/' })]));
      expect(res.status).toBe(201);
    });
  });

  describe('layouts stored before the model grew', () => {
    /** A layout as stored before: no canvas colour, a text without typeface options, the avatar alias. */
    const oldLayout = (fieldId: number) => ({
      width: 500,
      height: 300,
      elements: [
        { id: 'face', x: 10, y: 10, width: 100, height: 100, type: 'image', imageType: 'avatar', priority: false, url: '', customFieldId: '', imageStyle: 'circle' },
        { id: 'name', x: 10, y: 200, width: 480, height: 60, type: 'text', priority: true, text: 'Welcome!', customFieldId: String(fieldId), fontSize: 40, color: '#112233', align: 'center' },
      ],
    });
    /** The same layout as answered: a transparent canvas, the text's typeface defaults, its picture fields null. */
    const answeredLayout = (fieldId: number) => {
      const [face, name] = oldLayout(fieldId).elements;
      return { width: 500, height: 300, backgroundColor: '', elements: [face, { ...name, ...noPicture, ...textDefaults }] };
    };

    it('read back with the defaults (transparent canvas, arial, off, no fallback) on GET and in the list', async () => {
      const own = await t.workspace({ name: 'Old layouts' });
      const field = await fixtures(t.db, own.id).customField('Title');
      const id = await fixtures(t.db, own.id).dynamicImage('Old card', T0, { data: oldLayout(field) });
      const expected = {
        id: String(id),
        name: 'Old card',
        customFieldId: '',
        backgroundUrl: 'https://cdn.example.com/bg.png',
        imageUrl: imageLink(t.config, id),
        createdAt: T0,
        updatedAt: T0,
        enabled: true,
        data: answeredLayout(field),
      };
      const got = await api.request('GET', `/v1/dynamic-images/${id}`, { token: own.developerToken });
      expect([got.status, got.body]).toEqual([200, expected]);
      expect((await api.request('GET', '/v1/dynamic-images', { token: own.developerToken })).body).toEqual({ data: [expected], pageCount: 1 });
    });

    it('are accepted back as read, and the PUT stores the new fields', async () => {
      const id = await fixtures(t.db, ws.id).dynamicImage('Old card', T0, { data: oldLayout(plan) });
      const put = await roundTrip(id);
      expect(put.data).toEqual(answeredLayout(plan));
      const row = await t.db.selectFrom('dynamic_images').select('data').where('id', '=', id).executeTakeFirstOrThrow();
      const [face, name] = oldLayout(plan).elements;
      expect(JSON.parse(row.data)).toEqual({ width: 500, height: 300, backgroundColor: '', elements: [face, { ...name, ...textDefaults }] });
    });
  });

  describe('what a save leaves behind', () => {
    const renderRow = (hash: string, imageId: number, workspaceId = ws.id) => ({
      hash: hash.padEnd(64, '0'),
      workspace_id: workspaceId,
      image_id: imageId,
      kind: 'render' as const,
      size: 1,
      content: null,
      created_at: T0,
      last_used_at: T0,
    });
    const rendersOf = async (imageId: number) =>
      (await t.db.selectFrom('dynamic_image_renders').select('hash').where('image_id', '=', imageId).orderBy('hash').execute()).map((r) => r.hash.slice(0, 4));

    it('a create and a replace each enqueue one bake job for the image (one per image while waiting)', async () => {
      const res = await create(body([text('t')]));
      expect(res.status).toBe(201);
      const mine = async () => (await bakeJobs()).filter((j) => (j.payload as { imageId: number }).imageId === Number(res.body.id));
      // Waiting, due now (no runner works in this test).
      const job = {
        id: expect.any(String),
        task: 'dynamicImages.bake',
        payload: { workspaceId: ws.id, imageId: Number(res.body.id) },
        runAt: isoNow(),
        attempts: 0,
        maxAttempts: DEFAULT_MAX_ATTEMPTS,
        key: `dynamicImages.bake:${res.body.id}`,
        lastError: null,
        running: false,
        failed: false,
      };
      expect(await mine()).toEqual([job]);
      expect((await replace({ name: 'Again', data: { width: 400, height: 300, elements: [] } }, res.body.id)).status).toBe(200);
      expect(await mine()).toEqual([job]);
    });

    it("a replace drops the image's stored renders, and a refused one keeps them; other images' renders stay", async () => {
      const own = await fixtures(t.db, ws.id).dynamicImage('Rendered');
      const other = await fixtures(t.db, ws.id).dynamicImage('Other rendered');
      await t.db.insertInto('dynamic_image_renders').values([renderRow('a1', own), renderRow('a2', own), renderRow('b1', other)]).execute();
      expect((await replace({ name: 'Rendered', data: { width: 10, height: 10, elements: [text('t', { text: '{{cf:nope}}' })] } }, own)).status).toBe(422);
      expect(await rendersOf(own)).toEqual(['a100', 'a200']);
      expect((await replace({ name: 'Rendered', data: { width: 10, height: 10, elements: [] } }, own)).status).toBe(200);
      expect([await rendersOf(own), await rendersOf(other)]).toEqual([[], ['b100']]);
    });

    it("a delete drops the image's stored renders", async () => {
      const own = await fixtures(t.db, ws.id).dynamicImage('Deleted');
      await t.db.insertInto('dynamic_image_renders').values([renderRow('c1', own)]).execute();
      const res = await api.request('DELETE', `/v1/dynamic-images/${own}`, { token: ws.developerToken });
      expect([res.status, res.body]).toEqual([200, { success: true }]);
      expect(await rendersOf(own)).toEqual([]);
    });
  });

  it('the demo seeds a fifth image, the newest: an enabled "Greeting card" with a colour, three typefaces and a QR code, drawn from nothing remote', async () => {
    const list = await api.request('GET', '/v1/dynamic-images?perPage=50', { token: demoToken });
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: { name: string }) => i.name)).toHaveLength(5);
    const [card] = list.body.data;
    // The demo is the first workspace of a fresh database: its card is image 5, the reference's render example.
    expect(card).toEqual({
      id: '5',
      name: 'Greeting card',
      customFieldId: '',
      backgroundUrl: '',
      imageUrl: 'https://images.example.com/api/dynamic-images?dynamicImageId=5',
      createdAt: isoNow(),
      updatedAt: card.createdAt,
      enabled: true,
      data: {
        width: 1080,
        height: 1080,
        backgroundColor: '#FFF7ED',
        elements: [
          { id: 'title', x: 80, y: 90, width: 920, height: 100, type: 'text', priority: false, text: 'Welcome aboard', customFieldId: '', fontSize: 72, color: '#9A3412', align: 'center', fontFamily: 'roboto', bold: true, italic: false, uppercase: true, fallback: '', ...noPicture },
          { id: 'name', x: 80, y: 260, width: 920, height: 200, type: 'text', priority: false, text: '{{full_name}}', customFieldId: '', fontSize: 120, color: '#1F2937', align: 'center', fontFamily: 'greatVibes', bold: false, italic: false, uppercase: false, fallback: 'dear friend', ...noPicture },
          { id: 'greeting', x: 80, y: 500, width: 920, height: 130, type: 'text', priority: false, text: 'Xin chào {{first_name}}, chúc bạn một ngày tốt lành!', customFieldId: '', fontSize: 48, color: '#374151', align: 'center', fontFamily: 'serif', bold: false, italic: true, uppercase: false, fallback: 'bạn', ...noPicture },
          { id: 'qr', x: 415, y: 700, width: 250, height: 250, type: 'qrCode', priority: false, text: 'https://demo.example/welcome?email={{email}}', color: '#111827', customFieldId: '', ...noPicture },
        ],
      },
    });
  });
});
