import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors/catalogue.js';
import { authenticate, credentialsFrom } from '../domain/auth/auth.service.js';
import { currentRequestScope } from '../observability/request-scope.js';
import { httpDuration, httpRequests } from '../observability/metrics.js';
import { webhookMethods, type WebhookRoutes } from '../rest/webhooks.routes.js';
import type { AppDeps } from '../deps.js';
import { runRoute, type Router } from '../rest/router.js';
import { clientIp } from './client-ip.js';
import { readGraphQLParams } from './graphql-params.js';
import { consume } from './rate-limit.js';
import { errorResponse, graphqlErrorResponse, toAppError } from './responses.js';
import { getRequestState, setRequestState, type RequestState } from './request-state.js';
import { setSecurityHeaders, withBodyRules } from './response-headers.js';
import * as idempotency from './idempotency.js';

/** Unauthenticated, unlimited routes (probes and documents). */
export type PublicRoutes = Record<string, (request: Request) => Promise<Response> | Response>;
const unlimited = new Set(['/healthz', '/readyz', '/metrics']);

const requestIdPattern = /^[\w.:-]{1,128}$/;

/** 405 with the methods the path does take, worded as the REST router words it. */
const methodNotAllowed = (method: string, allow: string[]) =>
  new AppError('methodNotAllowed', { message: `${method} is not allowed here; use ${allow.join(', ')}`, headers: { Allow: allow.join(', ') } });
const documentMethods = ['GET', 'HEAD'];
const graphqlMethods = ['GET', 'POST'];

/**
 * /metrics behind METRICS_TOKEN: `Authorization: Bearer <token>`, compared in constant time (both
 * sides hashed first, so neither the token's length nor its prefix shows in the timing).
 */
function assertMetricsToken(request: Request, expected: string): void {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  const digest = (v: string) => createHash('sha256').update(v).digest();
  if (!timingSafeEqual(digest(presented), digest(expected))) {
    throw new AppError('UNAUTHORIZED', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
  }
}

/** A browser asking for GraphiQL (no operation in the URL) may load the page without a token. */
const isGraphiQLPage = (request: Request, url: URL) =>
  request.method === 'GET' && !url.searchParams.has('query') && (request.headers.get('accept') ?? '').includes('text/html');

/** What a browser gets at /graphql when GRAPHIQL=false: /graphql has no HTML to offer it. */
const graphiqlDisabled = () =>
  new AppError('notAcceptable', {
    message: 'GraphiQL is disabled on this server (GRAPHIQL=false): send GraphQL requests to /graphql as application/json',
  });

/**
 * The platform around every request, as one Yoga plugin: request id, per-IP then per-workspace
 * rate limits, authentication, the REST router for /v1, and on the way out the standard headers,
 * metrics and an access log line. Errors here never escape: Yoga does not catch exceptions thrown
 * by onRequest hooks, so everything runs inside this try/catch and becomes an envelope.
 */
export function platformPlugin(deps: AppDeps, router: Router, publicRoutes: PublicRoutes, graphqlPath: string, webhooks: WebhookRoutes = {}): Plugin {
  const { config, logger, limiters } = deps;

  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      const state = stateFor(request, url);
      const isGraphql = url.pathname === graphqlPath;

      try {
        // The networks' webhooks: no token and no per-IP budget (a network delivers from a few
        // addresses at its own pace); each POST proves itself by its signature instead.
        const webhook = Object.hasOwn(webhooks, url.pathname) ? webhooks[url.pathname] : undefined;
        if (webhook) {
          state.route = url.pathname;
          if (!webhookMethods.includes(request.method)) throw methodNotAllowed(request.method, webhookMethods);
          return endResponse(await webhook(request, url));
        }
        const publicRoute = Object.hasOwn(publicRoutes, url.pathname) ? publicRoutes[url.pathname] : undefined;
        // Probes and documents are read-only; a POST to /healthz is a mistake worth reporting.
        if (publicRoute && !documentMethods.includes(request.method)) throw methodNotAllowed(request.method, documentMethods);
        if (publicRoute && unlimited.has(url.pathname)) {
          state.route = url.pathname;
          if (url.pathname === '/metrics' && config.METRICS_TOKEN) assertMetricsToken(request, config.METRICS_TOKEN);
          return endResponse(await publicRoute(request));
        }

        const ip = clientIp(request, serverContext as { req?: IncomingMessage }, config.TRUST_PROXY);
        state.rateLimitHeaders = await consume(limiters.ip, ip, 'ip');

        if (publicRoute) {
          state.route = url.pathname;
          return endResponse(await publicRoute(request));
        }

        if (isGraphql) {
          state.route = graphqlPath;
          // Before authentication, as for REST paths: the method is wrong whoever asks.
          if (!graphqlMethods.includes(request.method)) throw methodNotAllowed(request.method, graphqlMethods);
          if (isGraphiQLPage(request, url)) {
            // With GRAPHIQL on, Yoga serves the page before this hook runs.
            if (config.GRAPHIQL) return;
            throw graphiqlDisabled();
          }
          if (request.method === 'POST') {
            const declared = request.headers.get('content-length');
            if (declared === null) throw new AppError('lengthRequired');
            if (Number(declared) > config.BODY_LIMIT_BYTES) {
              throw new AppError('payloadTooLarge', { data: { limitBytes: config.BODY_LIMIT_BYTES } });
            }
          }
          const who = await authenticateInto(state, request, url);
          const idempotent = await beginIdempotent(state, who.workspaceId, request, url);
          if (idempotent) return endResponse(idempotent);
          return; // Yoga executes the operation; resolvers read the principal from the context.
        }

        const match = router.match(request.method, url.pathname);
        if (!match) throw new AppError('notFound', { data: { method: request.method, path: url.pathname } });
        state.route = match.route.path;
        const who = await authenticateInto(state, request, url);
        const idempotent = await beginIdempotent(state, who.workspaceId, request, url);
        if (idempotent) return endResponse(idempotent);
        return endResponse(await runRoute(deps, match, who, request, url));
      } catch (err) {
        const appError = toAppError(err, logger, state.requestId);
        return endResponse(isGraphql ? graphqlErrorResponse(appError) : errorResponse(appError));
      }
    },

    /**
     * /graphql reads its parameters as REST reads input (graphql-params.ts): JSON bodies only, the
     * same 400/413/415 envelopes, here in GraphQL's error shape with the HTTP status.
     */
    onRequestParse({ request, url, setRequestParser }) {
      if (url.pathname !== graphqlPath) return;
      setRequestParser(async (req) => {
        try {
          return (await readGraphQLParams(req, url, config.BODY_LIMIT_BYTES)) as GraphQLParams;
        } catch (err) {
          return graphqlErrorResponse(toAppError(err, logger, stateFor(request, url).requestId));
        }
      });
    },

    async onResponse({ request, response, setResponse }) {
      // Yoga's own plugins (CORS preflight, the GraphiQL page) may answer before onRequest above
      // runs: those responses get their request id, metrics and log line all the same.
      const state = getRequestState(request) ?? stateFor(request, new URL(request.url));
      response.headers.set('X-Request-Id', state.requestId);
      for (const [k, v] of Object.entries(state.rateLimitHeaders)) if (!response.headers.has(k)) response.headers.set(k, v);
      const scope = currentRequestScope();
      if (config.EXPOSE_DB_STATEMENTS && scope) response.headers.set('X-Db-Statements', String(scope.statements));
      setSecurityHeaders(response.headers);
      try {
        if (state.idempotency) {
          const claim = state.idempotency;
          state.idempotency = undefined;
          response = await idempotency.finish(deps.database.db, claim, response, (err) => logger.error({ err, requestId: state.requestId }, 'could not store the answer of an Idempotency-Key'));
        }
        response = await withBodyRules(request, response, { compressFromBytes: config.COMPRESSION_MIN_BYTES });
        setResponse(response);
      } catch (err) {
        // Never crash the process from here (Yoga does not catch onResponse errors): send it as it was.
        logger.error({ err, requestId: state.requestId }, 'could not store, compress or tag the response');
      }

      const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9;
      httpRequests.inc({ method: request.method, route: state.route, status: String(response.status) });
      httpDuration.observe({ method: request.method, route: state.route }, seconds);
      if (logger.isLevelEnabled('info')) {
        logger.info(
          {
            requestId: state.requestId,
            method: request.method,
            route: state.route,
            status: response.status,
            ms: Math.round(seconds * 1e4) / 10,
            statements: scope?.statements,
            workspaceId: state.principal?.workspaceId,
          },
          'request',
        );
      }
    },
  };

  /** The request's state, made on first sight: id (the client's own when safe), start, route. */
  function stateFor(request: Request, url: URL): RequestState {
    const known = getRequestState(request);
    if (known) return known;
    const incoming = request.headers.get('x-request-id');
    const scope = currentRequestScope();
    const state: RequestState = {
      requestId: incoming && requestIdPattern.test(incoming) ? incoming : (scope?.requestId ?? randomUUID()),
      startedAt: scope?.startedAt ?? process.hrtime.bigint(),
      route: url.pathname === graphqlPath ? graphqlPath : 'unmatched',
      principal: null,
      rateLimitHeaders: {},
    };
    setRequestState(request, state);
    if (scope) scope.requestId = state.requestId;
    return state;
  }

  /** A replayed answer for a retried POST/PATCH, or null to run it (with the key claimed, when one was sent). */
  async function beginIdempotent(state: RequestState, workspaceId: number, request: Request, url: URL): Promise<Response | null> {
    const begun = await idempotency.begin(deps.database.db, workspaceId, request, url, { bodyLimit: config.BODY_LIMIT_BYTES, waitMs: config.REQUEST_TIMEOUT_MS });
    if (begun && 'claim' in begun) state.idempotency = begun.claim;
    return begun && 'replay' in begun ? begun.replay : null;
  }

  async function authenticateInto(state: RequestState, request: Request, url: URL) {
    const who = await authenticate(deps.database.db, deps.tokenCache, credentialsFrom(request, url));
    state.principal = who;
    // The workspace budget is reported once the caller is known: it is the one that binds.
    state.rateLimitHeaders = await consume(limiters.workspace, String(who.workspaceId), 'workspace');
    return who;
  }
}
