import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeTokenById } from '../src/domain/auth/token.service.js';
import { contractClient } from './support/contract.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData } from './support/rest.js';

describe('GET /v1/token', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;

  /** The stored creation time of the workspace's newest token of a kind. */
  const createdAtOf = async (kind: 'developer' | 'user', workspaceId = ws.id) =>
    (await t.db.selectFrom('api_tokens').select('created_at').where('workspace_id', '=', workspaceId).where('kind', '=', kind).orderBy('id', 'desc').executeTakeFirstOrThrow())
      .created_at;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it('describes the presented token and how it was presented, never its secret', async () => {
    const header = await api.request('GET', '/v1/token', { token: ws.developerToken });
    expect(header.status).toBe(200);
    expect(header.body).toEqual({
      workspaceId: String(ws.id),
      kind: 'developer',
      scheme: 'developerAccessToken',
      permission: 'full',
      scopes: null,
      createdAt: await createdAtOf('developer'),
    });
    expect(header.text).not.toContain(ws.developerToken.slice(5));

    const query = await api.request('GET', '/v1/token', { token: ws.developerToken, tokenInQuery: true });
    expect(query.body).toEqual({ ...header.body, scheme: 'tokenInSearchParams' });

    // Also under /api (the contract checker knows only the /v1 paths).
    const user = await t.request('GET', '/api/v1/token', { token: ws.userToken });
    expect(user.body).toEqual({ workspaceId: String(ws.id), kind: 'user', scheme: 'bearerAuth', permission: 'full', scopes: null, createdAt: await createdAtOf('user') });
  });

  it('answers any token, read-only or with scopes that name no area of it', async () => {
    const limited = await t.token(ws.id, { kind: 'developer', readOnly: true, scopes: ['tags', 'error_logs'] });
    const res = await api.request('GET', '/v1/token', { token: limited });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      workspaceId: String(ws.id),
      kind: 'developer',
      scheme: 'developerAccessToken',
      permission: 'read_only',
      scopes: ['tags', 'error_logs'],
      createdAt: await createdAtOf('developer'),
    });
    const other = await t.workspace({ name: 'Other' });
    expect((await api.request('GET', '/v1/token', { token: other.developerToken })).body.workspaceId).toBe(String(other.id));
  });

  it('is 401 without a token, with an unknown one, and for a token revoked since it was last seen', async () => {
    expect((await api.request('GET', '/v1/token')).body).toEqual(envelopes.UNAUTHORIZED);
    expect((await api.request('GET', '/v1/token', { token: 'mdev_not-a-real-token-at-all-000000000000000' })).body).toEqual(envelopes.INVALID_CHATBOT_TOKEN);
    const doomed = await t.token(ws.id, { kind: 'developer' });
    expect((await api.request('GET', '/v1/token', { token: doomed })).status).toBe(200);
    const row = await t.db.selectFrom('api_tokens').select('id').where('workspace_id', '=', ws.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    // Revoked behind the app's back (its token cache still holds it): the read finds it revoked.
    await revokeTokenById(t.db, row.id);
    const res = await api.request('GET', '/v1/token', { token: doomed });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(envelopes.INVALID_CHATBOT_TOKEN);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="messaging-api", error="invalid_token"');
  });

  it('takes no query parameters', async () => {
    const res = await api.request('GET', '/v1/token?verbose=1', { token: ws.developerToken });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalidRequestData([{ message: 'Unrecognized key: "verbose"', path: ['query', 'verbose'] }]));
  });
});
