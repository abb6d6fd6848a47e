import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, isoNow } from './support/rest.js';

describe('GET /v1/workspaces', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace({ name: 'Acme', developmentMode: true });
  });
  afterAll(() => t.close());

  it("returns the token's workspace with every field of the contract, id a digit string", async () => {
    const res = await api.request('GET', '/v1/workspaces', { token: ws.developerToken });
    expect(res.status).toBe(200);
    const w = ws.created.workspace;
    expect(res.body).toEqual({
      id: String(ws.id),
      name: 'Acme',
      defaultReply: 'Thanks for your message! We will get back to you shortly.',
      targetCountry: 'US',
      language: 'en',
      timezone: 'UTC',
      brandColor: '#2563eb',
      logo: '',
      ownerId: String(ws.created.owner.id),
      developmentMode: true,
      createdAt: w.createdAt,
      updatedAt: isoNow(),
    });
    expect(res.body.id).toMatch(/^\d+$/);
  });

  it('answers the same to the token in ?token=', async () => {
    const header = await api.request('GET', '/v1/workspaces', { token: ws.developerToken });
    const query = await api.request('GET', '/v1/workspaces', { token: ws.developerToken, tokenInQuery: true });
    expect(query.status).toBe(200);
    expect(query.body).toEqual(header.body);
  });

  it('gives each token its own workspace', async () => {
    const other = await t.workspace({ name: 'Globex' });
    const res = await api.request('GET', '/v1/workspaces', { token: other.developerToken });
    expect(res.body).toMatchObject({ id: String(other.id), name: 'Globex', developmentMode: false });
  });

  it('shows values the workspace never set as empty strings, never null', async () => {
    const bare = await t.workspace({ name: 'Bare' });
    await t.db
      .updateTable('workspaces')
      .set({ default_reply: null, target_country: null, language: null, timezone: null, brand_color: null, logo: null, owner_id: null })
      .where('id', '=', bare.id)
      .execute();
    const token = await t.token(bare.id, { kind: 'developer' });
    const res = await api.request('GET', '/v1/workspaces', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: String(bare.id),
      name: 'Bare',
      defaultReply: '',
      targetCountry: '',
      language: '',
      timezone: '',
      brandColor: '',
      logo: '',
      ownerId: '',
      developmentMode: false,
      createdAt: bare.created.workspace.createdAt,
      updatedAt: expect.any(String),
    });
  });

  it('refuses a user access token', async () => {
    const res = await api.request('GET', '/v1/workspaces', { token: ws.userToken });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(forbidden({ reason: 'workspaceTokenRequired', acceptedSchemes: ['developerAccessToken', 'tokenInSearchParams'] }));
  });

  it('takes no query parameters besides token', async () => {
    const res = await api.request('GET', '/v1/workspaces?id=2', { token: ws.developerToken, tokenInQuery: true });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "id"', path: ['query', 'id'] }]));
  });
});
