import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { YogaServerInstance } from 'graphql-yoga';
import { countedDatabase } from './db/statement-count.js';
import type { AppDeps } from './http/app-deps.js';
import { authenticate } from './domain/auth/auth.service.js';
import { AppError } from './errors/catalogue.js';
import type { GraphQLContext } from './graphql/context.js';
import type { Logger } from './observability/logger.js';
import { httpDuration, httpRequests } from './observability/metrics.js';
import { runRoute, type Router } from './rest/router.js';
import type { PublicRoutes } from './rest/system.routes.js';
import { webhookMethods, type WebhookRoutes } from './rest/webhooks.routes.js';
import { clientIp } from './http/client-ip.js';
import { addCorsHeaders, preflightAnswer } from './http/cors.js';
import { ClientClosedError, fromResponse, isStream, type Answer, type Incoming } from './http/exchange.js';
import { bodyLimits } from './http/body.js';
import { readGraphQLParams } from './http/graphql-params.js';
import { htmlAnswer, type HtmlPage } from './http/html-pages.js';
import * as idempotency from './http/idempotency.js';
import { consume } from './http/rate-limit.js';
import type { RequestState } from './http/request-state.js';
import { setSecurityHeaders, withBodyRules } from './http/response-headers.js';
import { errorAnswer, graphqlErrorAnswer, toAppError } from './http/responses.js';

/** Unauthenticated routes that no rate limit holds back (probes and metrics). */
const unlimited = new Set(['/healthz', '/readyz', '/metrics']);
const requestIdPattern = /^[\w.:-]{1,128}$/;
const documentMethods = ['GET', 'HEAD'];
const graphqlMethods = ['GET', 'POST'];
/** The status proxies log for a request whose client left before it was answered. */
const CLIENT_CLOSED_REQUEST = 499;

/** 405 with the methods the path does take, worded as the REST router words it. */
const methodNotAllowed = (method: string, allow: readonly string[]) =>
  new AppError('methodNotAllowed', { message: `${method} is not allowed here; use ${allow.join(', ')}`, headers: { Allow: allow.join(', ') } });

/** What a browser gets at /graphql when GRAPHIQL=false: /graphql has no HTML to offer it. */
const graphiqlDisabled = () =>
  new AppError('notAcceptable', { message: 'GraphiQL is disabled on this server (GRAPHIQL=false): send GraphQL requests to /graphql as application/json' });

/** A browser asking for GraphiQL (no operation in the URL) may load the page without a token. */
const isGraphiQLPage = (request: Incoming) =>
  request.method === 'GET' && !new URLSearchParams(request.search).has('query') && (request.header('accept') ?? '').includes('text/html');

/**
 * /metrics behind METRICS_TOKEN: `Authorization: Bearer <token>`, compared in constant time (both
 * sides hashed first, so neither the token's length nor its prefix shows in the timing).
 */
function assertMetricsToken(request: Incoming, expected: string): void {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.header('authorization') ?? '')?.[1] ?? '';
  const digest = (v: string) => createHash('sha256').update(v).digest();
  if (!timingSafeEqual(digest(presented), digest(expected))) {
    throw new AppError('UNAUTHORIZED', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
  }
}

class PlatformRequest implements RequestState {
  route: string;
  principal: RequestState['principal'] = null;
  rateLimitHeaders: Record<string, string> = {};
  idempotency?: RequestState['idempotency'];
  statements = 0;
  readonly startedAt = process.hrtime.bigint();
  readonly db: RequestState['db'];
  #logger: Logger | undefined;

  constructor(
    readonly requestId: string,
    route: string,
    deps: AppDeps,
    private readonly root: Logger,
  ) {
    this.route = route;
    this.db = countedDatabase(deps.database.db, this);
  }

  get logger(): Logger {
    return (this.#logger ??= this.root.child({ requestId: this.requestId }));
  }
}

/** What Yoga gets besides the request: the platform's state of it, and its parameters as the platform read them. */
export interface GraphQLServerContext {
  state: RequestState;
  params: unknown;
}

export interface PlatformOptions {
  router: Router;
  publicRoutes: PublicRoutes;
  webhooks: WebhookRoutes;
  graphqlPath: string;
  yoga: YogaServerInstance<GraphQLServerContext, GraphQLContext>;
  /** GraphiQL's page when GRAPHIQL is on. */
  graphiql: HtmlPage | null;
}

/**
 * The platform around every request, as one front controller over a transport-neutral exchange
 * (exchange.ts): request id, per-IP then per-workspace rate limits, authentication, idempotency,
 * then a REST route, a webhook or a document, answered here; /graphql alone goes on to Yoga. On the
 * way out every answer gets the standard headers (request id, rate limits, CORS, security,
 * caching), an ETag or compression where they apply, metrics and an access log line. Errors never
 * escape: each becomes the envelope (in GraphQL's error shape on /graphql).
 */
export function createPlatform(deps: AppDeps, o: PlatformOptions) {
  const { config, logger, limiters } = deps;
  const publicPrefixes = Object.keys(o.publicRoutes).filter((key) => key.endsWith('/*'));

  async function serve(request: Incoming): Promise<Answer> {
    const isGraphql = request.path === o.graphqlPath;
    const incomingId = request.header('x-request-id');
    const state = new PlatformRequest(incomingId && requestIdPattern.test(incomingId) ? incomingId : randomUUID(), isGraphql ? o.graphqlPath : 'unmatched', deps, logger);
    const done = deps.watchdog.track(state.requestId);
    let answer: Answer;
    try {
      answer = await dispatch(request, state, isGraphql);
    } catch (err) {
      if (err instanceof ClientClosedError) {
        // Not an error of ours: logged for whoever traces the request, answered to nobody. The
        // access line says 499, as proxies log a request its client abandoned.
        state.logger.info({ route: state.route }, err.message);
        answer = { status: CLIENT_CLOSED_REQUEST, headers: {}, body: null };
      } else {
        const appError = toAppError(err, logger, state.requestId);
        answer = isGraphql ? graphqlErrorAnswer(appError) : errorAnswer(appError);
      }
    }
    try {
      return await finish(request, state, answer);
    } finally {
      done();
    }
  }

  async function dispatch(request: Incoming, state: PlatformRequest, isGraphql: boolean): Promise<Answer> {
    const { method, path } = request;
    // Browsers' preflights, on any path, before anything else (CORS headers come with every answer).
    if (method === 'OPTIONS') return preflightAnswer();
    // The networks' webhooks: no token and no per-IP budget (a network delivers from a few
    // addresses at its own pace); each POST proves itself by its signature instead.
    const webhook = Object.hasOwn(o.webhooks, path) ? o.webhooks[path] : undefined;
    if (webhook) {
      state.route = path;
      if (!webhookMethods.includes(method)) throw methodNotAllowed(method, webhookMethods);
      return webhook(request, state);
    }
    const publicPath = Object.hasOwn(o.publicRoutes, path) ? path : publicPrefixes.find((prefix) => path.startsWith(prefix.slice(0, -1)));
    const publicRoute = publicPath === undefined ? undefined : o.publicRoutes[publicPath];
    // Probes and documents are read-only; a POST to /healthz is a mistake worth reporting.
    if (publicRoute && !(publicRoute.methods ?? documentMethods).includes(method)) throw methodNotAllowed(method, publicRoute.methods ?? documentMethods);
    if (publicRoute && unlimited.has(path)) {
      state.route = path;
      if (path === '/metrics' && config.METRICS_TOKEN) assertMetricsToken(request, config.METRICS_TOKEN);
      return publicRoute(request);
    }
    // GraphiQL's page loads without a token or a rate limit, as Yoga served it before anything ran.
    if (isGraphql && o.graphiql && isGraphiQLPage(request)) return htmlAnswer(o.graphiql);

    state.rateLimitHeaders = await consume(limiters.ip, clientIp(request, config.TRUST_PROXY), 'ip');
    if (publicRoute) {
      state.route = publicPath!;
      return publicRoute(request);
    }
    if (isGraphql) return graphql(request, state);

    const match = o.router.match(method, path);
    if (!match) throw new AppError('notFound', { data: { method, path } });
    state.route = match.route.path;
    await authenticateInto(state, request);
    return (await beginIdempotent(state, request)) ?? runRoute(deps, match, state, request);
  }

  async function graphql(request: Incoming, state: PlatformRequest): Promise<Answer> {
    // Before authentication, as for REST paths: the method is wrong whoever asks.
    if (!graphqlMethods.includes(request.method)) throw methodNotAllowed(request.method, graphqlMethods);
    if (isGraphiQLPage(request)) throw graphiqlDisabled();
    if (request.method === 'POST') {
      const declared = request.header('content-length');
      if (declared === null) throw new AppError('lengthRequired');
      if (Number(declared) > config.BODY_LIMIT_BYTES) throw new AppError('payloadTooLarge', { data: { limitBytes: config.BODY_LIMIT_BYTES } });
    }
    await authenticateInto(state, request);
    const replay = await beginIdempotent(state, request);
    if (replay) return replay;
    // Read as REST reads its input (graphql-params.ts): the same 400/413/415 envelopes.
    const params = await readGraphQLParams(request, bodyLimits(config));
    const response = await o.yoga.fetch(await request.toFetchRequest(o.yoga.fetchAPI), { state, params });
    const answer = await fromResponse(response);
    // A subscription's stream lasts until the client leaves or the server ends it (token revoked,
    // shutdown): its connection closes with it, so a draining server is left with no idle
    // connection to wait for, and the client's next stream opens afresh wherever it is sent.
    if (isStream(answer.body) && /^\s*text\/event-stream/i.test(answer.headers['content-type'] ?? '')) answer.headers['connection'] = 'close';
    return answer;
  }

  async function authenticateInto(state: PlatformRequest, request: Incoming) {
    const queryToken = request.search === '' ? null : new URLSearchParams(request.search).get('token');
    const who = await authenticate(state.db, deps.tokenCache, { authorization: request.header('authorization'), queryToken });
    state.principal = who;
    // The workspace budget is reported once the caller is known: it is the one that binds.
    state.rateLimitHeaders = await consume(limiters.workspace, String(who.workspaceId), 'workspace');
  }

  /** A replayed answer for a retried POST/PATCH, or null to run it (with the key claimed, when one was sent). */
  async function beginIdempotent(state: PlatformRequest, request: Incoming): Promise<Answer | null> {
    const begun = await idempotency.begin(state.db, state.principal!.workspaceId, request, { bodyLimit: config.BODY_LIMIT_BYTES, waitMs: config.REQUEST_TIMEOUT_MS });
    if (begun && 'claim' in begun) state.idempotency = begun.claim;
    return begun && 'replay' in begun ? begun.replay : null;
  }

  async function finish(request: Incoming, state: PlatformRequest, answer: Answer): Promise<Answer> {
    try {
      if (state.idempotency) {
        const claim = state.idempotency;
        state.idempotency = undefined;
        answer = await idempotency.finish(state.db, claim, answer, (err) => logger.error({ err, requestId: state.requestId }, 'could not store the answer of an Idempotency-Key'));
      }
      const headers = answer.headers;
      addCorsHeaders(request, headers, config.CORS_ORIGINS);
      headers['x-request-id'] = state.requestId;
      for (const name in state.rateLimitHeaders) if (headers[name] === undefined) headers[name] = state.rateLimitHeaders[name]!;
      if (config.EXPOSE_DB_STATEMENTS) headers['x-db-statements'] = String(state.statements);
      setSecurityHeaders(headers);
      answer = await withBodyRules(request, answer, { compressFromBytes: config.COMPRESSION_MIN_BYTES });
    } catch (err) {
      // Never fail the request from here: it goes out as it was.
      logger.error({ err, requestId: state.requestId }, 'could not store, compress or tag the response');
    }

    const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9;
    httpRequests.inc({ method: request.method, route: state.route, status: String(answer.status) });
    httpDuration.observe({ method: request.method, route: state.route }, seconds);
    if (logger.isLevelEnabled('info')) {
      logger.info(
        {
          requestId: state.requestId,
          method: request.method,
          route: state.route,
          status: answer.status,
          ms: Math.round(seconds * 1e4) / 10,
          statements: state.statements,
          workspaceId: state.principal?.workspaceId,
        },
        'request',
      );
    }
    return answer;
  }

  return { serve };
}

export type Platform = ReturnType<typeof createPlatform>;
