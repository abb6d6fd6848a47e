import { fetchPicture } from '../channels/picture-fetch.js';
import type { DynamicImageRenderer, RenderOutcome, RenderRequest } from '../domain/dynamic-images/dynamic-image-renderer.js';
import { AppError } from '../errors/catalogue.js';
import { createRenderPool, RenderPoolBusyError, type RenderPool } from './render-pool.js';
import type { RenderElement, RenderSpec } from './render-spec.js';

export interface ImageRendererOptions {
  threads: number;
  queue: number;
  recycleAfter: number;
  /** A whole render, its pictures fetched and drawn, within this. */
  renderTimeoutMs: number;
  picture: { timeoutMs: number; maxBytes: number; maxPixels: number; allowedHosts: readonly string[] };
}

export interface ImageRenderer extends DynamicImageRenderer {
  /** The drawing threads, started on the first render (a process that never renders starts none); null before. */
  pool(): RenderPool | null;
  close(): Promise<void>;
}

/**
 * The domain's renderer (dynamic-image-renderer.ts) on the drawing pool: the pictures a layout
 * names are fetched once each, at the same time, through the outbound guard (picture-fetch.ts),
 * then the layout goes to a drawing thread with their bytes. Each picture that cannot be fetched
 * or decoded is a failure for the error log; its element draws its next URL (the fallback) or
 * nothing. The pool being full is a 503 with Retry-After, before any picture is fetched; a render
 * past its time is abandoned with a 503 too (the client may try again; nothing half-drawn is kept).
 */
export function createImageRenderer(options: ImageRendererOptions): ImageRenderer {
  let started: RenderPool | null = null;
  const pool = () => (started ??= createRenderPool({ threads: options.threads, maxQueue: options.queue, recycleAfter: options.recycleAfter }));

  async function render(request: RenderRequest): Promise<RenderOutcome> {
    const stats = pool().stats();
    // Refused before the pictures are fetched: a full pool would refuse the drawing anyway. Every
    // render the pool accepted is queued or running, across a replacement of its threads too.
    if (stats.queued + stats.running >= options.threads + options.queue) throw busy(1);
    const signal = AbortSignal.timeout(options.renderTimeoutMs);
    const urls = new Set<string>();
    if (request.base && 'url' in request.base) urls.add(request.base.url);
    for (const e of request.elements) if (e.kind === 'picture') for (const url of e.urls) urls.add(url);
    const fetched = new Map(
      await Promise.all(
        [...urls].map(async (url) => [url, await fetchPicture(url, { ...options.picture, signal })] as const),
      ),
    );
    const failures: RenderOutcome['failures'] = [];
    const failed = new Set<string>();
    const bytesOf = (url: string): Uint8Array | null => {
      const got = fetched.get(url);
      if (got?.ok) return got.bytes;
      if (got && !failed.has(url)) {
        failed.add(url);
        failures.push({ url, error: got.error });
      }
      return null;
    };

    // The URLs behind each drawn picture, to name the one that did not decode.
    const sources: (string[] | null)[] = [];
    const elements: RenderElement[] = request.elements.map((e) => {
      if (e.kind !== 'picture') {
        sources.push(null);
        return e;
      }
      const usable = e.urls.filter((url) => bytesOf(url) !== null);
      sources.push(usable);
      return { kind: 'picture', x: e.x, y: e.y, width: e.width, height: e.height, style: e.style, pictures: usable.map((url) => bytesOf(url)!) };
    });
    const baseUrl = request.base && 'url' in request.base ? request.base.url : null;
    const base = request.base === null ? null : 'png' in request.base ? request.base.png : bytesOf(request.base.url);
    const spec: RenderSpec = { width: request.width, height: request.height, backgroundColor: request.backgroundColor, base, elements };

    let result;
    try {
      result = await pool().render(spec, signal);
    } catch (err) {
      if (err instanceof RenderPoolBusyError) throw busy(err.retryAfterSeconds);
      if (signal.aborted) throw new AppError('serviceUnavailable', { message: `The image took longer than ${options.renderTimeoutMs} ms to render`, headers: { 'Retry-After': '5' } });
      throw err;
    }
    for (const index of result.undecodable) {
      const url = index === -1 ? baseUrl : sources[index]?.[0];
      if (url && !failed.has(url)) {
        failed.add(url);
        failures.push({ url, error: `picture ${url} is not an image this service can decode` });
      }
    }
    return { png: result.png, failures };
  }

  return { pool: () => started, render, close: async () => started?.close() };
}

const busy = (retryAfterSeconds: number) =>
  new AppError('serviceUnavailable', { message: 'Every image renderer is busy; try again shortly', headers: { 'Retry-After': String(retryAfterSeconds) } });
