import type { IncomingMessage } from 'node:http';

/**
 * The client's address for per-IP rate limiting. X-Forwarded-For is only believed behind a proxy
 * we run (TRUST_PROXY), otherwise any client could pick its own bucket.
 */
export function clientIp(request: Request, serverContext: { req?: IncomingMessage }, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    if (forwarded) return forwarded.split(',')[0].trim();
  }
  return serverContext.req?.socket?.remoteAddress ?? 'in-process';
}
