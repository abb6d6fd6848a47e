import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { badPageParameters } from './support/pagination-cases.js';
import { imageLink, invalidRequestData } from './support/rest.js';

const at = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('GET /v1/dynamic-images', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  /** Image ids by name. */
  const id: Record<string, string> = {};
  const list = (query = '', token = ws.developerToken) => api.request('GET', `/v1/dynamic-images${query ? `?${query}` : ''}`, { token });
  const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((i) => i.name);

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    // Seven images; two share a timestamp (the later id comes first).
    const rows: [string, number][] = [
      ['Summer SALE', 1],
      ['100% off', 2],
      ['100 percent', 3],
      ['a_b', 4],
      ['axb', 5],
      ['Wholesale', 6],
      ['Welcome', 6],
    ];
    for (const [name, minute] of rows) id[name] = String(await f.dynamicImage(name, at(minute)));
    await fixtures(t.db, (await t.workspace({ name: 'Other' })).id).dynamicImage('Other sale');
  });
  afterAll(() => t.close());

  it('lists page 1 of 50 newest first by default, ties by newest id, with the whole image object', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Welcome', 'Wholesale', 'axb', 'a_b', '100 percent', '100% off', 'Summer SALE']);
    expect(res.body.pageCount).toBe(1);
    expect(res.body.data[0]).toEqual({
      id: id.Welcome,
      name: 'Welcome',
      customFieldId: '',
      backgroundUrl: 'https://cdn.example.com/bg.png',
      imageUrl: imageLink(t.config, id.Welcome!),
      createdAt: at(6),
      updatedAt: at(6),
      enabled: true,
      data: { width: 1080, height: 1080, backgroundColor: '', elements: [] },
    });
  });

  it('pages with pageCount = ceil(total / perPage); a page past the end is empty', async () => {
    expect((await list('perPage=3')).body).toEqual({ data: expect.any(Array), pageCount: 3 });
    expect(names(await list('perPage=3&page=1'))).toEqual(['Welcome', 'Wholesale', 'axb']);
    expect(names(await list('perPage=3&page=2'))).toEqual(['a_b', '100 percent', '100% off']);
    expect(names(await list('perPage=3&page=3'))).toEqual(['Summer SALE']);
    expect((await list('perPage=3&page=4')).body).toEqual({ data: [], pageCount: 3 });
    expect((await list('perPage=7')).body.pageCount).toBe(1);
    expect((await list('perPage=1')).body.pageCount).toBe(7);
    expect((await list('page=9007199254740991')).body).toEqual({ data: [], pageCount: 1 });
  });

  it('filters by a case-insensitive substring of the name; % and _ match themselves', async () => {
    expect((await list('name=sale')).body).toEqual({
      data: [expect.objectContaining({ id: id.Wholesale }), expect.objectContaining({ id: id['Summer SALE'] })],
      pageCount: 1,
    });
    expect(names(await list('name=SAL'))).toEqual(['Wholesale', 'Summer SALE']);
    expect(names(await list('name=%25'))).toEqual(['100% off']);
    expect(names(await list('name=_'))).toEqual(['a_b']);
    expect(names(await list('name=a_'))).toEqual(['a_b']);
    expect(names(await list('name=w'))).toEqual(['Welcome', 'Wholesale']);
    expect((await list('name=nothing-like-this')).body).toEqual({ data: [], pageCount: 0 });
    expect((await list('name=sale&perPage=1&page=2')).body).toEqual({ data: [expect.objectContaining({ name: 'Summer SALE' })], pageCount: 2 });
    // An empty filter filters nothing.
    expect(names(await list('name='))).toHaveLength(7);
  });

  it('is {data: [], pageCount: 0} for a workspace without images', async () => {
    const empty = await t.workspace({ name: 'Empty' });
    const res = await list('', empty.developerToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], pageCount: 0 });
  });

  it('returns the layout elements and custom field of an image; imageUrl is its public link, not the stored column', async () => {
    const own = await t.workspace({ name: 'Designer' });
    const field = await fixtures(t.db, own.id).customField('First name');
    const element = {
      id: 'el-1', x: 10, y: 20.5, width: 300, height: 80, type: 'image', imageType: 'url', priority: true,
      url: 'https://cdn.example.com/logo.png', customFieldId: String(field), imageStyle: 'square',
    };
    const row = await t.db
      .insertInto('dynamic_images')
      .values({
        workspace_id: own.id, name: 'Badge', custom_field_id: field, background_url: 'https://cdn.example.com/badge-bg.png',
        image_url: 'https://cdn.example.com/badge.png', enabled: 0, data: JSON.stringify({ width: 600, height: 400, elements: [element] }),
        created_at: T0, updated_at: T0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await list('', own.developerToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: String(row.id), name: 'Badge', customFieldId: String(field), backgroundUrl: 'https://cdn.example.com/badge-bg.png',
          imageUrl: imageLink(t.config, row.id), createdAt: T0, updatedAt: T0, enabled: false,
          // Stored before the canvas had a colour: transparent.
          data: { width: 600, height: 400, backgroundColor: '', elements: [element] },
        },
      ],
      pageCount: 1,
    });
  });

  it('refuses out-of-range and non-integer page parameters with 422, never clamping', async () => {
    for (const bad of badPageParameters) {
      const res = await list(bad.query);
      expect(res.status, bad.query).toBe(422);
      expect(res.body, bad.query).toEqual(invalidRequestData([{ message: bad.message, path: bad.path }]));
    }
  });

  it('refuses unknown query parameters and a name over 255 characters', async () => {
    const unknown = await list('search=sale');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "search"', path: ['query', 'search'] }]));
    const long = await list(`name=${'n'.repeat(256)}`);
    expect(long.status).toBe(422);
    expect(long.body).toEqual(invalidRequestData([{ message: 'Too big: expected string to have <=255 characters', path: ['query', 'name'] }]));
  });
});
