import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Engine } from '../db/database.js';
import { setPublicBaseUrl } from '../domain/dynamic-images/dynamic-image-links.js';
import { RenderStore } from '../domain/dynamic-images/dynamic-image-render-store.js';
import type { ImageServices } from '../domain/dynamic-images/dynamic-image-render.service.js';
import type { Logger } from '../observability/logger.js';
import { createImageRenderer, type ImageRenderer } from './image-renderer.js';

/**
 * Where renders are kept: PostgreSQL keeps them in the database (every process reads them); a
 * SQLite deployment in files beside its database file (IMAGE_STORE_DIR to choose), an in-memory
 * database in the temporary directory.
 */
export function renderStoreDir(config: Config, engine: Engine): string | null {
  if (engine === 'postgres') return null;
  if (config.IMAGE_STORE_DIR) return config.IMAGE_STORE_DIR;
  if (config.DATABASE_URL === ':memory:') return join(tmpdir(), `msgapi-renders-${process.pid}`);
  return join(dirname(config.DATABASE_URL), 'renders');
}

/** The process's dynamic-image machinery (server and `npm run worker`); close() ends its threads. */
export function createImageServices(config: Config, engine: Engine, logger: Logger): ImageServices & { renderer: ImageRenderer; close(): Promise<void> } {
  const baseUrl = config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`;
  setPublicBaseUrl(baseUrl);
  const renderer = createImageRenderer({
    threads: config.IMAGE_RENDER_THREADS,
    queue: config.IMAGE_RENDER_QUEUE,
    recycleAfter: config.IMAGE_RENDER_RECYCLE_AFTER,
    renderTimeoutMs: config.IMAGE_RENDER_TIMEOUT_MS,
    picture: {
      timeoutMs: config.IMAGE_PICTURE_TIMEOUT_MS,
      maxBytes: config.IMAGE_PICTURE_MAX_BYTES,
      maxPixels: config.IMAGE_PICTURE_MAX_PIXELS,
      allowedHosts: config.OUTBOUND_ALLOWED_HOSTS,
    },
  });
  return {
    renderer,
    store: new RenderStore({ dir: renderStoreDir(config, engine), maxBytes: config.IMAGE_STORE_MAX_BYTES }),
    links: { baseUrl, secret: config.DYNAMIC_IMAGE_LINK_SECRET, ttlSeconds: config.DYNAMIC_IMAGE_LINK_TTL_SECONDS },
    inflight: new Map(),
    logger: logger.child({ component: 'dynamic-images' }),
    close: () => renderer.close(),
  };
}
