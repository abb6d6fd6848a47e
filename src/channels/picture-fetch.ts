import type { ClientRequest, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { imageSize } from 'image-size';
import { agents, checkedLookup, errorText, outboundTarget, whenConnected, type OutboundTarget } from './outbound-http.js';

/**
 * Fetches the remote pictures dynamic images draw (a layout URL, a contact's avatar, a URL in a
 * custom field). Those URLs come from users, so every hop passes the outbound SSRF guard and the
 * answer is bounded in time, bytes and pixels before anything decodes it.
 */

export interface PictureFetchOptions {
  /** host:port values let through the private-address guard (tests' local servers). */
  allowedHosts: readonly string[];
  /** The whole fetch (lookup, connect, headers, body, every redirect) within this. */
  timeoutMs: number;
  maxBytes: number;
  /** Refused when the image's own header declares more (width x height). */
  maxPixels: number;
  /** Aborts the fetch (the whole render's budget). */
  signal?: AbortSignal;
}

export type PictureFetchResult =
  | { ok: true; bytes: Buffer; contentType: string; width: number; height: number }
  /** `error` is a sentence for an error log, naming the picture's URL. */
  | { ok: false; error: string };

const maxRedirects = 3;
const unreadable = 'is not a picture this service can read';
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const headers = { accept: 'image/*', 'user-agent': 'messaging-api-pictures/1' };

/**
 * The size is looked for after every chunk while the body is this small (where every common format
 * keeps it), then each time the body has grown fourfold: a server trickling bytes cannot make each
 * chunk cost a copy and a parse of everything received so far.
 */
const lookEveryChunkUpTo = 4096;

/**
 * image-size is shown at most this much of the body. On input it cannot make sense of, its JPEG
 * reader steps one byte at a time, blocking the event loop for as long as the body is large; this
 * bound keeps what a hostile body costs small (bench/README.md). A real image's size sits in its
 * first few KB, after at most a few metadata segments of up to 64 KB each.
 */
const lookLimit = 256 * 1024;

/** A URL as error sentences show it: a redirect's Location can be any length. */
const shown = (url: string) => (url.length > 200 ? `${url.slice(0, 200)}…` : url);

const sizeText = (bytes: number): string => {
  if (bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MB`;
  if (bytes % 1_000_000 === 0) return `${bytes / 1_000_000} MB`;
  return `${bytes} bytes`;
};

const megapixels = (pixels: number) => String(Math.round(pixels / 100_000) / 10);

/** `image/png; charset=x` → `image/png`; '' without the header. */
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();

/**
 * Width and height from the image's own header, or null when they cannot be read (yet). `bytes`
 * must own its whole ArrayBuffer: image-size reads through a DataView over `bytes.buffer`, so a
 * slice of Node's shared pool would let a short body be read past its end into other memory
 * instead of failing. SVG counts as unreadable: its size is a declaration, not a bound on the work
 * of drawing it, and it can name further URLs the renderer would load past this guard.
 */
function readSize(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height, type } = imageSize(bytes);
    if (type === 'svg' || !Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width <= 0 || height <= 0) return null;
    return { width, height };
  } catch {
    return null;
  }
}

/** The chunks' first `length` bytes in one Buffer with an ArrayBuffer of its own (`Buffer.alloc` never uses the pool). */
function joined(chunks: readonly Buffer[], length: number): Buffer {
  const out = Buffer.alloc(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at >= length) break;
    at += chunk.copy(out, at);
  }
  return out;
}

/**
 * GETs a picture and never throws: every failure is a result, and every socket of a failed fetch
 * is destroyed.
 * - Each hop (the URL and up to 3 redirects) is judged by the outbound guard (`outboundTarget`,
 *   `checkedLookup` at connect time, `whenConnected` for a pooled socket) unless its host is allowed.
 * - Only a 200 whose Content-Type is `image/*` (not SVG) is read; a declared Content-Length over
 *   `maxBytes` is refused before the body, and a body growing past it is cut off at once.
 * - Width and height are read from the image's header as soon as enough bytes arrived, so a small
 *   file declaring a huge canvas is refused before it is downloaded, let alone decoded.
 */
export function fetchPicture(url: string, options: PictureFetchOptions): Promise<PictureFetchResult> {
  return new Promise<PictureFetchResult>((resolve) => {
    let settled = false;
    let req: ClientRequest | undefined;
    let res: IncomingMessage | undefined;
    let label = `picture ${shown(url)}`;

    const settle = (result: PictureFetchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    /** `predicate` completes the sentence begun by the picture's label. */
    const fail = (predicate: string) => {
      if (settled) return;
      // Settled first: destroying the answer emits its own `aborted` at once, which must not win.
      settle({ ok: false, error: `${label} ${predicate}` });
      res?.destroy();
      req?.destroy();
    };
    const onAbort = () => {
      const reason: unknown = options.signal?.reason;
      fail(`failed: cancelled${reason instanceof Error && reason.message ? ` (${reason.message})` : ''}`);
    };
    const timer = setTimeout(() => fail(`failed: timed out after ${options.timeoutMs} ms`), options.timeoutMs);
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const readBody = (answer: IncomingMessage, contentType: string) => {
      const chunks: Buffer[] = [];
      let received = 0;
      let nextLook = 0;
      let sized = false;
      const overPixels = (size: { width: number; height: number }) => {
        const pixels = size.width * size.height;
        if (pixels <= options.maxPixels) return false;
        fail(`is ${size.width}x${size.height} (${megapixels(pixels)} megapixels), more than ${megapixels(options.maxPixels)}`);
        return true;
      };
      answer.on('data', (chunk: Buffer) => {
        if (settled) return;
        received += chunk.length;
        if (received > options.maxBytes) return fail(`is larger than ${sizeText(options.maxBytes)}`);
        chunks.push(chunk);
        if (sized || received < nextLook) return;
        const size = readSize(joined(chunks, Math.min(received, lookLimit)));
        if (size !== null) {
          if (!overPixels(size)) sized = true;
        } else if (received >= lookLimit) {
          // More bytes would not be looked at: the rest is not worth downloading.
          fail(unreadable);
        } else nextLook = received < lookEveryChunkUpTo ? 0 : Math.min(received * 4, lookLimit);
      });
      answer.on('end', () => {
        if (settled) return;
        const bytes = joined(chunks, received);
        // Read again on all that is looked at: an early look on fewer bytes only had to be right about refusing.
        const size = readSize(received > lookLimit ? joined(chunks, lookLimit) : bytes);
        if (size === null) return fail(unreadable);
        if (overPixels(size)) return;
        settle({ ok: true, bytes, contentType, width: size.width, height: size.height });
      });
      answer.on('aborted', () => fail('failed: the answer ended early'));
      answer.on('error', (err) => fail(`failed: the answer ended early (${errorText(err)})`));
    };

    const onAnswer = (answer: IncomingMessage, target: OutboundTarget, redirectsLeft: number) => {
      const status = answer.statusCode ?? 0;
      if (redirectStatuses.has(status)) {
        const location = answer.headers.location;
        if (location === undefined || location === '') return fail(`answered ${status} without a Location`);
        if (redirectsLeft === 0) return fail(`redirected more than ${maxRedirects} times`);
        let next: string;
        try {
          next = new URL(location, target.url).href;
        } catch {
          return fail(`redirected to ${shown(location)}, which is not a URL`);
        }
        // The redirect's own body is of no use: its connection is closed rather than drained.
        answer.destroy();
        req?.destroy();
        res = undefined;
        label = `picture ${shown(url)} (redirected to ${shown(next)})`;
        return get(next, redirectsLeft - 1);
      }
      if (status !== 200) return fail(`answered ${status}`);
      const contentType = mediaType(answer.headers['content-type']);
      if (contentType === '') return fail('has no Content-Type, so is not known to be an image');
      if (contentType === 'image/svg+xml') return fail('is image/svg+xml, which this service does not draw');
      if (!contentType.startsWith('image/')) return fail(`is ${contentType}, not an image`);
      const declared = answer.headers['content-length'];
      if (declared !== undefined && Number(declared) > options.maxBytes) return fail(`is larger than ${sizeText(options.maxBytes)}`);
      readBody(answer, contentType);
    };

    const send = (target: OutboundTarget, redirectsLeft: number, pooled: boolean) => {
      const { url: at, protocol, host, check } = target;
      const sent = (protocol === 'https:' ? httpsRequest : httpRequest)(
        { method: 'GET', host, port: at.port || undefined, path: `${at.pathname}${at.search}`, headers, lookup: checkedLookup(check), agent: pooled ? agents[protocol] : false },
        (answer) => {
          if (settled || req !== sent) return void answer.destroy();
          res = answer;
          onAnswer(answer, target, redirectsLeft);
        },
      );
      req = sent;
      whenConnected(sent, check, (refusal) => {
        if (refusal !== null && req === sent) fail(`failed: ${refusal}`);
      });
      sent.on('error', (err) => {
        if (settled || req !== sent) return;
        // A pooled connection the server closed while it sat idle fails before any answer: the GET
        // goes out once more on a new one.
        if (sent.reusedSocket && res === undefined && pooled) return send(target, redirectsLeft, false);
        fail(`failed: ${errorText(err)}`);
      });
      sent.end();
    };

    const get = (hop: string, redirectsLeft: number) => {
      const judged = outboundTarget(hop, options.allowedHosts);
      if (!judged.ok) return fail(`failed: ${judged.error}`);
      send(judged.target, redirectsLeft, true);
    };

    try {
      get(url, maxRedirects);
    } catch (err) {
      fail(`failed: ${errorText(err)}`);
    }
  });
}
