import { AppError } from '../errors/catalogue.js';

/**
 * Reads a JSON request body without trusting the client: the declared length is checked first,
 * then the stream is cut as soon as it passes the limit (chunked bodies declare no length).
 * An empty body reads as `undefined`, which the route's zod schema then reports.
 */
export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const bytes = await readBodyBytes(request, limitBytes);
  if (bytes === undefined) return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) throw new AppError('unsupportedMediaType');
  return parseJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
}

/** The raw body within `limitBytes` (413 beyond, declared or streamed); undefined when empty. */
export async function readBodyBytes(request: Request, limitBytes: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limitBytes) throw tooLarge(limitBytes);
  if (!request.body) return undefined;

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  return size === 0 ? undefined : Buffer.concat(chunks);
}

/** JSON text a client sent, or 400 malformedJson with the parser's `data.reason` (plus `where`'s details). */
export function parseJson(text: string, where: { message?: string; data?: Record<string, unknown> } = {}): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError('malformedJson', { message: where.message, data: { ...where.data, reason: (e as Error).message } });
  }
}

const tooLarge = (limit: number) => new AppError('payloadTooLarge', { data: { limitBytes: limit } });
