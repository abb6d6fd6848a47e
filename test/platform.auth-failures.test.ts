import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeTokenById } from '../src/domain/auth/token.service.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { endpoints, envelopes, unlimited } from './support/endpoints.js';

/**
 * Failed authentication on every endpoint, in the order: no credentials at all is
 * 401 UNAUTHORIZED; a malformed, unknown or revoked token is 401 INVALID_CHATBOT_TOKEN. Both carry
 * a Bearer challenge, and neither touches the workspace.
 */
const challenge = 'Bearer realm="messaging-api"';
const invalidChallenge = 'Bearer realm="messaging-api", error="invalid_token"';

describe('authentication failures on every endpoint', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let revokedDeveloper: string;
  let revokedUser: string;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Acme' });
    const dev = await t.workspace({ name: 'Revoked' });
    revokedDeveloper = dev.developerToken;
    revokedUser = dev.userToken;
    await revokeTokenById(t.db, dev.created.tokens.developer.record.id);
    await revokeTokenById(t.db, dev.created.tokens.user.record.id);
  });
  afterAll(() => t.close());

  const missing: [string, Record<string, string>, string][] = [
    ['no Authorization header and no ?token=', {}, ''],
    ['an empty ?token=', {}, 'token='],
  ];
  const invalid: [string, () => { headers?: Record<string, string>; query?: string }][] = [
    ['a malformed token in the header', () => ({ headers: { authorization: 'Bearer not-a-token' } })],
    ['a malformed token in ?token=', () => ({ query: 'token=not-a-token' })],
    ['a truncated workspace API token', () => ({ headers: { authorization: `Bearer ${ws.developerToken.slice(0, -1)}` } })],
    ['another auth scheme (Basic)', () => ({ headers: { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` } })],
    ['"Bearer" without a token', () => ({ headers: { authorization: 'Bearer' } })],
    ['an unknown, well-formed workspace API token', () => ({ headers: { authorization: `Bearer mdev_${'A'.repeat(43)}` } })],
    ['an unknown, well-formed user access token', () => ({ headers: { authorization: `Bearer musr_${'A'.repeat(43)}` } })],
    ['an unknown workspace API token in ?token=', () => ({ query: `token=mdev_${'B'.repeat(43)}` })],
    ['a revoked workspace API token in the header', () => ({ headers: { authorization: `Bearer ${revokedDeveloper}` } })],
    ['a revoked workspace API token in ?token=', () => ({ query: `token=${revokedDeveloper}` })],
    ['a revoked user access token', () => ({ headers: { authorization: `Bearer ${revokedUser}` } })],
  ];

  for (const endpoint of endpoints) {
    for (const [what, headers, query] of missing) {
      it(`${endpoint.name} with ${what}: 401 UNAUTHORIZED`, async () => {
        const call = await endpoint.prepare(t, ws.id);
        const before = await t.request('GET', '/v1/workspaces', { token: ws.developerToken });
        const res = await t.request(call.method, query ? `${call.path}?${query}` : call.path, { body: call.body, headers });
        expect(res.status).toBe(401);
        expect(res.body).toEqual(envelopes.UNAUTHORIZED);
        expect(res.headers.get('www-authenticate')).toBe(challenge);
        // The refused call changed nothing (a second identical call with a token still succeeds).
        const after = await t.request(call.method, call.path, { body: call.body, token: ws.developerToken });
        expect(after.status).toBe(call.ok);
        expect(before.status).toBe(200);
      });
    }
    for (const [what, make] of invalid) {
      it(`${endpoint.name} with ${what}: 401 INVALID_CHATBOT_TOKEN`, async () => {
        const call = await endpoint.prepare(t, ws.id);
        const { headers, query } = make();
        const res = await t.request(call.method, query ? `${call.path}?${query}` : call.path, { body: call.body, headers });
        expect(res.status).toBe(401);
        expect(res.body).toEqual(envelopes.INVALID_CHATBOT_TOKEN);
        expect(res.headers.get('www-authenticate')).toBe(invalidChallenge);
        const after = await t.request(call.method, call.path, { body: call.body, token: ws.developerToken });
        expect(after.status).toBe(call.ok);
      });
    }
  }
});
