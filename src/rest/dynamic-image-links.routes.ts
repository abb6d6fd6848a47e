import { z } from 'zod';
import { LINK_PATH, RENDER_PATH_PREFIX, renderPath } from '../domain/dynamic-images/dynamic-image-links.js';
import { readRender, rendered, renderLink } from '../domain/dynamic-images/dynamic-image-render.service.js';
import { digitId } from '../domain/shared/schemas.js';
import { notFound } from '../errors/catalogue.js';
import { parseOrThrow } from '../errors/validation.js';
import type { AppDeps } from '../http/app-deps.js';
import type { Answer, Incoming } from '../http/exchange.js';
import type { PublicRoutes } from './system.routes.js';

/** Other parameters (a messenger's tracking ones) are ignored: the link must keep working wherever it is pasted. */
const linkQuery = z.object({
  dynamicImageId: digitId.meta({ description: 'The image' }),
  t: z.string().max(200, 't must be at most 200 characters').optional().meta({ description: "A contact's signed token; without it, only what every contact sees" }),
});

/** A render's bytes never change under its address: caches may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The public side of dynamic images, without a token (the per-IP budget applies):
 * - `GET /dynamic-images?dynamicImageId=<id>&t=<token>` (the link a message carries) answers 302 to
 *   the render's content address, drawn first when no render with the contact's values is stored;
 *   a render drawn with a fallback picture (a picture failed) is not stored and is answered as is.
 *   The redirect itself is not cached: the contact's values may change, and with them the address.
 * - `GET /dynamic-images/r/<sha256>.png` answers the stored PNG, with a strong ETag (its hash) and
 *   immutable caching; `If-None-Match` gets a 304 (platform.ts).
 */
export function dynamicImageLinkRoutes(deps: AppDeps): PublicRoutes {
  const db = deps.database.db;
  return {
    [LINK_PATH]: async (request: Incoming): Promise<Answer> => {
      const query = parseOrThrow(linkQuery, Object.fromEntries(new URLSearchParams(request.search)), ['query']);
      const rendered = await renderLink(db, deps.images, query);
      if (!rendered.stored) return { status: 200, headers: { 'content-type': 'image/png', 'cache-control': 'no-store' }, body: rendered.png };
      return { status: 302, headers: { location: renderPath(rendered.hash), 'cache-control': 'no-cache' }, body: null };
    },
    [`${RENDER_PATH_PREFIX}*`]: async (request: Incoming): Promise<Answer> => {
      const m = /^\/dynamic-images\/r\/([0-9a-f]{64})\.png$/.exec(request.path);
      if (!m) throw notFound('Rendered image');
      const hash = m[1]!;
      const headers = { 'cache-control': IMMUTABLE, etag: `"${hash}"` };
      // A cache that holds these bytes already: the index says whether they are still served,
      // without reading them.
      if ((request.header('if-none-match') ?? '').includes(`"${hash}"`) && (await rendered(db, deps.images, hash))) return { status: 304, headers, body: null };
      const png = await readRender(db, deps.images, hash);
      return { status: 200, headers: { 'content-type': 'image/png', ...headers }, body: png };
    },
  };
}
