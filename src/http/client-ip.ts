import type { Incoming } from './exchange.js';

/**
 * The client's address for per-address limits. X-Forwarded-For is only believed behind a proxy
 * we run (TRUST_PROXY), otherwise any client could pick its own bucket.
 */
export function clientIp(request: Incoming, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.header('x-forwarded-for');
    if (forwarded) return forwarded.split(',')[0]!.trim();
  }
  return request.remoteAddress ?? 'in-process';
}
