import { pingDatabase } from '../db/database.js';
import type { AppDeps } from '../http/app-deps.js';
import { AppError } from '../errors/catalogue.js';
import { jsonAnswer, type Answer, type Incoming } from '../http/exchange.js';
import { errorAnswer } from '../http/responses.js';
import { registry } from '../observability/metrics.js';
import { buildOpenApiDocument } from './reference/openapi.js';
import { docsPage } from './reference/docs-page.js';
import { htmlAnswer, htmlPage, type HtmlPage } from '../http/html-pages.js';
import { indexDocument, indexPage, interactiveReferencePage, pagePaths, scalarBundleAnswer } from './reference/reference-pages.js';
import type { Router } from './router.js';

/**
 * Unauthenticated routes (probes, documents, public links), by path; a key ending in `/*` answers
 * every path under it (its route in metrics and logs is the key: one label, not one per path).
 */
export type PublicRoutes = Record<string, PublicRoute>;
/** A public route answers GET and HEAD, unless it names its methods (an upload address takes PUT). */
export type PublicRoute = ((request: Incoming) => Promise<Answer> | Answer) & { methods?: readonly string[] };

/** A public route that answers these methods. */
export const withMethods = (methods: readonly string[], route: (request: Incoming) => Promise<Answer> | Answer): PublicRoute => Object.assign(route, { methods });

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
      // The render example is an image this server draws (its own origin).
      openapi = { json: JSON.stringify(document), staticPage: htmlPage(html, { 'img-src': ["'self'"] }, { hashStyles: true }) };
    }
    return openapi;
  };
  const interactive = interactiveReferencePage();
  const index = indexPage();
  return {
    '/healthz': () => jsonAnswer(200, { status: 'ok' }),
    '/readyz': async () => {
      // A stopping server is not ready for new traffic, though it still answers what reaches it.
      if (deps.lifecycle.draining) return errorAnswer(new AppError('serviceUnavailable', { message: 'The server is shutting down' }));
      // A loop that was just blocked for seconds may be blocked again by what blocked it.
      const stall = deps.watchdog.stall();
      if (stall) {
        const message = `The event loop was blocked for ${stall.blockedMs} ms; ready again once it has run freely for ${deps.config.EVENT_LOOP_STALL_MS} ms`;
        return errorAnswer(new AppError('serviceUnavailable', { message }));
      }
      try {
        await pingDatabase(deps.database.db);
        return jsonAnswer(200, { status: 'ok', database: deps.database.engine });
      } catch (err) {
        deps.logger.warn({ err }, 'readiness check failed');
        return errorAnswer(new AppError('serviceUnavailable', { message: 'The database is not reachable' }));
      }
    },
    '/metrics': async () => ({ status: 200, headers: { 'content-type': registry.contentType }, body: await registry.metrics() }),
    '/v1/openapi.json': () => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: documents().json }),
    [pagePaths.docs]: () => htmlAnswer(interactive),
    [pagePaths.docsStatic]: () => htmlAnswer(documents().staticPage),
    [pagePaths.scalarBundle]: () => scalarBundleAnswer(),
    // A browser gets the links as a page, anything else as JSON.
    [pagePaths.index]: (request) => {
      const answer = (request.header('accept') ?? '').includes('text/html') ? htmlAnswer(index) : jsonAnswer(200, indexDocument);
      answer.headers['vary'] = 'Accept';
      return answer;
    },
  };
}
