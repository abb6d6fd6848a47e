import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { badPageParameters } from './support/pagination-cases.js';
import { invalidRequestData } from './support/rest.js';

const at = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('GET /v1/error-logs', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let contactId: number;
  /** Log ids by a short name. */
  const id: Record<string, string> = {};
  const list = (query = '', token = ws.developerToken) => api.request('GET', `/v1/error-logs${query ? `?${query}` : ''}`, { token });
  /** The short names of the logs a search returns, in order. */
  const found = async (keyword: string) => {
    const res = await list(`keyword=${encodeURIComponent(keyword)}`);
    expect(res.status, keyword).toBe(200);
    const byId = Object.fromEntries(Object.entries(id).map(([k, v]) => [v, k]));
    return res.body.data.map((l: { id: string }) => byId[l.id]);
  };

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    contactId = await f.contact({ email: 'ada@example.com' });
    const logs: [string, string, string, number][] = [
      ['blocked', 'Message blocked by recipient', 'sendMessage', 1],
      ['expired', 'Token EXPIRED for page', 'refreshToken', 2],
      ['quota', 'Rate limit hit: 100% of quota', 'sendMessage', 3],
      ['field', 'field first_name missing', 'setCustomField', 4],
      ['webhook', 'Timeout after 30s', 'Webhook_Call', 5],
      ['ok', 'ok', 'syncContacts', 5],
      ['quoted', 'Invalid "quoted" value', 'validate', 6],
    ];
    for (const [name, detail, action, minute] of logs) {
      id[name] = String(await f.errorLog(detail, { action, at: at(minute), contactId: name === 'blocked' ? contactId : null, httpCode: name === 'webhook' ? '504' : '400' }));
    }
    await fixtures(t.db, (await t.workspace({ name: 'Other' })).id).errorLog('Token expired elsewhere', { action: 'refreshToken' });
  });
  afterAll(() => t.close());

  it('lists newest first by default (ties by newest id), page 1 of 50, with the whole log object', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.pageCount).toBe(1);
    expect(res.body.data.map((l: { id: string }) => l.id)).toEqual([id.quoted, id.ok, id.webhook, id.field, id.quota, id.expired, id.blocked]);
    expect(res.body.data[2]).toEqual({
      id: id.webhook,
      workspaceId: String(ws.id),
      contactId: '',
      action: 'Webhook_Call',
      detail: 'Timeout after 30s',
      httpCode: '504',
      createdAt: at(5),
      updatedAt: at(5),
    });
    expect(res.body.data[6]).toEqual({
      id: id.blocked,
      workspaceId: String(ws.id),
      contactId: String(contactId),
      action: 'sendMessage',
      detail: 'Message blocked by recipient',
      httpCode: '400',
      createdAt: at(1),
      updatedAt: at(1),
    });
  });

  it('pages with pageCount = ceil(total / perPage)', async () => {
    expect((await list('perPage=2')).body.pageCount).toBe(4);
    expect((await list('perPage=2&page=4')).body.data.map((l: { id: string }) => l.id)).toEqual([id.blocked]);
    expect((await list('perPage=2&page=5')).body).toEqual({ data: [], pageCount: 4 });
    expect((await list('perPage=50&page=9007199254740991')).body).toEqual({ data: [], pageCount: 1 });
  });

  it('searches detail and action by case-insensitive substring, keywords of 3 or more characters', async () => {
    expect(await found('expired')).toEqual(['expired']);
    expect(await found('EXPIRED')).toEqual(['expired']);
    expect(await found('xPiReD fo')).toEqual(['expired']);
    // `send` is only in actions; `token` in a detail and an action of the same log.
    expect(await found('send')).toEqual(['quota', 'blocked']);
    expect(await found('TOKEN')).toEqual(['expired']);
    expect(await found('k_c')).toEqual(['webhook']);
    expect(await found('timeout after 30s')).toEqual(['webhook']);
    expect(await found('nothing like this')).toEqual([]);
  });

  it('searches with keywords of 1 and 2 characters the same way', async () => {
    expect(await found('OK')).toEqual(['ok', 'webhook', 'expired']);
    expect(await found('x')).toEqual(['expired']);
    expect(await found('Y')).toEqual(['ok', 'blocked']);
    expect(await found('30')).toEqual(['webhook']);
    expect(await found('zq')).toEqual([]);
  });

  it('matches %, _ and quotes literally, and takes search syntax as plain text', async () => {
    expect(await found('%')).toEqual(['quota']);
    expect(await found('100%')).toEqual(['quota']);
    expect(await found('% of')).toEqual(['quota']);
    expect(await found('_')).toEqual(['webhook', 'field']);
    expect(await found('t_n')).toEqual(['field']);
    expect(await found('"')).toEqual(['quoted']);
    expect(await found('"quoted"')).toEqual(['quoted']);
    expect(await found('d "q')).toEqual(['quoted']);
    expect(await found('quoted OR ok')).toEqual([]);
    expect(await found('ok*')).toEqual([]);
    expect(await found('NEAR(ok')).toEqual([]);
    expect(await found('\\')).toEqual([]);
  });

  it("counts only the matches for pageCount, and never another workspace's logs", async () => {
    const res = await list('keyword=token&perPage=1');
    expect(res.body).toEqual({ data: [expect.objectContaining({ id: id.expired })], pageCount: 1 });
    expect((await list('keyword=elsewhere')).body).toEqual({ data: [], pageCount: 0 });
    expect((await list('keyword=send&perPage=1&page=2')).body).toEqual({ data: [expect.objectContaining({ id: id.blocked })], pageCount: 2 });
    // An empty keyword filters nothing.
    expect((await list('keyword=')).body.data).toHaveLength(7);
  });

  it('is {data: [], pageCount: 0} for a workspace without logs', async () => {
    const empty = await t.workspace({ name: 'Empty' });
    const res = await list('keyword=token', empty.developerToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], pageCount: 0 });
  });

  it('refuses out-of-range and non-integer page parameters with 422, never clamping', async () => {
    for (const bad of badPageParameters) {
      const res = await list(bad.query);
      expect(res.status, bad.query).toBe(422);
      expect(res.body, bad.query).toEqual(invalidRequestData([{ message: bad.message, path: bad.path }]));
    }
  });

  it('refuses unknown query parameters and a keyword over 255 characters', async () => {
    const unknown = await list('q=token');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "q"', path: ['query', 'q'] }]));
    const long = await list(`keyword=${'k'.repeat(256)}`);
    expect(long.status).toBe(422);
    expect(long.body).toEqual(invalidRequestData([{ message: 'Too big: expected string to have <=255 characters', path: ['query', 'keyword'] }]));
  });
});
