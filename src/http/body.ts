import type { Config } from '../config/config.js';
import { AppError } from '../errors/catalogue.js';
import type { Incoming } from './exchange.js';

/** What any JSON a client sends may be: its size in bytes and how deeply arrays and objects nest. */
export interface JsonLimits {
  bytes: number;
  depth: number;
}

/** The limits of a request body: BODY_LIMIT_BYTES and JSON_MAX_DEPTH. */
export const bodyLimits = (config: Pick<Config, 'BODY_LIMIT_BYTES' | 'JSON_MAX_DEPTH'>): JsonLimits => ({ bytes: config.BODY_LIMIT_BYTES, depth: config.JSON_MAX_DEPTH });

/**
 * Reads a JSON request body without trusting the client: the declared length is checked first,
 * then the stream is cut as soon as it passes the limit (chunked bodies declare no length; see
 * exchange.ts). An empty body reads as `undefined`, which the route's zod schema then reports.
 */
export async function readJsonBody(request: Incoming, limits: JsonLimits): Promise<unknown> {
  const bytes = await request.body(limits.bytes);
  if (bytes === undefined) return undefined;
  const type = request.header('content-type') ?? '';
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) throw new AppError('unsupportedMediaType');
  return parseJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), limits.depth);
}

/**
 * JSON text a client sent, or 400 malformedJson with the parser's `data.reason` (plus `where`'s
 * details). Nesting deeper than `maxDepth` is 422 invalidRequestData before anything parses it:
 * whatever walks a value recursively later (zod, GraphQL's variable coercion) would overflow the
 * stack on a few thousand levels, which fit in a small body.
 */
export function parseJson(text: string, maxDepth: number, where: { message?: string; data?: Record<string, unknown>; path?: string } = {}): unknown {
  const depth = nestingDepth(text, maxDepth);
  if (depth > maxDepth) {
    throw new AppError('invalidRequestData', {
      data: { issues: [{ message: `JSON nesting depth ${depth} exceeds the limit of ${maxDepth}`, path: [where.path ?? 'body'] }] },
    });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError('malformedJson', { message: where.message, data: { ...where.data, reason: (e as Error).message } });
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * How deeply arrays and objects nest in JSON text, brackets inside strings not counted. A text
 * shorter than twice the limit cannot pass it (each level takes two characters), so most bodies
 * are not scanned at all. Malformed text is measured as far as it goes; JSON.parse reports it.
 */
function nestingDepth(text: string, maxDepth: number): number {
  if (text.length < 2 * (maxDepth + 1)) return 0;
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > deepest) deepest = depth;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return deepest;
}
