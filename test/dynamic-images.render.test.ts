import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkKey, signToken } from '../src/domain/dynamic-images/dynamic-image-links.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { testEngine } from './support/engine.js';
import type { TestWorkspace } from './support/harness.js';
import { Decoded, near, pictureServer, solidPng, type PictureServer, type Rgba } from './support/pictures.js';

/**
 * Dynamic images drawn per contact, through the real app: the authenticated preview, the public
 * signed link and its content address, on both engines. Pictures come from a local server playing
 * the network (listed in OUTBOUND_ALLOWED_HOSTS); PNGs are decoded with pngjs.
 */

const BACKGROUND: Rgba = [10, 120, 200, 255];
const AVATAR: Rgba = [200, 40, 90, 255];
const FALLBACK: Rgba = [20, 180, 60, 255];
const TEXT: Rgba = [255, 0, 0, 255];
const SECRET = 'a-link-secret-of-at-least-32-characters!!';

describe(`dynamic images rendered per contact (${testEngine})`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let pictures: PictureServer;
  let company: string;

  const png = async (path: string, token?: string, headers: Record<string, string> = {}) => {
    const res = await t.app.fetch(new Request(`http://localhost${path}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, redirect: 'manual' }));
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  /** A contact of the workspace; its avatar is set as an update sets it (creation takes none). */
  let contacts = 0;
  const contact = async ({ avatar, ...body }: Record<string, unknown>) => {
    const created = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: `contact${++contacts}@mail.example`, ...body } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as string;
    if (avatar !== undefined) expect((await t.request('PATCH', `/v1/contacts/${id}`, { token: ws.developerToken, body: { avatar } })).status).toBe(200);
    return id;
  };
  const createImage = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: { name: 'Card', ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; imageUrl: string };
  };
  const renderUrl = async (imageId: string, contactId: string) => {
    const res = await t.graphql(`query($id: ID!, $c: String!) { dynamicImage(id: $id) { renderUrl(contact: $c) } }`, { id: imageId, c: contactId }, { token: ws.developerToken });
    const link = new URL(res.body.data.dynamicImage.renderUrl as string);
    return `${link.pathname}${link.search}`;
  };
  /** Follows a public link: its redirect and the PNG at the content address. */
  const follow = async (path: string) => {
    const link = await png(path);
    expect(link.status, new TextDecoder().decode(link.bytes)).toBe(302);
    const location = link.headers.get('location')!;
    expect(location).toMatch(/^\/dynamic-images\/r\/[0-9a-f]{64}\.png$/);
    return { location, ...(await png(location)) };
  };

  /** A canvas of 300x200 on the background picture, the contact's avatar in a circle and a text line of variables. */
  const card = (text = 'Hi {{first_name}}') => ({
    backgroundUrl: `${pictures.origin}/background.png`,
    data: {
      width: 300,
      height: 200,
      elements: [
        { id: 'avatar', x: 10, y: 10, width: 80, height: 80, type: 'image', imageType: 'avatarUser', url: `${pictures.origin}/fallback.png`, imageStyle: 'circle' },
        { id: 'name', x: 100, y: 20, width: 190, height: 60, type: 'text', text, fontSize: 28, color: '#FF0000', align: 'left' },
      ],
    },
  });

  beforeAll(async () => {
    pictures = await pictureServer({
      '/background.png': solidPng(300, 200, BACKGROUND),
      '/avatar.png': solidPng(64, 64, AVATAR),
      '/fallback.png': solidPng(64, 64, FALLBACK),
    });
    t = await createEngineTestApp({ OUTBOUND_ALLOWED_HOSTS: pictures.host, DYNAMIC_IMAGE_LINK_SECRET: SECRET });
    ws = await t.workspace({ name: 'Images' });
    company = (await t.request('POST', '/v1/custom-fields', { token: ws.developerToken, body: { name: 'Company', type: 'shortText' } })).body.id;
  });
  afterAll(async () => {
    await t.close();
    await pictures.close();
  });

  it('previews a contact as a PNG: the canvas size, the background, the avatar in a circle, the text in its colour', async () => {
    const image = await createImage(card());
    const ada = await contact({ firstName: 'Ada', email: 'ada@mail.example', avatar: `${pictures.origin}/avatar.png` });
    const res = await png(`/v1/dynamic-images/${image.id}/render?contact=${ada}`, ws.developerToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    const drawn = new Decoded(res.bytes);
    expect([drawn.width, drawn.height]).toEqual([300, 200]);
    expect(drawn.at(295, 195)).toEqual(BACKGROUND);
    expect(drawn.at(50, 50)).toEqual(AVATAR);
    // The circle's box corners show the background, not the avatar.
    expect(drawn.at(11, 11)).toEqual(BACKGROUND);
    expect(drawn.count({ x: 100, y: 20, width: 190, height: 60 }, TEXT)).toBeGreaterThan(50);
    expect(drawn.count({ x: 0, y: 100, width: 300, height: 100 }, TEXT)).toBe(0);
  });

  it('a circle picture on a transparent canvas leaves its corners transparent', async () => {
    const image = await createImage({ data: { width: 100, height: 100, elements: [{ id: 'a', x: 0, y: 0, width: 100, height: 100, type: 'image', imageType: 'url', url: `${pictures.origin}/avatar.png`, imageStyle: 'circle' }] } });
    const someone = await contact({ firstName: 'Round' });
    const drawn = new Decoded((await png(`/v1/dynamic-images/${image.id}/render?contact=${someone}`, ws.developerToken)).bytes);
    for (const [x, y] of [[0, 0], [99, 0], [0, 99], [99, 99]]) expect(drawn.at(x!, y!)[3], `${x},${y}`).toBe(0);
    expect(drawn.at(50, 50)).toEqual(AVATAR);
  });

  it('greatVibes and arial give different ink widths for the same word; Vietnamese names have ink', async () => {
    const word = (fontFamily: string, text: string) => ({ data: { width: 600, height: 100, elements: [{ id: 't', x: 0, y: 0, width: 600, height: 100, type: 'text', text, fontSize: 48, color: '#FF0000', align: 'left', fontFamily }] } });
    const someone = await contact({ firstName: 'Đặng Thị', lastName: 'Hương' });
    const width = async (fontFamily: string, text: string) => {
      const image = await createImage(word(fontFamily, text));
      const bounds = new Decoded((await png(`/v1/dynamic-images/${image.id}/render?contact=${someone}`, ws.developerToken)).bytes).inkBounds();
      expect(bounds, `${fontFamily}: ${text}`).not.toBeNull();
      return bounds!.right - bounds!.left;
    };
    expect(Math.abs((await width('greatVibes', 'Signature')) - (await width('arial', 'Signature')))).toBeGreaterThan(10);
    for (const family of ['arial', 'serif', 'roboto', 'greatVibes']) {
      const marked = await createImage(word(family, '{{full_name}}'));
      const bare = await createImage(word(family, 'Dang Thi Huong'));
      const ink = async (id: string) => new Decoded((await png(`/v1/dynamic-images/${id}/render?contact=${someone}`, ws.developerToken)).bytes).inked().length;
      expect(await ink(marked.id), family).toBeGreaterThan(await ink(bare.id));
    }
  });

  it('the public link signed for a contact redirects to its content address: strong ETag, immutable, 304', async () => {
    const image = await createImage(card());
    const grace = await contact({ firstName: 'Grace', avatar: `${pictures.origin}/avatar.png` });
    const { location, status, headers, bytes } = await follow(await renderUrl(image.id, grace));
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('image/png');
    const hash = location.slice('/dynamic-images/r/'.length, -'.png'.length);
    expect(headers.get('etag')).toBe(`"${hash}"`);
    expect(headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(new Decoded(bytes).at(50, 50)).toEqual(AVATAR);
    const again = await png(location, undefined, { 'if-none-match': `"${hash}"` });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    // The preview of the same contact is the same picture, by the same hash.
    expect((await png(`/v1/dynamic-images/${image.id}/render?contact=${grace}`, ws.developerToken)).headers.get('etag')).toBe(`"${hash}"`);
  });

  it('two contacts with equal values share one render; a changed value gives a new one', async () => {
    const image = await createImage(card());
    const first = await contact({ firstName: 'Sam', email: 'sam1@mail.example' });
    const second = await contact({ firstName: 'Sam', email: 'sam2@mail.example' });
    const a = await follow(await renderUrl(image.id, first));
    const b = await follow(await renderUrl(image.id, second));
    expect(b.location).toBe(a.location);
    expect((await t.request('PATCH', `/v1/contacts/${second}`, { token: ws.developerToken, body: { firstName: 'Samuel' } })).status).toBe(200);
    const changed = await follow(await renderUrl(image.id, second));
    expect(changed.location).not.toBe(a.location);
  });

  it('custom-field variables by name and id, the fallback for an empty value, and uppercase', async () => {
    const text = (value: string) => ({ data: { width: 400, height: 60, elements: [{ id: 't', x: 0, y: 0, width: 400, height: 60, type: 'text', text: value, fontSize: 30, color: '#FF0000', align: 'left', fallback: 'friend', uppercase: true }] } });
    const withCompany = await contact({ firstName: 'Lin' });
    await t.request('PUT', `/v1/contacts/${withCompany}/custom-fields/${company}`, { token: ws.developerToken, body: { value: 'Acme' } });
    const without = await contact({ firstName: 'Kim' });
    const byName = await createImage(text('{{cf:company}}'));
    const byId = await createImage(text(`{{cf:${company}}}`));
    const literal = await createImage(text('ACME'));
    const friend = await createImage(text('FRIEND'));
    const hashOf = async (id: string, who: string) => (await png(`/v1/dynamic-images/${id}/render?contact=${who}`, ws.developerToken)).bytes;
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
    // Drawn as the same pixels as the literal text it resolves to.
    expect(same(await hashOf(byName.id, withCompany), await hashOf(literal.id, withCompany))).toBe(true);
    expect(same(await hashOf(byId.id, withCompany), await hashOf(literal.id, withCompany))).toBe(true);
    expect(same(await hashOf(byName.id, without), await hashOf(friend.id, without))).toBe(true);
  });

  it('refuses a tampered, expired or other-image token and a switched-off image; no token draws only what every contact sees', async () => {
    const image = await createImage(card());
    const other = await createImage(card('Other {{first_name}}'));
    const ivy = await contact({ firstName: 'Ivy', avatar: `${pictures.origin}/avatar.png` });
    const link = await renderUrl(image.id, ivy);
    const token = new URLSearchParams(link.split('?')[1]).get('t')!;
    const refused = async (path: string, reason: RegExp) => {
      const res = await png(path);
      expect(res.status, path).toBe(403);
      const body = JSON.parse(new TextDecoder().decode(res.bytes));
      expect(body.code).toBe('FORBIDDEN');
      expect(body.data.reason).toMatch(reason);
    };
    // A changed character inside the signature, and a non-canonical spelling of its last one
    // (its two spare bits set), which decodes to the same bytes.
    const at = token.length - 10;
    const tampered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
    await refused(`/dynamic-images?dynamicImageId=${image.id}&t=${tampered}`, /not signed for this image/);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token[token.length - 1]!);
    const respelled = token.slice(0, -1) + alphabet[(last & ~3) | (~last & 3)];
    await refused(`/dynamic-images?dynamicImageId=${image.id}&t=${respelled}`, /not signed for this image/);
    // Another contact's id under this contact's signature.
    const [, expires, signature] = token.split('.');
    await refused(`/dynamic-images?dynamicImageId=${image.id}&t=${Number(ivy) + 1}.${expires}.${signature}`, /not signed for this image/);
    await refused(`/dynamic-images?dynamicImageId=${other.id}&t=${token}`, /not signed for this image/);
    const key = await linkKey(t.database.db, SECRET);
    const expired = signToken(key, { workspaceId: ws.id, imageId: Number(image.id) }, Number(ivy), Math.floor(Date.now() / 1000) - 60);
    await refused(`/dynamic-images?dynamicImageId=${image.id}&t=${expired}`, /expired/);

    const bare = await follow(`/dynamic-images?dynamicImageId=${image.id}`);
    const drawn = new Decoded(bare.bytes);
    expect(drawn.at(50, 50)).toEqual(BACKGROUND);
    expect(drawn.count({ x: 0, y: 0, width: 300, height: 200 }, TEXT)).toBe(0);

    await t.request('PATCH', `/v1/dynamic-images/${image.id}/enabled`, { token: ws.developerToken, body: { enabled: false } });
    expect((await png(link)).status).toBe(404);
    expect((await png(`/dynamic-images?dynamicImageId=${image.id}`)).status).toBe(404);
    expect((await png('/dynamic-images?dynamicImageId=999999')).status).toBe(404);
    expect((await png('/dynamic-images/r/' + '0'.repeat(64) + '.png')).status).toBe(404);
    expect((await png('/dynamic-images?dynamicImageId=abc')).status).toBe(422);
  });

  it('a template update drops the earlier renders: the link draws the new template at a new address', async () => {
    const image = await createImage(card());
    const noor = await contact({ firstName: 'Noor', avatar: `${pictures.origin}/avatar.png` });
    const link = await renderUrl(image.id, noor);
    const before = await follow(link);
    const got = (await t.request('GET', `/v1/dynamic-images/${image.id}`, { token: ws.developerToken })).body;
    const { id: _id, imageUrl: _url, createdAt: _c, updatedAt: _u, ...writable } = got;
    const recoloured = { ...writable, data: { ...writable.data, elements: writable.data.elements.map((e: { id: string }) => (e.id === 'name' ? { ...e, color: '#00FF00' } : e)) } };
    expect((await t.request('PUT', `/v1/dynamic-images/${image.id}`, { token: ws.developerToken, body: recoloured })).status).toBe(200);
    expect((await png(before.location)).status).toBe(404);
    // A cache holding the old bytes is not told they are still good.
    const oldHash = before.location.slice('/dynamic-images/r/'.length, -'.png'.length);
    expect((await png(before.location, undefined, { 'if-none-match': `"${oldHash}"` })).status).toBe(404);
    const after = await follow(link);
    expect(after.location).not.toBe(before.location);
    const drawn = new Decoded(after.bytes);
    expect(drawn.count({ x: 100, y: 20, width: 190, height: 60 }, [0, 255, 0, 255])).toBeGreaterThan(50);
    expect(drawn.count({ x: 100, y: 20, width: 190, height: 60 }, TEXT)).toBe(0);
  });

  it('bakes the static layer by a job when the template is saved', async () => {
    const image = await createImage(card());
    await t.settle();
    const layers = await t.database.db.selectFrom('dynamic_image_renders').select(['kind']).where('image_id', '=', Number(image.id)).execute();
    expect(layers).toEqual([{ kind: 'layer' }]);
  });

  it('a picture that fails draws the fallback and writes an error log; a custom-field URL on loopback is never fetched', async () => {
    const guarded = await pictureServer({ '/secret.png': solidPng(10, 10, AVATAR) });
    try {
      const image = await createImage({
        data: {
          width: 100,
          height: 100,
          elements: [{ id: 'p', x: 0, y: 0, width: 100, height: 100, type: 'image', imageType: 'customField', customFieldId: company, url: `${pictures.origin}/fallback.png`, imageStyle: 'square' }],
        },
      });
      const mallory = await contact({ firstName: 'Mallory' });
      await t.request('PUT', `/v1/contacts/${mallory}/custom-fields/${company}`, { token: ws.developerToken, body: { value: `${guarded.origin}/secret.png` } });
      const res = await png(`/v1/dynamic-images/${image.id}/render?contact=${mallory}`, ws.developerToken);
      expect(res.status).toBe(200);
      expect(new Decoded(res.bytes).at(50, 50)).toEqual(FALLBACK);
      expect(guarded.connections).toBe(0);
      const logs = (await t.request('GET', '/v1/error-logs?perPage=50', { token: ws.developerToken })).body.data.filter((l: { action: string }) => l.action === 'dynamicImage');
      expect(logs.length).toBeGreaterThan(0);
      expect(logs[0].contactId).toBe(mallory);
      expect(logs[0].detail).toMatch(/not a public address/);
    } finally {
      await guarded.close();
    }
  });

  it('refuses private addresses in the template at save, in every spelling', async () => {
    for (const url of ['http://127.0.0.1/x.png', 'http://localhost/x.png', 'http://[::1]/x.png', 'http://2130706433/x.png', 'http://10.0.0.1/x.png', 'http://169.254.169.254/latest']) {
      const res = await t.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: { name: 'Bad', backgroundUrl: url, data: { width: 10, height: 10, elements: [] } } });
      expect(res.status, url).toBe(422);
      expect(res.body.data.issues[0].path, url).toEqual(['body', 'backgroundUrl']);
    }
  });

  it('a stalled picture server does not hold a render past its time: the fallback is drawn', async () => {
    const image = await createImage({ data: { width: 50, height: 50, elements: [{ id: 'p', x: 0, y: 0, width: 50, height: 50, type: 'image', imageType: 'avatarUser', url: `${pictures.origin}/fallback.png`, imageStyle: 'square' }] } });
    const slow = await contact({ firstName: 'Slow', avatar: `${pictures.origin}/stall.png` });
    const started = Date.now();
    const res = await png(`/v1/dynamic-images/${image.id}/render?contact=${slow}`, ws.developerToken);
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    expect(new Decoded(res.bytes).at(25, 25)).toEqual(FALLBACK);
    // The picture's own limit (3 s by default) ends it, well within the whole render's 10 s.
    expect(took).toBeGreaterThanOrEqual(2_900);
    expect(took).toBeLessThan(10_000);
  }, 20_000);

  it('answers PNGs to a contact of the workspace only: 404 for another workspace\'s image or contact', async () => {
    const image = await createImage(card());
    const mine = await contact({ firstName: 'Mine' });
    const other = await t.workspace({ name: 'Other' });
    const created = await t.request('POST', '/v1/contacts', { token: other.developerToken, body: { firstName: 'Theirs', email: 'theirs@mail.example' } });
    expect(created.status).toBe(200);
    const theirs = created.body.id as string;
    expect((await png(`/v1/dynamic-images/${image.id}/render?contact=${mine}`, other.developerToken)).status).toBe(404);
    expect((await png(`/v1/dynamic-images/${image.id}/render?contact=${theirs}`, ws.developerToken)).status).toBe(404);
    expect((await png(`/v1/dynamic-images/${image.id}/render`, ws.developerToken)).status).toBe(422);
    // GraphQL: no link is signed for another workspace's contact, nor through its token.
    const query = `query($id: ID!, $c: String!) { dynamicImage(id: $id) { renderUrl(contact: $c) } }`;
    const foreignContact = await t.graphql(query, { id: image.id, c: theirs }, { token: ws.developerToken });
    expect(foreignContact.body.data).toBeNull();
    expect(foreignContact.body.errors.map((e: { path: string[]; extensions: { code: string; data: unknown } }) => [e.path, e.extensions.code, e.extensions.data])).toEqual([[['dynamicImage', 'renderUrl'], 'notFound', { resource: 'Contact' }]]);
    const foreignToken = await t.graphql(query, { id: image.id, c: mine }, { token: other.developerToken });
    expect(foreignToken.body.data).toBeNull();
    expect(foreignToken.body.errors.map((e: { path: string[]; extensions: { code: string; data: unknown } }) => [e.path, e.extensions.code, e.extensions.data])).toEqual([[['dynamicImage'], 'notFound', { resource: 'Dynamic image' }]]);
  });
});

describe(`dynamic images under load (${testEngine})`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    // Two drawing threads and two renders waiting: the rest of 20 at once are refused, never queued for long.
    t = await createEngineTestApp({ IMAGE_RENDER_THREADS: '2', IMAGE_RENDER_QUEUE: '2' });
    ws = await t.workspace({ name: 'Busy' });
  });
  afterAll(() => t.close());

  it('20 renders at once on a pool of 2 end in PNGs or 503s with Retry-After, and the next render succeeds', async () => {
    const elements = [{ id: 't', x: 0, y: 0, width: 1000, height: 1000, type: 'text', text: '{{first_name}} '.repeat(60), fontSize: 40, color: '#112233', align: 'left', fontFamily: 'greatVibes' }];
    const image = (await t.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: { name: 'Big', data: { width: 1000, height: 1000, elements } } })).body;
    const ids: string[] = [];
    // Each contact its own values, so no two renders share a hash (and a render).
    for (let i = 0; i < 20; i++) ids.push((await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { firstName: `Person${i}`, email: `p${i}@mail.example` } })).body.id);
    const answers = await Promise.all(
      ids.map(async (id) => {
        const res = await t.app.fetch(new Request(`http://localhost/v1/dynamic-images/${image.id}/render?contact=${id}`, { headers: { authorization: `Bearer ${ws.developerToken}` } }));
        const bytes = new Uint8Array(await res.arrayBuffer());
        return { status: res.status, type: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), bytes };
      }),
    );
    for (const a of answers) {
      if (a.status === 200) {
        expect(a.type).toBe('image/png');
        expect(new Decoded(a.bytes).width).toBe(1000);
      } else {
        expect(a.status).toBe(503);
        expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(JSON.parse(new TextDecoder().decode(a.bytes)).code).toBe('serviceUnavailable');
      }
    }
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(1);
    const refused = ids[answers.findIndex((a) => a.status === 503)]!;
    const next = await t.app.fetch(new Request(`http://localhost/v1/dynamic-images/${image.id}/render?contact=${refused}`, { headers: { authorization: `Bearer ${ws.developerToken}` } }));
    expect(next.status).toBe(200);
  }, 60_000);
});

describe(`dynamic image store: size cap and least-recently-used eviction (${testEngine})`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    // Room for about two renders of the template below (each some 2-4 KB).
    t = await createEngineTestApp({ IMAGE_STORE_MAX_BYTES: '6000' });
    ws = await t.workspace({ name: 'Capped' });
  });
  afterAll(() => t.close());

  it('keeps the stored renders under the cap, dropping the least recently used first', async () => {
    const elements = [{ id: 't', x: 0, y: 0, width: 200, height: 60, type: 'text', text: 'Hello {{first_name}}', fontSize: 24, color: '#112233', align: 'left' }];
    const image = (await t.request('POST', '/v1/dynamic-images', { token: ws.developerToken, body: { name: 'Small', data: { width: 200, height: 60, elements } } })).body;
    const render = async (name: string) => {
      const id = (await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { firstName: name, email: `${name.toLowerCase()}@mail.example` } })).body.id;
      const res = await t.app.fetch(new Request(`http://localhost/v1/dynamic-images/${image.id}/render?contact=${id}`, { headers: { authorization: `Bearer ${ws.developerToken}` } }));
      expect(res.status).toBe(200);
      return { id, location: res.headers.get('content-location')!, size: (await res.arrayBuffer()).byteLength };
    };
    const stored = () => t.database.db.selectFrom('dynamic_image_renders').select(['hash', 'size']).where('kind', '=', 'render').execute();
    const served = async (location: string) => (await t.app.fetch(new Request(`http://localhost${location}`))).status;

    const first = await render('Alpha');
    const second = await render('Bravo');
    expect(first.size + second.size).toBeLessThanOrEqual(6000);
    expect(await served(first.location)).toBe(200);
    // Reading the first one more than a minute later makes it the most recently used.
    await t.database.db.updateTable('dynamic_image_renders').set({ last_used_at: '2000-01-01T00:00:00.000Z' }).execute();
    expect(await served(first.location)).toBe(200);
    const third = await render('Charlie');
    expect(first.size + second.size + third.size).toBeGreaterThan(6000);

    const left = await stored();
    expect(left.reduce((n, r) => n + r.size, 0)).toBeLessThanOrEqual(6000);
    expect(await served(second.location)).toBe(404);
    expect(await served(first.location)).toBe(200);
    expect(await served(third.location)).toBe(200);
  });
});
