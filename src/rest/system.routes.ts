import { sql } from 'kysely';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors/catalogue.js';
import { errorResponse, jsonResponse } from '../http/responses.js';
import { registry } from '../observability/metrics.js';
import type { PublicRoutes } from '../http/platform.plugin.js';
import { buildOpenApiDocument } from './openapi.js';
import { docsPage } from './docs-page.js';
import { htmlResponse, htmlPage, type HtmlPage } from '../http/html-pages.js';
import { indexDocument, indexPage, interactiveReferencePage, pagePaths, scalarBundleResponse } from './reference-pages.js';
import type { Router } from './router.js';

/**
 * Routes that need no token: probes, metrics, the index at / and the API's own documentation
 * (/docs interactive, /docs/static without scripts, each page with its Content-Security-Policy).
 */
export function systemRoutes(deps: AppDeps, router: Router): PublicRoutes {
  // Built once, on first request: the route table does not change while the process runs.
  let openapi: { json: string; staticPage: HtmlPage } | undefined;
  const documents = () => {
    if (!openapi) {
      const document = buildOpenApiDocument(router.routes);
      const html = docsPage(document, { spec: pagePaths.openapi, interactive: pagePaths.docs, graphiql: pagePaths.graphiql });
      openapi = { json: JSON.stringify(document), staticPage: htmlPage(html, {}, { hashStyles: true }) };
    }
    return openapi;
  };
  const interactive = interactiveReferencePage();
  const index = indexPage();
  return {
    '/healthz': () => jsonResponse(200, { status: 'ok' }),
    '/readyz': async () => {
      // A stopping server is not ready for new traffic, though it still answers what reaches it.
      if (deps.lifecycle.draining) return errorResponse(new AppError('serviceUnavailable', { message: 'The server is shutting down' }));
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
    [pagePaths.docs]: () => htmlResponse(interactive),
    [pagePaths.docsStatic]: () => htmlResponse(documents().staticPage),
    [pagePaths.scalarBundle]: () => scalarBundleResponse(),
    // A browser gets the links as a page, anything else as JSON.
    [pagePaths.index]: (request) => {
      const response = (request.headers.get('accept') ?? '').includes('text/html') ? htmlResponse(index) : jsonResponse(200, indexDocument);
      response.headers.set('vary', 'Accept');
      return response;
    },
  };
}
