import type { Config } from '../config/config.js';
import type { Answer, Incoming } from './exchange.js';

/**
 * Cross-origin calls from browsers, for every path (REST, /graphql, documents): the origins of
 * CORS_ORIGINS (any, by default). Tokens travel in headers, never cookies, so credentials are never
 * allowed. Scripts may read the request id, rate-limit, caching and idempotency headers. The
 * headers are those whatwg-node's CORS plugin wrote when Yoga answered every path, so browsers see
 * no difference: the request's origin echoed (with `Vary: Origin`) when any origin may call or it
 * is one of several listed, the one listed origin otherwise, `null` for an origin not listed; the
 * preflight's method and headers echoed back.
 */
export const exposedHeaders = [
  'X-Request-Id', 'X-Db-Statements', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy',
  'Retry-After', 'Allow', 'ETag', 'Location', 'Idempotent-Replayed',
].join(', ');

const MAX_AGE_SECONDS = '600';

/** A preflight (any OPTIONS request) is answered at once: 204, its CORS headers added with every answer's. */
export const preflightAnswer = (): Answer => ({ status: 204, headers: { 'content-length': '0' }, body: null });

/** Adds the CORS headers for `request` to `headers` (nothing without an Origin header). */
export function addCorsHeaders(request: Incoming, headers: Record<string, string>, origins: Config['CORS_ORIGINS']): void {
  const origin = request.header('origin');
  if (origin === null) return;
  const vary: string[] = [];
  if (origins === '*') {
    headers['access-control-allow-origin'] = origin;
    vary.push('Origin');
  } else if (origins.length === 1) {
    headers['access-control-allow-origin'] = origins[0]!;
  } else if (origins.includes(origin)) {
    headers['access-control-allow-origin'] = origin;
    vary.push('Origin');
  } else {
    headers['access-control-allow-origin'] = 'null';
  }
  const method = request.header('access-control-request-method');
  if (method) headers['access-control-allow-methods'] = method;
  const requested = request.header('access-control-request-headers');
  if (requested) {
    headers['access-control-allow-headers'] = requested;
    vary.push('Access-Control-Request-Headers');
  }
  if (vary.length > 0) headers['vary'] = headers['vary'] ? `${headers['vary']}, ${vary.join(', ')}` : vary.join(', ');
  headers['access-control-expose-headers'] = exposedHeaders;
  headers['access-control-max-age'] = MAX_AGE_SECONDS;
}
