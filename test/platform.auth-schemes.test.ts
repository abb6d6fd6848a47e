import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { endpoints, envelopes, forbidden, unlimited } from './support/endpoints.js';

/**
 * The contract's three schemes against every endpoint: a workspace API token in the Authorization
 * header (developerAccessToken) or in ?token= (tokenInSearchParams), and a user access token in the
 * header (bearerAuth). User access tokens are refused by POST /v1/contacts and GET /v1/workspaces
 * (403) and are never accepted in ?token= (401).
 */
const presentations = [
  { scheme: 'developerAccessToken', kind: 'developer', inQuery: false },
  { scheme: 'tokenInSearchParams', kind: 'developer', inQuery: true },
  { scheme: 'bearerAuth', kind: 'user', inQuery: false },
] as const;

describe('authentication schemes x token kinds x endpoints', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Acme' });
  });
  afterAll(() => t.close());

  const tokenOf = (kind: 'developer' | 'user') => (kind === 'developer' ? ws.developerToken : ws.userToken);

  for (const endpoint of endpoints) {
    for (const p of presentations) {
      const allowed = !(endpoint.workspaceTokensOnly && p.kind === 'user');
      it(`${endpoint.name} with ${p.scheme} (${p.kind} token${p.inQuery ? ' in ?token=' : ' in header'}): ${allowed ? 'allowed' : '403 FORBIDDEN'}`, async () => {
        const call = await endpoint.prepare(t, ws.id);
        const res = await t.request(call.method, call.path, { body: call.body, token: tokenOf(p.kind), tokenInQuery: p.inQuery });
        if (allowed) {
          expect({ status: res.status, code: res.body?.code }).toEqual({ status: call.ok, code: undefined });
        } else {
          expect(res.status).toBe(403);
          expect(res.body).toEqual(forbidden({ reason: 'workspaceTokenRequired', acceptedSchemes: ['developerAccessToken', 'tokenInSearchParams'] }));
        }
      });
    }

    it(`${endpoint.name} refuses a user access token in ?token= with 401 INVALID_CHATBOT_TOKEN`, async () => {
      const call = await endpoint.prepare(t, ws.id);
      const res = await t.request(call.method, call.path, { body: call.body, token: ws.userToken, tokenInQuery: true });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(envelopes.INVALID_CHATBOT_TOKEN);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="messaging-api", error="invalid_token"');
    });
  }

  it('accepts the scheme name in any case and extra spaces ("bearer  <token>")', async () => {
    const res = await t.request('GET', '/v1/tags', { headers: { authorization: `bearer  ${ws.developerToken}` } });
    expect(res.status).toBe(200);
  });

  it('lets the Authorization header win over ?token= when both are sent', async () => {
    const headerWins = await t.request('GET', `/v1/tags?token=${'mdev_' + 'x'.repeat(43)}`, { token: ws.developerToken });
    expect(headerWins.status).toBe(200);
    const badHeader = await t.request('GET', `/v1/tags?token=${ws.developerToken}`, { headers: { authorization: 'Bearer nonsense' } });
    expect(badHeader.status).toBe(401);
    expect(badHeader.body).toEqual(envelopes.INVALID_CHATBOT_TOKEN);
  });
});
