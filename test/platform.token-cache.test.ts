import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { statementsOf } from './support/graphql.js';
import { runCli } from './support/processes.js';
import { revokeTokenById } from '../src/domain/auth/token.service.js';

/**
 * Token lookups are cached (hits and misses) so authentication costs no SQL statement on the hot
 * path, and a revocation made elsewhere (the operator CLI, another server) takes effect within
 * TOKEN_CACHE_SECONDS. Statement counts come from the X-Db-Statements header.
 */
describe('token lookup cache', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ ...unlimited, TOKEN_CACHE_SECONDS: '1' });
    ws = await t.workspace({ name: 'Acme' });
  });
  afterAll(() => t.close());

  it('looks a token up once, then authenticates from the cache', async () => {
    const first = await t.request('GET', '/v1/tags', { token: ws.developerToken });
    const second = await t.request('GET', '/v1/tags', { token: ws.developerToken });
    const viaQuery = await t.request('GET', '/v1/tags', { token: ws.developerToken, tokenInQuery: true });
    expect([first.status, second.status, viaQuery.status]).toEqual([200, 200, 200]);
    // GET /v1/tags is one query; the first request also ran the token lookup.
    expect([statementsOf(first), statementsOf(second), statementsOf(viaQuery)]).toEqual([2, 1, 1]);
  });

  it('caches unknown tokens too, so a flood of guesses does not reach the database', async () => {
    const guess = `mdev_${'Q'.repeat(43)}`;
    const first = await t.request('GET', '/v1/tags', { token: guess });
    const second = await t.request('GET', '/v1/tags', { token: guess });
    expect([first.status, second.status]).toEqual([401, 401]);
    expect([statementsOf(first), statementsOf(second)]).toEqual([1, 0]);
    // Malformed tokens never reach the database at all.
    expect(statementsOf(await t.request('GET', '/v1/tags', { token: 'garbage' }))).toBe(0);
  });

  it('stops accepting a token revoked by the operator CLI within TOKEN_CACHE_SECONDS', async () => {
    const ttlMs = 5000;
    const app = await createTestApp({ ...unlimited, TOKEN_CACHE_SECONDS: String(ttlMs / 1000) });
    try {
      const w = await app.workspace();
      const { id } = w.created.tokens.developer.record;
      const token = w.developerToken;
      expect((await app.request('GET', '/v1/tags', { token })).status).toBe(200);
      const cachedAt = Date.now();

      const revoked = await runCli(['token', 'revoke', String(id)], { DATABASE_URL: app.config.DATABASE_URL });
      expect(revoked).toMatchObject({ code: 0, stdout: `Revoked token ${id}. Running servers stop accepting it within TOKEN_CACHE_SECONDS.\n` });
      // The CLI process itself may take longer than the cache lives on a loaded machine: the
      // entry must be gone by the later of its expiry and the revocation (plus polling slack).
      const mustBeGoneBy = Math.max(cachedAt + ttlMs, Date.now()) + 1500;

      // Another process revoked it: this one still trusts its cache (no database round trip)...
      const stale = await app.request('GET', '/v1/tags', { token });
      if (Date.now() - cachedAt < ttlMs - 500) expect([stale.status, statementsOf(stale)]).toEqual([200, 1]);
      // ...until the entry expires, at most TOKEN_CACHE_SECONDS after it was cached.
      let res = stale;
      while (res.status === 200 && Date.now() < mustBeGoneBy) {
        await new Promise((r) => setTimeout(r, 100));
        res = await app.request('GET', '/v1/tags', { token });
      }
      expect(Date.now()).toBeLessThan(mustBeGoneBy);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(envelopes.INVALID_CHATBOT_TOKEN);
      // Other tokens of the workspace are unaffected.
      expect((await app.request('GET', '/v1/tags', { token: w.userToken })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('stops accepting a token revoked through this process at once', async () => {
    const token = await t.token(ws.id, { kind: 'developer', name: 'revoked here' });
    expect((await t.request('GET', '/v1/tags', { token })).status).toBe(200);
    const [{ id }] = await t.db.selectFrom('api_tokens').select('id').where('name', '=', 'revoked here').execute();
    expect(await revokeTokenById(t.db, id, t.app.deps.tokenCache)).toBe(true);
    const res = await t.request('GET', '/v1/tags', { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(envelopes.INVALID_CHATBOT_TOKEN);
  });

  it('with TOKEN_CACHE_SECONDS=0 looks the token up on every request', async () => {
    const uncached = await createTestApp({ ...unlimited, TOKEN_CACHE_SECONDS: '0' });
    try {
      const w = await uncached.workspace();
      const counts = [];
      for (let i = 0; i < 3; i++) counts.push(statementsOf(await uncached.request('GET', '/v1/tags', { token: w.developerToken })));
      expect(counts).toEqual([2, 2, 2]);
    } finally {
      await uncached.close();
    }
  });
});
