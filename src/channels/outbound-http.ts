import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isAllowedHost, isPublicAddress } from '../domain/shared/public-url.js';

/** What one POST gave. `ok` is true only for a 2xx answer read without error; a failure never throws, it is a result. */
export interface OutboundResult {
  ok: boolean;
  /** The answer's status; null when there was no answer (refused address, connection error, timeout before the headers). */
  status: number | null;
  /** The answer's headers, names lower-cased (repeated headers joined with `, `); `{}` without an answer. */
  headers: Record<string, string>;
  /** The answer body's first `excerptBytes` bytes as UTF-8 (cut before a character the limit would break); null without an answer. */
  excerpt: string | null;
  /** Why the exchange failed (`connect timeout`, `timeout`, a refused address, a socket error); null when it did not. */
  error: string | null;
  /** From the call to the result, in whole milliseconds. */
  durationMs: number;
}

export interface OutboundRequest {
  /** Sent as is (UTF-8). */
  body: string;
  /** Sent as given; `content-type: application/json` and `content-length` are added when absent. */
  headers: Record<string, string>;
}

export interface OutboundOptions {
  /** The socket must be connected (host name resolved, TCP connected) this long after the call. */
  connectTimeoutMs: number;
  /** The whole exchange (resolution, connection, request, answer's headers and excerpt) within this long. */
  totalTimeoutMs: number;
  /** `host:port` values (exactly `url.host`) whose addresses are not checked: local receivers of tests and development. */
  allowedHosts: readonly string[];
  /** How many bytes of the answer body are kept; the rest is not read. */
  excerptBytes: number;
}

/** Errors this module raises itself carry their message as the result's error, without a prefix. */
class OutboundError extends Error {}

/** A URL that passed the guard's first look, and how to connect to it. */
export interface OutboundTarget {
  url: URL;
  protocol: 'http:' | 'https:';
  /** What the socket connects to: the host name, or the IP literal without its brackets. */
  host: string;
  /** Whether the addresses are judged: false for a host in `allowedHosts`. */
  check: boolean;
}

/**
 * Judges what can be judged before any I/O: an absolute http(s) URL without a user name or
 * password, and an IP literal host (connected to without a lookup, so never seen by
 * `checkedLookup`) public unless the host is allowed.
 */
export function outboundTarget(url: string, allowedHosts: readonly string[]): { ok: true; target: OutboundTarget } | { ok: false; error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: 'url is not an absolute URL' };
  }
  const protocol = parsed.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return { ok: false, error: 'url must be http or https' };
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, error: 'url must not carry a user name or password' };
  const check = !isAllowedHost(parsed, allowedHosts);
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  if (check && /^[\d.]+$|:/.test(host) && !isPublicAddress(host)) return { ok: false, error: `host ${parsed.hostname} is not a public address` };
  return { ok: true, target: { url: parsed, protocol, host, check } };
}

const headersOf = (res: IncomingMessage): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
};

/** The first `limit` bytes of `buf` as UTF-8, cut before the character the limit would split. */
function utf8Excerpt(buf: Buffer, limit: number): string {
  if (buf.length <= limit) return buf.toString('utf8');
  let end = limit;
  // buf[end] is the first byte left out: while it continues a character, that character started
  // before the limit and is left out whole.
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.toString('utf8', 0, end);
}

/**
 * A `lookup` for the request's socket: resolves the host name once (every address, `all: true`),
 * refuses the whole name when any address is not public (unless the host is allowed), and hands the
 * socket the very addresses it checked, so a DNS answer that changes between the check and the
 * connect cannot reach a private address.
 */
export function checkedLookup(check: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { family: options.family ?? 0, hints: options.hints, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (addresses.length === 0) return callback(new OutboundError(`host ${hostname} resolves to no address`), '', 0);
      if (check) {
        const refused = addresses.find((a) => !isPublicAddress(a.address));
        if (refused) return callback(new OutboundError(`host ${hostname} resolves to ${refused.address}, which is not a public address`), '', 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export const errorText = (err: unknown): string => {
  if (err instanceof OutboundError) return err.message;
  if (err instanceof Error) return err.message || (err as NodeJS.ErrnoException).code || err.name;
  return String(err);
};

const hasHeader = (headers: Record<string, string>, name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);

/**
 * Keep-alive agents, one per scheme: a receiver getting many events (or a picture host serving
 * many avatars) gets them over a few open connections instead of a new TCP (and TLS) handshake
 * each. Every new socket still goes through the request's checked lookup, and a pooled one is
 * judged again by `whenConnected`, since the pool is shared by callers. Idle sockets close after
 * 4 s, before a Node receiver's 5 s keep-alive timeout does.
 */
export const agents = {
  'http:': new HttpAgent({ keepAlive: true, keepAliveMsecs: 1000, maxFreeSockets: 16, timeout: 4_000, scheduling: 'lifo' }),
  'https:': new HttpsAgent({ keepAlive: true, keepAliveMsecs: 1000, maxFreeSockets: 16, timeout: 4_000, scheduling: 'lifo' }),
};

/**
 * Calls `connected` once the request's socket is connected (at once for a pooled one), with a
 * refusal when `check` is on and the socket's remote address is not public. The lookup handed over
 * checked addresses only; this is a second look at where the socket went.
 */
export function whenConnected(req: ClientRequest, check: boolean, connected: (refusal: string | null) => void): void {
  req.on('socket', (socket: Socket) => {
    const judge = () => {
      const remote = socket.remoteAddress;
      connected(check && remote !== undefined && !isPublicAddress(remote) ? `connected to ${remote}, which is not a public address` : null);
    };
    if (socket.connecting) socket.once('connect', judge);
    else if (!socket.destroyed) judge();
  });
}

/**
 * POSTs `request.body` to `url` (http or https, node:http / node:https, over a kept-alive
 * connection when one is free) and never throws: every failure is a result.
 * - Unless `url.host` is in `allowedHosts`, an IP literal host must be public (`isPublicAddress`),
 *   and a host name is resolved once and every address it resolves to must be public; the socket
 *   connects to a checked address. A refused address is a failure and no connection is attempted.
 *   TLS still verifies the certificate for the host name.
 * - Redirects are not followed: a 3xx is a result with its status and `ok: false`.
 * - `connect timeout` when the socket is not connected within `connectTimeoutMs`; `timeout` when
 *   the exchange has not ended within `totalTimeoutMs` (status, headers and the excerpt so far are
 *   kept when the answer had begun).
 * - The answer body's first `excerptBytes` bytes are kept; an answer longer than that is cut off
 *   (its connection closed), a shorter one read to its end (its connection kept for the next).
 */
export function postJson(url: string, request: OutboundRequest, options: OutboundOptions): Promise<OutboundResult> {
  const started = performance.now();
  return new Promise<OutboundResult>((resolve) => {
    let done = false;
    let req: ClientRequest | undefined;
    let res: IncomingMessage | undefined;
    let connectTimer: NodeJS.Timeout | undefined;
    let totalTimer: NodeJS.Timeout | undefined;
    const chunks: Buffer[] = [];
    let received = 0;

    /** The answer was read to its end: its socket may serve the next request. */
    let complete = false;
    const finish = (error: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      const status = res?.statusCode ?? null;
      const result: OutboundResult = {
        ok: error === null && status !== null && status >= 200 && status < 300,
        status,
        headers: res ? headersOf(res) : {},
        excerpt: res ? utf8Excerpt(Buffer.concat(chunks), Math.max(0, options.excerptBytes)) : null,
        error,
        durationMs: Math.round(performance.now() - started),
      };
      if (!complete || error !== null) {
        res?.destroy();
        req?.destroy();
      }
      resolve(result);
    };

    try {
      const judged = outboundTarget(url, options.allowedHosts);
      if (!judged.ok) return finish(judged.error);
      const { url: target, protocol, host, check } = judged.target;

      const headers: Record<string, string> = { ...request.headers };
      if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
      if (!hasHeader(headers, 'content-length')) headers['content-length'] = String(Buffer.byteLength(request.body));

      const requestOptions: RequestOptions = {
        method: 'POST',
        host,
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        headers,
        lookup: checkedLookup(check),
      };

      totalTimer = setTimeout(() => finish('timeout'), options.totalTimeoutMs);
      connectTimer = setTimeout(() => finish('connect timeout'), options.connectTimeoutMs);

      const send = (agent: RequestOptions['agent']) => {
        const sent = (protocol === 'https:' ? httpsRequest : httpRequest)({ ...requestOptions, agent }, (answer) => {
          res = answer;
          const limit = Math.max(0, options.excerptBytes);
          answer.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            received += chunk.length;
            // One byte past the limit tells whether the limit splits a character; the rest is not
            // read (the connection closes instead of serving another request).
            if (received > limit) finish(null);
          });
          answer.on('end', () => {
            complete = true;
            finish(null);
          });
          answer.on('aborted', () => finish('the answer ended early'));
          answer.on('error', (err) => finish(`the answer ended early: ${errorText(err)}`));
        });
        req = sent;
        whenConnected(sent, check, (refusal) => {
          clearTimeout(connectTimer);
          if (refusal !== null) finish(refusal);
        });
        sent.on('error', (err) => {
          // A kept connection the receiver closed while it sat in the pool (its keep-alive timeout
          // racing this request) fails before any answer: the POST goes out once more on a new one.
          if (sent.reusedSocket && res === undefined && !done && agent !== false) return send(false);
          finish(errorText(err));
        });
        sent.end(request.body);
      };
      send(agents[protocol]);
    } catch (err) {
      finish(errorText(err));
    }
  });
}
