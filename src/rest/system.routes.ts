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
  // Built once, on first request: the route table does not change while the process runs.
  let openapi: { json: string; html: string } | undefined;
  const documents = () => {
    if (!openapi) {
      const document = buildOpenApiDocument(router.routes);
      openapi = { json: JSON.stringify(document), html: docsPage(document, '/v1/openapi.json') };
    }
    return openapi;
  };
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
    '/v1/openapi.json': () => new Response(documents().json, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
    '/docs': () => new Response(documents().html, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  };
}
