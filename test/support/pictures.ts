import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';

export type Rgba = [number, number, number, number];

/** A PNG of one colour, made with pngjs (the pictures a local server plays the network with). */
export function solidPng(width: number, height: number, rgba: Rgba): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set(rgba, i * 4);
  return PNG.sync.write(png);
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether a pixel's colour is within `tolerance` of `rgba` on each of red, green and blue (alpha aside: edges are partly transparent). */
export const near = (p: Rgba, rgba: Rgba | [number, number, number], tolerance = 24): boolean =>
  Math.abs(p[0] - rgba[0]) <= tolerance && Math.abs(p[1] - rgba[1]) <= tolerance && Math.abs(p[2] - rgba[2]) <= tolerance;

/** A PNG decoded with pngjs, with the questions the tests ask of it. */
export class Decoded {
  readonly width: number;
  readonly height: number;
  private readonly data: Buffer;

  constructor(bytes: Uint8Array) {
    const png = PNG.sync.read(Buffer.from(bytes));
    this.width = png.width;
    this.height = png.height;
    this.data = png.data;
  }

  at(x: number, y: number): Rgba {
    const i = (this.width * y + x) * 4;
    return [this.data[i]!, this.data[i + 1]!, this.data[i + 2]!, this.data[i + 3]!];
  }

  /** The pixels with any opacity, in the box (the whole canvas by default), row by row. */
  inked(box: Box = { x: 0, y: 0, width: this.width, height: this.height }): { x: number; y: number }[] {
    const out: { x: number; y: number }[] = [];
    for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) if (this.at(x, y)[3] > 0) out.push({ x, y });
    return out;
  }

  /** The smallest box around every pixel with any opacity; null when there is none. */
  inkBounds(box?: Box): { left: number; top: number; right: number; bottom: number } | null {
    const ink = this.inked(box);
    if (ink.length === 0) return null;
    return {
      left: Math.min(...ink.map((p) => p.x)),
      top: Math.min(...ink.map((p) => p.y)),
      right: Math.max(...ink.map((p) => p.x)),
      bottom: Math.max(...ink.map((p) => p.y)),
    };
  }

  /** Runs of consecutive rows holding ink, top to bottom: the lines of a text. */
  inkedRowRuns(): { top: number; bottom: number }[] {
    const runs: { top: number; bottom: number }[] = [];
    for (let y = 0; y < this.height; y++) {
      let inked = false;
      for (let x = 0; x < this.width && !inked; x++) inked = this.at(x, y)[3] > 0;
      if (!inked) continue;
      const last = runs[runs.length - 1];
      if (last && last.bottom === y - 1) last.bottom = y;
      else runs.push({ top: y, bottom: y });
    }
    return runs;
  }

  /** Pixels of the box close to the colour (opaque at least in part). */
  count(box: Box, rgb: Rgba | [number, number, number], tolerance = 40): number {
    return this.inked(box).filter((p) => near(this.at(p.x, p.y), rgb, tolerance)).length;
  }

  /** The leftmost and rightmost columns of the box holding a pixel close to the colour; null when none. */
  inkColumns(box: Box, rgb: Rgba | [number, number, number], tolerance = 60): [number, number] | null {
    const xs = this.inked(box)
      .filter((p) => near(this.at(p.x, p.y), rgb, tolerance))
      .map((p) => p.x);
    return xs.length === 0 ? null : [Math.min(...xs), Math.max(...xs)];
  }
}

export interface PictureServer {
  origin: string;
  /** `host:port`, for OUTBOUND_ALLOWED_HOSTS. */
  host: string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  connections: number;
  close(): Promise<void>;
}

/**
 * A local HTTP server playing the pictures' hosts: each path answers its PNG; `/stall.png` sends
 * its headers and then nothing (a stalled host); anything else is 404.
 */
export async function pictureServer(pictures: Record<string, Buffer>): Promise<PictureServer> {
  const hits = new Map<string, number>();
  const stalled = new Set<ServerResponse>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/stall.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' });
      res.write(solidPng(1, 1, [0, 0, 0, 255]).subarray(0, 20));
      stalled.add(res);
      return;
    }
    const body = pictures[path];
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) }).end(body);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
