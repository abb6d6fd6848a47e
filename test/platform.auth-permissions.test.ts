import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '../src/domain/auth/scopes.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { endpoints, forbidden, unlimited } from './support/endpoints.js';

/**
 * What an authenticated token may do: a read-only token reads but every POST and DELETE is
 * 403 FORBIDDEN (and changes nothing); a token with scopes reaches only those areas. The token
 * kind rule (workspace API tokens only on two endpoints) comes first.
 */
describe('read-only tokens and scopes on every endpoint', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let readOnly: { developer: string; user: string };
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Acme' });
    readOnly = {
      developer: await t.token(ws.id, { kind: 'developer', readOnly: true }),
      user: await t.token(ws.id, { kind: 'user', readOnly: true }),
    };
  });
  afterAll(() => t.close());

  for (const endpoint of endpoints) {
    for (const kind of ['developer', 'user'] as const) {
      const refusedByKind = endpoint.workspaceTokensOnly && kind === 'user';
      const write = endpoint.method !== 'GET';
      const outcome = refusedByKind ? '403 (token kind)' : write ? '403 (read-only)' : 'allowed';
      it(`${endpoint.name} with a read-only ${kind} token: ${outcome}`, async () => {
        const call = await endpoint.prepare(t, ws.id);
        const res = await t.request(call.method, call.path, { body: call.body, token: readOnly[kind] });
        if (refusedByKind) {
          expect(res.body).toEqual(forbidden({ reason: 'workspaceTokenRequired', acceptedSchemes: ['developerAccessToken', 'tokenInSearchParams'] }));
        } else if (write) {
          expect(res.status).toBe(403);
          expect(res.body).toEqual(forbidden({ reason: 'readOnlyToken' }));
          // Nothing happened: the same call with a full token still succeeds (the lead-ad
          // automation still exists, the conversation was still followed, ...).
          const full = await t.request(call.method, call.path, { body: call.body, token: ws.developerToken });
          expect(full.status).toBe(call.ok);
        } else {
          expect({ status: res.status, code: res.body?.code }).toEqual({ status: call.ok, code: undefined });
        }
      });
    }

    it(`${endpoint.name} with a token scoped to "${endpoint.scope}" only: allowed`, async () => {
      const token = await t.token(ws.id, { kind: 'developer', scopes: [endpoint.scope as (typeof scopes)[number]] });
      const call = await endpoint.prepare(t, ws.id);
      const res = await t.request(call.method, call.path, { body: call.body, token });
      expect({ status: res.status, code: res.body?.code }).toEqual({ status: call.ok, code: undefined });
    });

    it(`${endpoint.name} with a token holding every scope but "${endpoint.scope}": 403 FORBIDDEN`, async () => {
      const token = await t.token(ws.id, { kind: 'developer', scopes: scopes.filter((s) => s !== endpoint.scope) });
      const call = await endpoint.prepare(t, ws.id);
      const res = await t.request(call.method, call.path, { body: call.body, token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(forbidden({ reason: 'missingScope', scope: endpoint.scope }));
    });
  }

  it('applies scopes to user access tokens too', async () => {
    const token = await t.token(ws.id, { kind: 'user', scopes: ['contacts'] });
    expect((await t.request('GET', '/v1/tags', { token })).body).toEqual(forbidden({ reason: 'missingScope', scope: 'tags' }));
    const call = await endpoints.find((e) => e.name.endsWith('/sequences'))!.prepare(t, ws.id);
    expect((await t.request(call.method, call.path, { token })).status).toBe(200);
  });
});
