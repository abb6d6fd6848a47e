import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { waitFor } from './queue.js';

/**
 * A webhook receiver on 127.0.0.1 (port 0: a free port) for the outbound webhook tests, as a
 * customer's endpoint would be: it records every request (path, headers, raw body) and answers each
 * path as the test says (200 `{"ok":true}` unless told otherwise), or holds the request open
 * (`hang`) until the receiver closes. The app under test reaches it through
 * OUTBOUND_ALLOWED_HOSTS=`host` (the SSRF guard refuses loopback otherwise).
 */
export interface Received {
  path: string;
  method: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The raw body, as signed. */
  body: string;
  /** Date.now() when the request had been read. */
  at: number;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';
/** How a path answers (at once, or when its promise settles): `nth` counts that path's requests from 1. */
export type Responder = (request: Received, nth: number) => Answer | Promise<Answer>;

export interface Receiver {
  /** `127.0.0.1:<port>`: what OUTBOUND_ALLOWED_HOSTS must list. */
  host: string;
  port: number;
  /** `http://127.0.0.1:<port><path>` */
  url: (path: string) => string;
  /** Every request so far, oldest first. */
  received: Received[];
  /** The requests to one path, oldest first. */
  to: (path: string) => Received[];
  /** Sets how a path answers from now on. */
  answer: (path: string, responder: Responder) => void;
  /** Waits until the path has had at least `count` requests; answers them all. */
  waitFor: (path: string, count: number, timeoutMs?: number) => Promise<Received[]>;
  /** Requests held open by `hang`, not yet ended. */
  held: () => number;
  /** Ends every held request (their sockets are destroyed) and stops listening. */
  close: () => Promise<void>;
}

export const ok: Answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const responders = new Map<string, Responder>();
  const counts = new Map<string, number>();
  const held = new Set<ServerResponse>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      const request: Received = { path, method: req.method ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const respond = (answer: Answer) => {
        if (answer === 'hang') {
          held.add(res);
          res.on('close', () => held.delete(res));
          return;
        }
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      const answer = (responders.get(path) ?? (() => ok))(request, nth);
      if (answer instanceof Promise) void answer.then(respond);
      else respond(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const to = (path: string) => received.filter((r) => r.path === path);

  return {
    host: `127.0.0.1:${port}`,
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    to,
    answer: (path, responder) => void responders.set(path, responder),
    waitFor: (path, count, timeoutMs = 20_000) => waitFor(`${count} request(s) to ${path} (got ${to(path).length})`, async () => (to(path).length >= count ? to(path) : null), timeoutMs),
    held: () => held.size,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The body as the receiver's Standard Webhooks library verifies it with `secret` (throws when no signature matches). */
export const verified = (secret: string, r: Received): unknown => new Webhook(secret).verify(r.body, r.headers);

/** Whether `secret` verifies the request. */
export const verifies = (secret: string, r: Received): boolean => {
  try {
    verified(secret, r);
    return true;
  } catch {
    return false;
  }
};
