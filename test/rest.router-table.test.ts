import { describe, expect, it } from 'vitest';
import { Router } from '../src/rest/router.js';
import { routes } from '../src/rest/routes/index.js';
import type { Route } from '../src/rest/route.js';

/**
 * The router looks a path up by its resource (the segment after /v1/) before it tries any
 * template, so every route must name a literal resource there. The real table does; a route that
 * does not is refused when the app is built, not left unreachable. (Matching itself is pinned
 * through the app: test/platform.error-envelope.test.ts and every REST test.)
 */
describe('the route table', () => {
  it('every route names a literal resource after /v1/', () => {
    expect(() => new Router(routes)).not.toThrow();
    for (const r of routes) expect(r.path).toMatch(/^\/v1\/[a-z][\w-]*(\/|$)/);
  });

  it('a route without one is refused when the router is built', () => {
    const tags = routes.find((r) => r.method === 'GET' && r.path === '/v1/tags')!;
    const at = (path: string): Route => ({ ...tags, path });
    expect(() => new Router([tags, at('/v1/{area}/items')])).toThrow('Route GET /v1/{area}/items: every path starts with /v1/ and a literal resource name');
    expect(() => new Router([at('/tags')])).toThrow('Route GET /tags: every path starts with /v1/ and a literal resource name');
  });
});
