import { sql } from 'kysely';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors/catalogue.js';
import { errorResponse, jsonResponse } from '../http/responses.js';
import { registry } from '../observability/metrics.js';
import type { PublicRoutes } from '../http/platform.plugin.js';
import { buildOpenApiDocument } from './openapi.js';
import { docsPage } from './docs-page.js';
import type { Router } from './router.js';

/** Routes that need no token: probes, metrics and the API's own documentation. */
export function systemRoutes(deps: AppDeps, router: Router): PublicRoutes {
  let openapi: string | undefined;
  return {
    '/healthz': () => jsonResponse(200, { status: 'ok' }),
    '/readyz': async () => {
      try {
        await sql`select 1`.execute(deps.database.db);
        return jsonResponse(200, { status: 'ok', database: deps.database.engine });
      } catch (err) {
        deps.logger.warn({ err }, 'readiness check failed');
        return errorResponse(new AppError('serviceUnavailable', { message: 'The database is not reachable' }));
      }
    },
    '/metrics': async () => new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } }),
    '/v1/openapi.json': () => {
      openapi ??= JSON.stringify(buildOpenApiDocument(router.routes));
      return new Response(openapi, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    },
    '/docs': () => new Response(docsPage('/v1/openapi.json'), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  };
}
