import Negotiator from 'negotiator';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/**
 * What every response leaves with, whoever produced it (a REST route, Yoga, a document page):
 * security headers, caching rules, a validator for conditional GETs, and compression.
 */

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Headers on every response. Answers depend on the token that asked, so nothing may be kept by
 * a shared or browser cache unless the route says otherwise (documents and assets set their own).
 */
export function setSecurityHeaders(headers: Headers): void {
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'no-referrer');
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
}

/** Text types worth compressing; images, archives and already-encoded bodies are left alone. */
const compressible = /^(application\/(json|graphql-response\+json|javascript|problem\+json)|text\/)/i;

/** Compressing costs CPU per response: dynamic answers use fast settings (brotli 4 is about gzip 6's speed, smaller). */
const encoders: Record<string, (body: Uint8Array) => Promise<Buffer>> = {
  br: (body) => brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }),
  gzip: (body) => gzipAsync(body, { level: 6 }),
};

/** Large static pages (GraphiQL is 9 MB) are compressed once per process, not per request. */
const staticCache = new Map<string, Buffer>();
const STATIC_CACHE_FROM_BYTES = 256 * 1024;

/** A weak validator: the body's hash. Weak because the same JSON may be sent compressed or not. */
const etagOf = (body: Uint8Array) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

/** Whether an If-None-Match header lists this ETag (weak comparison, as RFC 9110 asks for GET). */
function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

export interface BodyRules {
  /** Bodies at least this large are compressed when the client accepts gzip or br. */
  compressFromBytes: number;
}

/**
 * ETag and 304 for successful GET/HEAD answers, and compression (br or gzip, as the client's
 * Accept-Encoding prefers, at least `compressFromBytes`). Returns the response to send: the same
 * one when nothing applies (its body is only read when one of them may).
 */
export async function withBodyRules(request: Request, response: Response, rules: BodyRules): Promise<Response> {
  const isRead = request.method === 'GET' || request.method === 'HEAD';
  const type = response.headers.get('content-type') ?? '';
  const canCompress = compressible.test(type) && !response.headers.has('content-encoding') && request.headers.has('accept-encoding');
  const wantsEtag = isRead && response.status === 200;
  if (!response.body || (!wantsEtag && !canCompress)) return response;

  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  if (wantsEtag) {
    const etag = headers.get('etag') ?? etagOf(body);
    headers.set('ETag', etag);
    const ifNoneMatch = request.headers.get('if-none-match');
    if (ifNoneMatch !== null && matches(ifNoneMatch, etag)) {
      for (const h of ['content-type', 'content-length']) headers.delete(h);
      return new Response(null, { status: 304, headers });
    }
  }
  if (canCompress && body.byteLength >= rules.compressFromBytes) {
    const encoding = preferredEncoding(request.headers.get('accept-encoding') ?? '');
    headers.append('Vary', 'Accept-Encoding');
    if (encoding === 'br' || encoding === 'gzip') {
      const encoded = await compress(body, encoding);
      headers.set('Content-Encoding', encoding);
      headers.delete('content-length');
      return new Response(encoded as unknown as BodyInit, { status: response.status, statusText: response.statusText, headers });
    }
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * br or gzip, whichever the client's Accept-Encoding (with its q-values) allows; br when it allows
 * both equally. negotiator 1.x takes the server's preference as an option its types do not know.
 */
function preferredEncoding(acceptEncoding: string): string | undefined {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as {
    encodings(available: string[], options: { preferred: string[] }): string[];
  };
  return negotiator.encodings(['br', 'gzip'], { preferred: ['br', 'gzip'] })[0];
}

async function compress(body: Uint8Array, encoding: 'br' | 'gzip'): Promise<Buffer> {
  if (body.byteLength < STATIC_CACHE_FROM_BYTES) return encoders[encoding](body);
  const key = `${encoding}:${createHash('sha1').update(body).digest('base64url')}`;
  let encoded = staticCache.get(key);
  if (!encoded) {
    encoded = await encoders[encoding](body);
    if (staticCache.size >= 16) staticCache.delete(staticCache.keys().next().value!);
    staticCache.set(key, encoded);
  }
  return encoded;
}
