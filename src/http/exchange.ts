import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors/catalogue.js';

/**
 * One HTTP exchange as the platform sees it, whatever carries it: node:http for the server, a
 * WHATWG Request for in-process callers (tests). The REST routes, webhooks and documents are
 * answered from these without building WHATWG Request and Response objects, which cost more than
 * a cheap read itself (bench/README.md); only /graphql hands Yoga a Request (toFetchRequest).
 */
export interface Incoming {
  readonly method: string;
  /** The path as sent (still percent-encoded), without the query. */
  readonly path: string;
  /** The query string as sent, without `?` ('' when there is none). */
  readonly search: string;
  /** A header's value (names are case-insensitive); repeated headers are joined with ", ". */
  header(name: string): string | null;
  /** The client's address as the socket reports it, undefined in process. */
  readonly remoteAddress: string | undefined;
  /**
   * The body, read once: later calls answer the same bytes. Cut at `limitBytes` (413
   * payloadTooLarge, declared or streamed); undefined when empty.
   */
  body(limitBytes: number): Promise<Uint8Array | undefined>;
  /**
   * The body as it arrives, for a large upload written to a store as it comes (never whole in
   * memory). Read once, instead of `body()`. Past `limitBytes` it throws 413 payloadTooLarge.
   */
  stream(limitBytes: number): AsyncIterable<Uint8Array>;
  /**
   * The exchange as a WHATWG Request, for Yoga, built with the given Fetch API (Yoga's own); its
   * body is the bytes `body()` read, if it was called.
   */
  toFetchRequest(fetchAPI: FetchClasses): Promise<Request>;
}

/**
 * The Request and Headers classes a Request is built with: Yoga's own (@whatwg-node/node-fetch),
 * which build one far faster than Node's (undici) does with a body (bench/README.md).
 */
export interface FetchClasses {
  Request: typeof Request;
  Headers: typeof Headers;
}

/**
 * An answer to send: status, headers (lower-case names) and the body, whole or as a stream
 * (GraphQL's multipart/mixed and text/event-stream answers, sent chunked as they are produced).
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | AsyncIterable<Uint8Array> | null;
}

/** A body produced over time: a web or a node stream (both are async iterables of chunks). */
export const isStream = (body: Answer['body']): body is AsyncIterable<Uint8Array> => body !== null && typeof body === 'object' && Symbol.asyncIterator in body;

export const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...lowerCased(headers) },
  body: JSON.stringify(body),
});

/** Header names in lower case, as every Answer keeps them. */
export function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name.toLowerCase()] = headers[name]!;
  return out;
}

export const bodyBytes = (body: string | Uint8Array | null): Uint8Array => (body === null ? new Uint8Array() : typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

/** A body's size in bytes on the wire (UTF-8 for text), without encoding it. */
export const byteLengthOf = (body: string | Uint8Array): number => (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

const tooLarge = (limitBytes: number) => new AppError('payloadTooLarge', { data: { limitBytes } });

/** Splits a request target (`/v1/tags?name=x`) into its path and query. */
function splitTarget(target: string): { path: string; search: string } {
  const q = target.indexOf('?');
  return q < 0 ? { path: target, search: '' } : { path: target.slice(0, q), search: target.slice(q + 1) };
}

/** A node:http request. */
export function fromNode(req: IncomingMessage): Incoming {
  const { path, search } = splitTarget(req.url ?? '/');
  let read: Promise<Uint8Array | undefined> | undefined;
  const header = (name: string): string | null => {
    const value = req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    method: req.method ?? 'GET',
    path,
    search,
    header,
    remoteAddress: req.socket?.remoteAddress,
    body(limitBytes) {
      return (read ??= readNodeBody(req, header('content-length'), limitBytes));
    },
    stream: (limitBytes) => limited(req as AsyncIterable<Uint8Array>, limitBytes, () => req.resume(), () => req.destroyed),
    async toFetchRequest({ Request, Headers }) {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const url = `http://${header('host') ?? 'localhost'}${req.url ?? '/'}`;
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      // A node stream is read once: Yoga gets the bytes the platform read, or the stream itself.
      const body = !hasBody ? null : read ? ((await read) ?? null) : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
      return new Request(url, { method: req.method, headers, body, duplex: 'half' } as RequestInit);
    },
  };
}

/**
 * The client closed its connection before its request was read whole (an aborted upload, a
 * cancelled fetch): nobody is left to answer, and nothing went wrong here.
 */
export class ClientClosedError extends Error {
  constructor() {
    super('The client closed the connection before its request was read');
    this.name = 'ClientClosedError';
  }
}

async function readNodeBody(req: IncomingMessage, declared: string | null, limitBytes: number): Promise<Uint8Array | undefined> {
  if (declared !== null && Number(declared) > limitBytes) throw tooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > limitBytes) {
        req.resume();
        throw tooLarge(limitBytes);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (!(err instanceof AppError) && (req.destroyed || (err as NodeJS.ErrnoException).code === 'ECONNRESET')) throw new ClientClosedError();
    throw err;
  }
  return size === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}

/** A body's chunks, cut at `limitBytes` (413); `drop` discards the rest of a body refused midway. */
async function* limited(source: AsyncIterable<Uint8Array>, limitBytes: number, drop: () => void, closed: () => boolean): AsyncGenerator<Uint8Array> {
  let size = 0;
  try {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > limitBytes) {
        drop();
        throw tooLarge(limitBytes);
      }
      yield chunk;
    }
  } catch (err) {
    if (!(err instanceof AppError) && (closed() || (err as NodeJS.ErrnoException).code === 'ECONNRESET')) throw new ClientClosedError();
    throw err;
  }
}

/** A WHATWG Request (in-process callers). */
export function fromFetch(request: Request): Incoming {
  const url = new URL(request.url);
  let read: Promise<Uint8Array | undefined> | undefined;
  return {
    method: request.method,
    path: url.pathname,
    search: url.search.slice(1),
    header: (name) => request.headers.get(name),
    remoteAddress: undefined,
    body(limitBytes) {
      return (read ??= readFetchBody(request, limitBytes));
    },
    stream: (limitBytes) => limited((request.body ?? emptyBody()) as unknown as AsyncIterable<Uint8Array>, limitBytes, () => void request.body?.cancel().catch(() => {}), () => false),
    async toFetchRequest({ Request }) {
      if (!read) return request;
      return new Request(request.url, { method: request.method, headers: request.headers, body: ((await read) ?? null) as BodyInit | null });
    },
  };
}

async function readFetchBody(request: Request, limitBytes: number): Promise<Uint8Array | undefined> {
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

/**
 * Writes an answer on a node:http response (a HEAD answer's body is left out by node itself). A
 * streamed body goes out chunked, as it comes; a client that leaves cancels the stream, which
 * ends what produces it.
 */
export function writeNode(res: ServerResponse, answer: Answer): void {
  const body = answer.body === null ? undefined : answer.body;
  const headers: Record<string, string | number> = answer.headers;
  if (body !== undefined && isStream(body)) {
    res.writeHead(answer.status, headers);
    pipeline(body, res).catch(() => {
      // The client went away mid-stream: nothing is left to tell it.
    });
    return;
  }
  if (body !== undefined && headers['content-length'] === undefined) headers['content-length'] = byteLengthOf(body);
  res.writeHead(answer.status, headers);
  res.end(body);
}

/** An answer as a WHATWG Response (in-process callers); a HEAD request's goes without its body, as node sends it. */
export function toResponse(answer: Answer, head = false): Response {
  const nullBody = head || answer.status === 204 || answer.status === 304 || answer.body === null;
  const body = nullBody ? null : isStream(answer.body) ? (Readable.toWeb(Readable.from(answer.body)) as ReadableStream<Uint8Array>) : (answer.body as BodyInit);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/** Answers produced over time (incremental delivery, subscriptions): streamed, never buffered. */
const streamedTypes = /^\s*(multipart\/mixed|text\/event-stream)\b/i;
const hopByHop = ['content-length', 'transfer-encoding', 'connection', 'keep-alive'];

/** A WHATWG Response (Yoga's, a document's) as an answer. */
export async function fromResponse(response: Response): Promise<Answer> {
  // Lower-cased, as every Answer keeps them: Yoga's Headers hand back the case they were set in
  // ('Content-Type'), which the checks below and the platform's header rules would not find.
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  // Yoga's JSON results: its Response (@whatwg-node/node-fetch) hands back the string it was made
  // from. Read as bytes, or even asked for `response.body` (the getter builds a stream), it encodes
  // the whole result into a new Buffer first, work for nothing: a JSON answer is read as text
  // straight away, an empty one being no body.
  const type = headers['content-type'] ?? '';
  if (/json/i.test(type) && !streamedTypes.test(type)) {
    const text = await response.text();
    return { status: response.status, headers, body: text === '' ? null : text };
  }
  if (streamedTypes.test(type) && response.body) {
    // Yoga's framing headers describe its own transport; the server that writes the answer frames it.
    for (const name of hopByHop) delete headers[name];
    return { status: response.status, headers, body: response.body as unknown as AsyncIterable<Uint8Array> };
  }
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : null;
  return { status: response.status, headers, body };
}
