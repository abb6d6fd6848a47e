import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postJson, type OutboundResult } from '../src/channels/outbound-http.js';

/** What a receiver saw of one request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A local node:http server started by the test: it counts TCP connections, records every request
 * and answers with `handler` (a 200 `{}` when none is given).
 */
class Receiver {
  readonly seen: Seen[] = [];
  connections = 0;
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        this.handler(req, res, body);
      });
    });
    this.server.on('connection', () => this.connections++);
  }

  async start(host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `host:port` as `url.host` spells it. */
  get hostPort(): string {
    return `127.0.0.1:${this.port}`;
  }

  reset(): void {
    this.seen.length = 0;
    this.connections = 0;
    this.handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const body = JSON.stringify({ type: 'message.created', data: { id: '42', text: 'héllo ✓' } });
const sent = { body, headers: { 'Content-Type': 'application/json', 'Webhook-Id': 'msg_2Kx', 'Webhook-Timestamp': '1764240000', 'Webhook-Signature': 'v1,abc=', 'User-Agent': 'messaging-api-webhooks/1' } };
/** Generous limits: only the timeout tests shorten them. */
const options = (allowedHosts: string[], more: Partial<Parameters<typeof postJson>[2]> = {}) => ({
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 10_000,
  allowedHosts,
  excerptBytes: 1024,
  ...more,
});

const receiver = new Receiver();
const other = new Receiver();

beforeAll(async () => {
  await receiver.start();
  await other.start();
});
afterEach(() => {
  receiver.reset();
  other.reset();
});
afterAll(async () => {
  await receiver.stop();
  await other.stop();
});

describe('postJson', () => {
  it('delivers the body and headers exactly as sent, and gives a 2xx answer with its headers lower-cased', async () => {
    receiver.handler = (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Request-Id': 'r-1', 'Retry-After': '30' }).end('accepted');
    const result = await postJson(`http://${receiver.hostPort}/hooks/in?source=test`, sent, options([receiver.hostPort]));
    expect(result).toMatchObject({ ok: true, status: 200, excerpt: 'accepted', error: null });
    expect(result.headers).toMatchObject({ 'content-type': 'text/plain', 'x-request-id': 'r-1', 'retry-after': '30' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(receiver.seen).toHaveLength(1);
    const seen = receiver.seen[0];
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/hooks/in?source=test');
    expect(seen.body).toBe(body);
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'msg_2Kx',
      'webhook-timestamp': '1764240000',
      'webhook-signature': 'v1,abc=',
      'user-agent': 'messaging-api-webhooks/1',
      'content-length': String(Buffer.byteLength(body)),
      host: receiver.hostPort,
    });
    expect(seen.headers['transfer-encoding']).toBeUndefined();
  });

  it('adds content-type application/json when the caller gives none; 204 is ok with an empty excerpt', async () => {
    receiver.handler = (_req, res) => res.writeHead(204).end();
    const result = await postJson(`http://${receiver.hostPort}/`, { body: '{}', headers: {} }, options([receiver.hostPort]));
    expect(result).toMatchObject({ ok: true, status: 204, excerpt: '', error: null });
    expect(receiver.seen[0].headers['content-type']).toBe('application/json');
  });

  it('keeps the connection for the next POST to the same receiver; an answer cut off at the excerpt closes it', async () => {
    // A receiver of its own: no connection of another test is in the pool for it.
    const own = await new Receiver().start();
    try {
      own.handler = (_req, res) => res.writeHead(204).end();
      for (let i = 0; i < 5; i++) expect(await postJson(`http://${own.hostPort}/keep`, sent, options([own.hostPort]))).toMatchObject({ ok: true, status: 204 });
      expect(own.connections).toBe(1);
      own.handler = (_req, res) => res.writeHead(200).end('x'.repeat(5000));
      for (let i = 0; i < 2; i++) expect(await postJson(`http://${own.hostPort}/long`, sent, options([own.hostPort], { excerptBytes: 100 }))).toMatchObject({ ok: true, excerpt: 'x'.repeat(100) });
      // The first long answer is cut off on the kept connection (closed), the second on a new one.
      expect(own.connections).toBe(2);
      expect(own.seen).toHaveLength(7);
    } finally {
      await own.stop();
    }
  });

  it('a kept connection the receiver has closed meanwhile costs nothing: the POST goes out on a new one', async () => {
    const own = await new Receiver().start();
    try {
      own.handler = (_req, res) => res.writeHead(204).end();
      expect(await postJson(`http://${own.hostPort}/a`, sent, options([own.hostPort]))).toMatchObject({ ok: true });
      // The receiver drops its idle connections without telling (as a keep-alive timeout does,
      // racing the next request): the pooled socket is dead when it is reused.
      own.server.closeAllConnections();
      expect(await postJson(`http://${own.hostPort}/b`, sent, options([own.hostPort]))).toMatchObject({ ok: true, status: 204, error: null });
      expect(own.seen.map((r) => r.url)).toEqual(['/a', '/b']);
    } finally {
      await own.stop();
    }
  });

  it('refuses 127.0.0.1 in any spelling when it is not allowed, without connecting', async () => {
    for (const host of [`127.0.0.1:${receiver.port}`, `127.1:${receiver.port}`, `2130706433:${receiver.port}`, `[::ffff:127.0.0.1]:${receiver.port}`]) {
      const result = await postJson(`http://${host}/`, sent, options([]));
      expect(result, host).toMatchObject({ ok: false, status: null, headers: {}, excerpt: null });
      expect(result.error, host).toMatch(/^host \S+ is not a public address$/);
    }
    // An allowlist entry with another port does not allow this one.
    const result = await postJson(`http://${receiver.hostPort}/`, sent, options([`127.0.0.1:${receiver.port + 1}`]));
    expect(result.error).toBe('host 127.0.0.1 is not a public address');
    expect(receiver.connections).toBe(0);
    expect(receiver.seen).toHaveLength(0);
  });

  it('refuses a host name that resolves to a loopback address (localhost) unless it is allowed', async () => {
    // Listen where `localhost` resolves on this machine (127.0.0.1 or ::1), the first address that can be bound.
    let local: Receiver | undefined;
    for (const { address } of await lookup('localhost', { all: true })) {
      local = await new Receiver().start(address).catch(() => undefined);
      if (local) break;
    }
    if (!local) throw new Error('no address of localhost can be listened on');
    try {
      const url = `http://localhost:${local.port}/hook`;
      const refused = await postJson(url, sent, options([receiver.hostPort]));
      expect(refused).toMatchObject({ ok: false, status: null, excerpt: null });
      expect(refused.error).toMatch(/^host localhost resolves to \S+, which is not a public address$/);
      expect(local.connections).toBe(0);

      const allowed = await postJson(url, sent, options([`localhost:${local.port}`]));
      expect(allowed).toMatchObject({ ok: true, status: 200, error: null });
      expect(local.seen).toHaveLength(1);
      expect(local.seen[0].body).toBe(body);
      expect(local.seen[0].headers.host).toBe(`localhost:${local.port}`);
    } finally {
      await local.stop();
    }
  });

  it('does not follow a redirect: a 302 is a result with its status, and its target sees nothing', async () => {
    receiver.handler = (_req, res) => res.writeHead(302, { Location: `http://${other.hostPort}/stolen` }).end();
    const result = await postJson(`http://${receiver.hostPort}/`, sent, options([receiver.hostPort, other.hostPort]));
    expect(result).toMatchObject({ ok: false, status: 302, error: null });
    expect(result.headers.location).toBe(`http://${other.hostPort}/stolen`);
    expect(receiver.seen).toHaveLength(1);
    expect(other.connections).toBe(0);
  });

  it('gives a 500 and a 410 as results with their status and body excerpt', async () => {
    receiver.handler = (_req, res) => res.writeHead(500).end('boom');
    expect(await postJson(`http://${receiver.hostPort}/`, sent, options([receiver.hostPort]))).toMatchObject({ ok: false, status: 500, excerpt: 'boom', error: null });
    receiver.handler = (_req, res) => res.writeHead(410, { 'content-type': 'application/json' }).end('{"error":"gone"}');
    const gone = await postJson(`http://${receiver.hostPort}/`, sent, options([receiver.hostPort]));
    expect(gone).toMatchObject({ ok: false, status: 410, excerpt: '{"error":"gone"}', error: null });
    expect(gone.headers['content-type']).toBe('application/json');
  });

  it('ends with `timeout` when the receiver never answers', async () => {
    receiver.handler = () => {};
    const result = await postJson(`http://${receiver.hostPort}/`, sent, options([receiver.hostPort], { totalTimeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, status: null, headers: {}, excerpt: null, error: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('ends with `timeout` when the answer body stalls, keeping the status and what came', async () => {
    receiver.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    };
    const result = await postJson(`http://${receiver.hostPort}/`, sent, options([receiver.hostPort], { totalTimeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, status: 200, excerpt: 'partial', error: 'timeout' });
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('keeps the first excerptBytes bytes of a 5 KB answer', async () => {
    const answer = 'abcdefghij'.repeat(512);
    receiver.handler = (_req, res) => res.writeHead(200).end(answer);
    const result = await postJson(`http://${receiver.hostPort}/`, sent, options([receiver.hostPort], { excerptBytes: 1024 }));
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(result.excerpt).toBe(answer.slice(0, 1024));
  });

  it('cuts the excerpt before a UTF-8 character the limit would split', async () => {
    // 'é' is 2 bytes, '✓' 3, '😀' 4: 1023 bytes hold 511 'é' (1022 bytes), 341 '✓', 255 '😀'.
    for (const [char, count] of [['é', 511], ['✓', 341], ['😀', 255]] as const) {
      receiver.handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(char.repeat(2000));
      const result = await postJson(`http://${receiver.hostPort}/`, sent, options([receiver.hostPort], { excerptBytes: 1023 }));
      expect(result.excerpt, char).toBe(char.repeat(count));
    }
  });

  it('reads no further than the excerpt: an endless answer still gives a result at once', async () => {
    let timer: NodeJS.Timeout | undefined;
    receiver.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const write = () => {
        if (res.destroyed) return;
        res.write('x'.repeat(1024));
        timer = setTimeout(write, 5);
      };
      write();
    };
    try {
      const result = await postJson(`http://${receiver.hostPort}/`, sent, options([receiver.hostPort], { excerptBytes: 2048, totalTimeoutMs: 10_000 }));
      expect(result).toMatchObject({ ok: true, status: 200, error: null });
      expect(result.excerpt).toBe('x'.repeat(2048));
      expect(result.durationMs).toBeLessThan(5_000);
    } finally {
      clearTimeout(timer);
    }
  });

  it('gives a refused connection as a result', async () => {
    const closed = await new Receiver().start();
    const port = closed.port;
    await closed.stop();
    const result = await postJson(`http://127.0.0.1:${port}/`, sent, options([`127.0.0.1:${port}`]));
    expect(result).toMatchObject({ ok: false, status: null, excerpt: null });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('refuses other schemes, credentials in the URL and values that are not URLs, without throwing', async () => {
    expect(await postJson(`ftp://${receiver.hostPort}/`, sent, options([receiver.hostPort]))).toMatchObject({ ok: false, status: null, error: 'url must be http or https' });
    expect(await postJson(`http://u:p@${receiver.hostPort}/`, sent, options([receiver.hostPort]))).toMatchObject({ ok: false, error: 'url must not carry a user name or password' });
    expect(await postJson('not a url', sent, options([]))).toMatchObject({ ok: false, error: 'url is not an absolute URL' });
    // An invalid header value (node:http throws) is a result too.
    const bad = await postJson(`http://${receiver.hostPort}/`, { body: '{}', headers: { 'x-bad': 'a\nb' } }, options([receiver.hostPort]));
    expect(bad).toMatchObject({ ok: false, status: null });
    expect(bad.error).toMatch(/x-bad/i);
    expect(receiver.connections).toBe(0);
  });

  it('verifies the TLS certificate for the host name on the checked address', async () => {
    const tls = createTlsServer({ key: TEST_KEY, cert: TEST_CERT }, (_req, res) => res.writeHead(200).end('{}'));
    let requests = 0;
    tls.on('request', () => requests++);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const port = (tls.address() as AddressInfo).port;
    try {
      const result = await postJson(`https://localhost:${port}/`, sent, options([`localhost:${port}`]));
      expect(result).toMatchObject({ ok: false, status: null, excerpt: null });
      expect(result.error).toMatch(/certificate/i);
      expect(requests).toBe(0);
      const refused = await postJson(`https://localhost:${port}/`, sent, options([]));
      expect(refused.error).toMatch(/^host localhost resolves to/);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });
});

/**
 * A connect timeout needs a connection attempt that is never answered, deterministically and
 * without the network: a listener in a worker thread whose event loop is blocked (Atomics.wait)
 * never accepts, so once its accept queue (listen backlog 1) is full, the kernel drops further SYNs
 * and a connect stays pending (the first retransmission comes after a second). The queue is filled
 * with connections until one stays pending for 750 ms; a platform that refuses or accepts instead
 * (not Linux, not gVisor) skips the test rather than guess.
 */
describe('postJson connect timeout', () => {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker;
  let port = 0;
  const fillers: Socket[] = [];
  let stalls = false;

  const attempt = (ms: number) =>
    new Promise<'connected' | 'stalled' | 'failed'>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      fillers.push(socket);
      socket.on('error', () => {});
      const timer = setTimeout(() => {
        socket.destroy();
        resolve('stalled');
      }, ms);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve('connected');
      });
      socket.once('error', () => {
        clearTimeout(timer);
        resolve('failed');
      });
    });

  beforeAll(async () => {
    worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const server = require('node:net').createServer();
       server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
         parentPort.postMessage(server.address().port);
         while (Atomics.load(workerData, 0) === 0) Atomics.wait(workerData, 0, 0);
         server.close();
         process.exit(0);
       });`,
      { eval: true, workerData: flag },
    );
    port = await new Promise<number>((resolve) => worker.once('message', resolve));
    for (let i = 0; i < 16; i++) {
      const outcome = await attempt(750);
      if (outcome === 'stalled') {
        stalls = true;
        break;
      }
      if (outcome === 'failed') break;
    }
  });

  afterAll(async () => {
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    for (const socket of fillers) socket.destroy();
    await worker.terminate();
  });

  it('ends with `connect timeout` when the socket does not connect in time', async (ctx) => {
    if (!stalls) ctx.skip();
    const result: OutboundResult = await postJson(`http://127.0.0.1:${port}/`, sent, options([`127.0.0.1:${port}`], { connectTimeoutMs: 300, totalTimeoutMs: 10_000 }));
    expect(result).toMatchObject({ ok: false, status: null, headers: {}, excerpt: null, error: 'connect timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(result.durationMs).toBeLessThan(5_000);
  });
});

/** A self-signed certificate for `localhost` and 127.0.0.1 (P-256, valid to 2126): nothing trusts it. */
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg0/GQZJuFomohxAPP
RqWLcAtTLJ4fx7ajLii8lkWyzR+hRANCAAThiYT0lUjY/E2wk7ZA+RclaqvY9oki
Puga6KHKFlpi637Xfyzg//yIp+1QsMoJfmWTvhQ7mmQ+yMIEFqVij89w
-----END PRIVATE KEY-----
`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUdsW4xzFcZCbvTLo3nANrzkjA450wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNzEwNDA0N1oYDzIxMjYxMTAz
MTA0MDQ3WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAThiYT0lUjY/E2wk7ZA+RclaqvY9okiPuga6KHKFlpi637Xfyzg//yI
p+1QsMoJfmWTvhQ7mmQ+yMIEFqVij89wo28wbTAdBgNVHQ4EFgQUd0MX7VetjRSw
OGvuLsgOJ4/FzqcwHwYDVR0jBBgwFoAUd0MX7VetjRSwOGvuLsgOJ4/FzqcwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDRwAwRAIgeZYAPYIZP0XA7NvFkyeCr6Xk4ynK+tH2LWzI6sRDWPICIERe
MiAkACuV8KFZHD3bC2STdGGGc0Rb9/ENbpe1AuqJ
-----END CERTIFICATE-----
`;
