import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchPicture, type PictureFetchOptions } from '../src/channels/picture-fetch.js';

/** What a picture server saw of one request, and when its connection closed. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  closed: Promise<void>;
}

/** A local node:http server: counts TCP connections, records requests, answers with `handler`. */
class PictureServer {
  readonly seen: Seen[] = [];
  connections = 0;
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(404).end();
  readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      const closed = req.socket.destroyed ? Promise.resolve() : new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
      this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, closed });
      this.handler(req, res);
    });
    this.server.on('connection', () => this.connections++);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get hostPort(): string {
    return `127.0.0.1:${this.port}`;
  }

  reset(): void {
    this.seen.length = 0;
    this.connections = 0;
    this.handler = (_req, res) => res.writeHead(404).end();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A 3x2 RGBA picture, each pixel different, encoded by pngjs. */
function smallPng(): Buffer {
  const png = new PNG({ width: 3, height: 2 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([i * 10, 255 - i * 10, 40, 255], i);
  return PNG.sync.write(png);
}

/** CRC-32 (ISO-HDLC, PNG's), bit by bit: node:zlib's crc32 needs Node 22. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's IHDR chunk (length, type, 13 bytes of data, CRC) declaring `width` x `height`, 8-bit RGBA. */
function ihdrChunk(width: number, height: number): Buffer {
  const typeAndData = Buffer.alloc(17);
  typeAndData.write('IHDR', 0, 'latin1');
  typeAndData.writeUInt32BE(width, 4);
  typeAndData.writeUInt32BE(height, 8);
  typeAndData.set([8, 6, 0, 0, 0], 12);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(13);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const mb = 1024 * 1024;
/** The caller's limits, with a generous timeout: only the timeout tests shorten it. */
const options = (allowedHosts: string[], more: Partial<PictureFetchOptions> = {}): PictureFetchOptions => ({
  allowedHosts,
  timeoutMs: 10_000,
  maxBytes: 5 * mb,
  maxPixels: 25_000_000,
  ...more,
});

const pictures = new PictureServer();
const other = new PictureServer();

beforeAll(async () => {
  await pictures.start();
  await other.start();
});
afterEach(() => {
  pictures.reset();
  other.reset();
});
afterAll(async () => {
  await pictures.stop();
  await other.stop();
});

describe('fetchPicture', () => {
  it('GETs a PNG with Accept image/* and gives its bytes, type and size', async () => {
    const png = smallPng();
    pictures.handler = (_req, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
    const url = `http://${pictures.hostPort}/avatars/a.png?v=2`;
    const result = await fetchPicture(url, options([pictures.hostPort]));
    expect(result).toEqual({ ok: true, bytes: png, contentType: 'image/png', width: 3, height: 2 });
    expect(pictures.seen).toHaveLength(1);
    expect(pictures.seen[0]).toMatchObject({ method: 'GET', url: '/avatars/a.png?v=2' });
    expect(pictures.seen[0].headers).toMatchObject({ accept: 'image/*', 'user-agent': expect.stringMatching(/^messaging-api-pictures\//) });
  });

  it('reads a chunked PNG whose header arrives in pieces', async () => {
    const png = smallPng();
    pictures.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(png.subarray(0, 5));
      setTimeout(() => {
        res.write(png.subarray(5, 20));
        setTimeout(() => res.end(png.subarray(20)), 10);
      }, 10);
    };
    const result = await fetchPicture(`http://${pictures.hostPort}/a.png`, options([pictures.hostPort]));
    expect(result).toEqual({ ok: true, bytes: png, contentType: 'image/png', width: 3, height: 2 });
  });

  it('reads the size of a JPEG whose frame header comes after 128 KB of metadata', async () => {
    // SOI, two full APP1 segments, then SOF0 (8-bit, 480 rows, 640 columns, 3 components) and EOI.
    const app1 = Buffer.alloc(2 + 0xffff, 0x20);
    app1.set([0xff, 0xe1, 0xff, 0xff]);
    const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), app1, app1, sof0, Buffer.from([0xff, 0xd9])]);
    pictures.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      for (let at = 0; at < jpeg.length; at += 1000) res.write(jpeg.subarray(at, at + 1000));
      res.end();
    };
    const result = await fetchPicture(`http://${pictures.hostPort}/photo.jpg`, options([pictures.hostPort]));
    expect(result).toEqual({ ok: true, bytes: jpeg, contentType: 'image/jpeg', width: 640, height: 480 });
  });

  it('follows up to 3 redirects (relative and absolute), and refuses a 4th', async () => {
    const png = smallPng();
    const hops = (req: IncomingMessage, res: ServerResponse) => {
      const left = Number(/^\/hops\/(\d+)$/.exec(req.url ?? '')?.[1]);
      if (left === 0) return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      // Odd hops go to the other server by absolute URL, even ones stay by relative path.
      const next = left % 2 === 1 ? `http://${other.hostPort}/hops/${left - 1}` : `/hops/${left - 1}`;
      res.writeHead(left === 2 ? 301 : 302, { location: next }).end();
    };
    pictures.handler = hops;
    other.handler = hops;
    const allowed = [pictures.hostPort, other.hostPort];

    const followed = await fetchPicture(`http://${pictures.hostPort}/hops/3`, options(allowed));
    expect(followed).toEqual({ ok: true, bytes: png, contentType: 'image/png', width: 3, height: 2 });
    expect([...pictures.seen, ...other.seen].map((s) => s.url).sort()).toEqual(['/hops/0', '/hops/1', '/hops/2', '/hops/3']);

    const tooMany = await fetchPicture(`http://${other.hostPort}/hops/4`, options(allowed));
    expect(tooMany).toEqual({ ok: false, error: `picture http://${other.hostPort}/hops/4 (redirected to http://${other.hostPort}/hops/1) redirected more than 3 times` });
  });

  it('refuses an answer other than 200', async () => {
    pictures.handler = (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const url = `http://${pictures.hostPort}/gone.png`;
    expect(await fetchPicture(url, options([pictures.hostPort]))).toEqual({ ok: false, error: `picture ${url} answered 404` });
  });

  it('refuses a Content-Type other than image/* without waiting for the body, and closes the connection', async () => {
    // Headers only: a fetch that read the body would wait until its timeout.
    pictures.handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).flushHeaders();
    const url = `http://${pictures.hostPort}/page`;
    expect(await fetchPicture(url, options([pictures.hostPort]))).toEqual({ ok: false, error: `picture ${url} is text/html, not an image` });
    await pictures.seen[0].closed;
  });

  it('refuses SVG, and a body that is no picture whatever its Content-Type says', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="http://169.254.169.254/"/></svg>';
    const url = `http://${pictures.hostPort}/p`;
    pictures.handler = (_req, res) => res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg);
    expect(await fetchPicture(url, options([pictures.hostPort]))).toEqual({ ok: false, error: `picture ${url} is image/svg+xml, which this service does not draw` });

    pictures.handler = (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(svg);
    expect(await fetchPicture(url, options([pictures.hostPort]))).toEqual({ ok: false, error: `picture ${url} is not a picture this service can read` });

    pictures.handler = (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([pngSignature, Buffer.from('IHDR')]));
    expect(await fetchPicture(url, options([pictures.hostPort]))).toEqual({ ok: false, error: `picture ${url} is not a picture this service can read` });
  });

  it('refuses a body whose size cannot be read from its first 256 KB, without waiting for the rest', async () => {
    // A JPEG start followed by bytes image-size cannot parse (it looks at the first 256 KB); the other 3 MB never come.
    pictures.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': 4 * mb });
      const garbage = Buffer.alloc(mb + 1);
      garbage.set([0xff, 0xd8]);
      res.write(garbage);
    };
    const url = `http://${pictures.hostPort}/garbage.jpg`;
    expect(await fetchPicture(url, options([pictures.hostPort]))).toEqual({ ok: false, error: `picture ${url} is not a picture this service can read` });
    await pictures.seen[0].closed;
  });

  it('refuses a declared Content-Length over the limit before any of the body is sent', async () => {
    pictures.handler = (_req, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': 6 * mb }).flushHeaders();
    const url = `http://${pictures.hostPort}/big.png`;
    expect(await fetchPicture(url, options([pictures.hostPort]))).toEqual({ ok: false, error: `picture ${url} is larger than 5 MB` });
    await pictures.seen[0].closed;
  });

  it('cuts off a chunked body as soon as it grows past the limit', async () => {
    let sent = 0;
    pictures.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.concat([pngSignature, ihdrChunk(10, 10)]));
      // An endless body: the server keeps writing while the client reads.
      const filler = Buffer.alloc(16 * 1024, 7);
      const pump = () => {
        while (!res.destroyed) {
          sent += filler.length;
          if (!res.write(filler)) return void res.once('drain', pump);
        }
      };
      pump();
    };
    const url = `http://${pictures.hostPort}/endless.png`;
    expect(await fetchPicture(url, options([pictures.hostPort], { maxBytes: 100_000 }))).toEqual({ ok: false, error: `picture ${url} is larger than 100000 bytes` });
    await pictures.seen[0].closed;
    expect(sent).toBeGreaterThan(100_000);
  });

  it('refuses a picture whose header declares more than 25 megapixels, without waiting for the rest', async () => {
    // The hand-written CRC agrees with pngjs's on a real IHDR, so the bomb's header is a valid one.
    const real = smallPng();
    expect(crc32(real.subarray(12, 29))).toBe(real.readUInt32BE(29));
    expect(ihdrChunk(3, 2)).toEqual(real.subarray(8, 33));

    pictures.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': 4 * mb });
      res.write(pngSignature);
      // The rest of the header follows in another write; the 4 MB body never does.
      setTimeout(() => res.write(ihdrChunk(6000, 5000)), 10);
    };
    const url = `http://${pictures.hostPort}/bomb.png`;
    expect(await fetchPicture(url, options([pictures.hostPort]))).toEqual({ ok: false, error: `picture ${url} is 6000x5000 (30 megapixels), more than 25` });
    await pictures.seen[0].closed;
  });

  it('ends a stalled body at the timeout and closes the connection', async () => {
    pictures.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(pngSignature);
    };
    const url = `http://${pictures.hostPort}/stalled.png`;
    const started = performance.now();
    const result = await fetchPicture(url, options([pictures.hostPort], { timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(result).toEqual({ ok: false, error: `picture ${url} failed: timed out after 300 ms` });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
    await pictures.seen[0].closed;
  });

  it('ends at the timeout when the server never answers', async () => {
    pictures.handler = () => {};
    const url = `http://${pictures.hostPort}/silent.png`;
    const started = performance.now();
    const result = await fetchPicture(url, options([pictures.hostPort], { timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(result).toEqual({ ok: false, error: `picture ${url} failed: timed out after 300 ms` });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
    await pictures.seen[0].closed;
  });

  it('ends when the signal aborts, and does not connect when it already has', async () => {
    const controller = new AbortController();
    pictures.handler = () => controller.abort(new Error('render budget spent'));
    const url = `http://${pictures.hostPort}/slow.png`;
    expect(await fetchPicture(url, options([pictures.hostPort], { signal: controller.signal }))).toEqual({ ok: false, error: `picture ${url} failed: cancelled (render budget spent)` });
    await pictures.seen[0].closed;

    expect(await fetchPicture(url, options([pictures.hostPort], { signal: controller.signal }))).toEqual({ ok: false, error: `picture ${url} failed: cancelled (render budget spent)` });
    expect(pictures.seen).toHaveLength(1);
  });

  it('refuses URLs that are not plain http(s)', async () => {
    const allowed = [pictures.hostPort];
    expect(await fetchPicture('avatar.png', options(allowed))).toEqual({ ok: false, error: 'picture avatar.png failed: url is not an absolute URL' });
    expect(await fetchPicture('file:///etc/passwd', options(allowed))).toEqual({ ok: false, error: 'picture file:///etc/passwd failed: url must be http or https' });
    const withUser = `http://user:pass@${pictures.hostPort}/a.png`;
    expect(await fetchPicture(withUser, options(allowed))).toEqual({ ok: false, error: `picture ${withUser} failed: url must not carry a user name or password` });
    expect(pictures.connections).toBe(0);
  });

  it('never connects to loopback, in any spelling, when the host is not allowed', async () => {
    const port = other.port;
    const refused = async (url: string) => {
      const result = await fetchPicture(url, options([]));
      expect(result.ok).toBe(false);
      return result.ok ? '' : result.error;
    };
    expect(await refused(`http://127.0.0.1:${port}/a.png`)).toBe(`picture http://127.0.0.1:${port}/a.png failed: host 127.0.0.1 is not a public address`);
    expect(await refused(`http://[::1]:${port}/`)).toBe(`picture http://[::1]:${port}/ failed: host [::1] is not a public address`);
    expect(await refused(`http://2130706433:${port}/`)).toBe(`picture http://2130706433:${port}/ failed: host 127.0.0.1 is not a public address`);
    expect(await refused(`http://localhost:${port}/`)).toMatch(
      new RegExp(`^picture http://localhost:${port}/ failed: host localhost resolves to (127\\.0\\.0\\.1|::1), which is not a public address$`),
    );
    expect(other.connections).toBe(0);
  });

  it('judges every redirect again: an allowed server redirecting to loopback does not get it fetched', async () => {
    const targets = [`http://127.0.0.1:${other.port}/b.png`, `http://localhost:${other.port}/b.png`];
    pictures.handler = (req, res) => res.writeHead(302, { location: targets[Number(req.url?.slice(1))] }).end();
    const first = await fetchPicture(`http://${pictures.hostPort}/0`, options([pictures.hostPort]));
    expect(first).toEqual({ ok: false, error: `picture http://${pictures.hostPort}/0 (redirected to ${targets[0]}) failed: host 127.0.0.1 is not a public address` });
    const second = await fetchPicture(`http://${pictures.hostPort}/1`, options([pictures.hostPort]));
    expect(second.ok ? '' : second.error).toMatch(/\(redirected to http:\/\/localhost:\d+\/b\.png\) failed: host localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
    expect(pictures.seen).toHaveLength(2);
    expect(other.connections).toBe(0);
  });
});
