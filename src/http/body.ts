import { AppError } from '../errors/catalogue.js';
import type { Incoming } from './exchange.js';

/**
 * Reads a JSON request body without trusting the client: the declared length is checked first,
 * then the stream is cut as soon as it passes the limit (chunked bodies declare no length; see
 * exchange.ts). An empty body reads as `undefined`, which the route's zod schema then reports.
 */
export async function readJsonBody(request: Incoming, limitBytes: number): Promise<unknown> {
  const bytes = await request.body(limitBytes);
  if (bytes === undefined) return undefined;
  const type = request.header('content-type') ?? '';
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) throw new AppError('unsupportedMediaType');
  return parseJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
}

/** JSON text a client sent, or 400 malformedJson with the parser's `data.reason` (plus `where`'s details). */
export function parseJson(text: string, where: { message?: string; data?: Record<string, unknown> } = {}): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError('malformedJson', { message: where.message, data: { ...where.data, reason: (e as Error).message } });
  }
}
