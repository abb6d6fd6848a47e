import Negotiator from 'negotiator';
import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { bodyBytes, byteLengthOf, isStream, type Answer, type Incoming } from './exchange.js';

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
export function setSecurityHeaders(headers: Record<string, string>): void {
  headers['x-content-type-options'] = 'nosniff';
  headers['referrer-policy'] = 'no-referrer';
  if (headers['cache-control'] === undefined) headers['cache-control'] = 'no-store';
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

/**
 * A weak validator: the body's hash (of its UTF-8 bytes, whether it is held as text or as bytes).
 * Weak because the same JSON may be sent compressed or not.
 */
export const etagOf = (body: string | Uint8Array) => `W/"${hash('sha1', body, 'base64url')}"`;

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
 * Accept-Encoding prefers, at least `compressFromBytes`). Answers the answer to send.
 */
export async function withBodyRules(request: Incoming, answer: Answer, rules: BodyRules): Promise<Answer> {
  const isRead = request.method === 'GET' || request.method === 'HEAD';
  const type = answer.headers['content-type'] ?? '';
  const acceptEncoding = request.header('accept-encoding');
  const canCompress = compressible.test(type) && answer.headers['content-encoding'] === undefined && acceptEncoding !== null;
  const wantsEtag = isRead && answer.status === 200;
  // A streamed answer goes out as it is produced: there is no whole body to hash or compress.
  if (answer.body === null || isStream(answer.body) || (!wantsEtag && !canCompress)) return answer;

  // A JSON answer stays text unless it is compressed: node sends a text body in one write with the
  // headers, a byte body as a second chunk, and the bytes would be one more copy of the body.
  const body = answer.body;
  const headers = answer.headers;
  if (wantsEtag) {
    const etag = headers['etag'] ?? etagOf(body);
    headers['etag'] = etag;
    const ifNoneMatch = request.header('if-none-match');
    if (ifNoneMatch !== null && matches(ifNoneMatch, etag)) {
      delete headers['content-type'];
      delete headers['content-length'];
      return { status: 304, headers, body: null };
    }
  }
  if (canCompress && byteLengthOf(body) >= rules.compressFromBytes) {
    const encoding = preferredEncoding(acceptEncoding ?? '');
    headers['vary'] = headers['vary'] ? `${headers['vary']}, Accept-Encoding` : 'Accept-Encoding';
    if (encoding === 'br' || encoding === 'gzip') {
      const encoded = await compress(bodyBytes(body), encoding);
      headers['content-encoding'] = encoding;
      delete headers['content-length'];
      return { status: answer.status, headers, body: encoded };
    }
  }
  return { status: answer.status, headers, body };
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
  const key = `${encoding}:${hash('sha1', body, 'base64url')}`;
  let encoded = staticCache.get(key);
  if (!encoded) {
    encoded = await encoders[encoding](body);
    if (staticCache.size >= 16) staticCache.delete(staticCache.keys().next().value!);
    staticCache.set(key, encoded);
  }
  return encoded;
}
