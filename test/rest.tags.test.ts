import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData } from './support/rest.js';

describe('GET /v1/tags', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    for (const name of ['vip', 'Beta', 'alpha', 'Zeta', 'a-c', 'ab', 'a b', '_x']) ids[name] = String(await f.tag(name));
    // Deleted tags are not listed; one may share a live tag's name in another case (names are
    // unique among live tags only).
    await f.tag('archived', { deletedAt: '2026-10-01T00:00:00.000Z' });
    await f.tag('beta', { deletedAt: '2026-10-01T00:00:00.000Z' });
    await fixtures(t.db, other.id).tag('not mine');
  });
  afterAll(() => t.close());

  it("lists the workspace's live tags sorted by name, case-insensitively, not paginated", async () => {
    const res = await api.request('GET', '/v1/tags', { token: ws.developerToken });
    expect(res.status).toBe(200);
    // Code-point order of the lower-cased name on both engines, whatever the database locale.
    expect(res.body).toEqual({
      data: [
        { id: ids._x, name: '_x' },
        { id: ids['a b'], name: 'a b' },
        { id: ids['a-c'], name: 'a-c' },
        { id: ids.ab, name: 'ab' },
        { id: ids.alpha, name: 'alpha' },
        { id: ids.Beta, name: 'Beta' },
        { id: ids.vip, name: 'vip' },
        { id: ids.Zeta, name: 'Zeta' },
      ],
    });
  });

  it('answers every scheme the same: user token, workspace token in the header and in ?token=', async () => {
    const expected = (await api.request('GET', '/v1/tags', { token: ws.developerToken })).body;
    for (const res of [
      await api.request('GET', '/v1/tags', { token: ws.userToken }),
      await api.request('GET', '/v1/tags', { token: ws.developerToken, tokenInQuery: true }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
    }
  });

  it('is an empty list for a workspace without tags', async () => {
    const empty = await t.workspace({ name: 'Empty' });
    const res = await api.request('GET', '/v1/tags', { token: empty.developerToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('rejects query parameters it does not take', async () => {
    const res = await api.request('GET', '/v1/tags?sort=name', { token: ws.developerToken });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "sort"', path: ['query', 'sort'] }]));
  });
});
