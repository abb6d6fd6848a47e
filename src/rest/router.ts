import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { AppError } from '../errors/catalogue.js';
import { invalidRequestData, parseOrThrow } from '../errors/validation.js';
import { assertAccess } from '../domain/auth/access.js';
import { bodyLimits, readJsonBody } from '../http/body.js';
import { jsonAnswer, type Answer, type Incoming } from '../http/exchange.js';
import type { RequestState } from '../http/request-state.js';
import type { AppDeps } from '../http/app-deps.js';
import type { Executor } from '../db/database.js';
import type { Principal } from '../domain/auth/principal.js';
import type { BinaryAnswer, InputPaths } from '../domain/shared/operation.js';
import type { Logger } from '../observability/logger.js';
import type { Route, RouteContext } from './route.js';

interface CompiledRoute {
  route: Route;
  /** The path with every parameter as `{}`: GET /v1/tags/{idOrName} and PUT /v1/tags/{id} share it. */
  template: string;
  pattern: RegExp;
  paramNames: string[];
}

export interface MatchResult {
  route: Route;
  /** Path parameters as they appear in the URL (percent-encoded). */
  rawParams: Record<string, string>;
}

/**
 * Where the router looks a path up: its resource (the segment after `/v1/`, with or without the
 * `/api` prefix) and its number of segments (one trailing slash aside), which every template fixes
 * (a parameter is one segment). Null when the path has no resource.
 */
function indexKey(path: string): string | null {
  let p = path.startsWith('/api/') ? path.slice(4) : path;
  if (!p.startsWith('/v1/')) return null;
  if (p.length > 4 && p.endsWith('/')) p = p.slice(0, -1);
  const end = p.indexOf('/', 4);
  const resource = p.slice(4, end < 0 ? undefined : end);
  if (resource === '') return null;
  let segments = 0;
  for (let i = 0; i < p.length; i++) if (p.charCodeAt(i) === 47) segments++;
  return `${resource}/${segments}`;
}

/** Path templates compiled to regexes once; matching distinguishes "no such path" from "wrong method". */
export class Router {
  /**
   * The compiled routes by resource and length (indexKey), in matching order: a path is tried only
   * against the templates that could match it, instead of every regex of the table, which showed
   * in a cheap read's profile (bench/README.md).
   */
  private readonly index = new Map<string, CompiledRoute[]>();

  constructor(readonly routes: Route[]) {
    const compiled: CompiledRoute[] = routes.map((route) => {
      const paramNames: string[] = [];
      const source = route.path
        .split('/')
        .map((seg) => {
          const m = /^\{(\w+)\}$/.exec(seg);
          if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          paramNames.push(m[1]);
          return '([^/]+)';
        })
        .join('/');
      // Every route also answers under /api (/api/v1/...): many clients take a base URL ending in /api.
      return { route, template: route.path.replace(/\{\w+\}/g, '{}'), pattern: new RegExp(`^(?:/api)?${source}/?$`), paramNames };
    });
    // A literal segment beats a parameter at the same position (/v1/contacts/count before
    // /v1/contacts/{identifier}), whatever order the area modules list their routes in.
    const shape = (path: string) => path.split('/').map((seg) => (seg.startsWith('{') ? '1' : '0')).join('');
    compiled.sort((a, b) => shape(a.route.path).localeCompare(shape(b.route.path)));
    for (const c of compiled) {
      const key = indexKey(c.route.path);
      if (!key || key.includes('{')) throw new Error(`Route ${c.route.method} ${c.route.path}: every path starts with /v1/ and a literal resource name`);
      this.index.set(key, [...(this.index.get(key) ?? []), c]);
    }
  }

  /** The matching route, null when no path matches, or 405 with Allow when only the method is wrong. */
  match(method: string, pathname: string): MatchResult | null {
    const allowed: string[] = [];
    // The most specific template that matches the path decides; a less specific one (a parameter
    // where this one has a literal) never answers for it, not even with its methods in a 405.
    let template: string | null = null;
    for (const c of this.index.get(indexKey(pathname) ?? '') ?? []) {
      if (template !== null && c.template !== template) continue;
      const m = c.pattern.exec(pathname);
      if (!m) continue;
      template = c.template;
      if (c.route.method !== method && !(method === 'HEAD' && c.route.method === 'GET')) {
        allowed.push(c.route.method);
        continue;
      }
      // Still percent-encoded: decoding can fail, and that is a 422 for an authenticated caller only.
      const rawParams: Record<string, string> = {};
      c.paramNames.forEach((name, i) => (rawParams[name] = m[i + 1]));
      return { route: c.route, rawParams };
    }
    if (allowed.length) {
      const allow = [...new Set(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed)].join(', ');
      throw new AppError('methodNotAllowed', { message: `${method} is not allowed here; use ${allow}`, headers: { Allow: allow } });
    }
    return null;
  }
}

function decodeParams(raw: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      throw invalidRequestData([{ message: 'Path parameter is not valid percent-encoding', path: ['params', name] }]);
    }
  }
  return out;
}

/** Query parameters as an object; a repeated key becomes an array so the schema rejects it. `token` is auth, not input. */
function queryObject(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (search === '') return out;
  for (const [key, value] of new URLSearchParams(search)) {
    if (key === 'token') continue;
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/**
 * A handler's context. A class, so that its logger can be a getter on the prototype (an object
 * literal with a getter is built on V8's slow path, visible in a cheap read's profile): the request's
 * child logger is made only when a handler logs, which most never do.
 */
class Context implements RouteContext<unknown, unknown, unknown> {
  constructor(
    readonly db: Executor,
    readonly who: Principal,
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly deps: AppDeps,
    private readonly state: RequestState,
  ) {}
  get logger(): Logger {
    return this.state.logger;
  }
  /** The input parts' places in issue paths, as the router reports its own validation issues. */
  readonly at = restInputPaths;
  get queue() {
    return this.deps.queue;
  }
  get adapter() {
    return this.deps.adapter;
  }
  get outbound() {
    return { allowedHosts: this.deps.config.OUTBOUND_ALLOWED_HOSTS };
  }
  get images() {
    return this.deps.images;
  }
  get files() {
    return this.deps.files;
  }
}

const restInputPaths: InputPaths = { params: ['params'], query: ['query'], body: ['body'] };
const writeMethods = new Set(['POST', 'PUT', 'PATCH']);
const noInput = z.strictObject({});

/**
 * Runs a matched route for an authenticated caller: access rules, then input validation (params,
 * query, body: each a 422 with paths prefixed by where the input was), then the handler. With
 * CHECK_RESPONSES (outside production) its result is checked against the route's response schema.
 */
export async function runRoute(deps: AppDeps, match: MatchResult, state: RequestState, request: Incoming): Promise<Answer> {
  const { route } = match;
  const { db } = state;
  const who = state.principal!;
  await assertAccess(db, who, route.access);

  const params = route.params ? parseOrThrow(route.params, decodeParams(match.rawParams), ['params']) : {};
  // A route without query parameters still rejects unknown ones: a typo never passes silently.
  const query = route.query || request.search !== '' ? parseOrThrow(route.query ?? noInput, queryObject(request.search), ['query']) : {};
  let body: unknown;
  if (route.body) {
    body = parseOrThrow(route.body, await readJsonBody(request, bodyLimits(deps.config)), ['body']);
  } else if (writeMethods.has(route.method)) {
    // A write without a body (unfollow) takes nothing, `{}` or no body at all; a field is 422.
    const sent = await readJsonBody(request, bodyLimits(deps.config));
    if (sent !== undefined) parseOrThrow(noInput, sent, ['body']);
  }

  const result = await route.handler(new Context(db, who, params, query, body, deps, state));
  // 204: no body, whatever the operation resolved (GraphQL's `{success: true}`).
  if (route.response.status === 204) return { status: 204, headers: {}, body: null };
  if (route.response.binary) {
    const { bytes, headers } = result as BinaryAnswer;
    return { status: route.response.status, headers: { 'content-type': route.response.binary.mediaType, ...headers }, body: bytes };
  }
  if (deps.config.CHECK_RESPONSES) checkResponse(route, result);
  const location = route.response.location?.(result as never);
  return jsonAnswer(route.response.status, result, location ? { Location: location } : {});
}

/**
 * A route's answer against its response schema, where the tests run: it must parse, and parsing
 * must change nothing (no field the schema strips, no default it fills, no transform), so that what
 * production sends unchecked is exactly what the tests checked. A mismatch is our bug: a 500, logged
 * with the details.
 */
function checkResponse(route: Route, result: unknown): void {
  const shaped = route.response.schema.safeParse(result);
  if (!shaped.success) throw new Error(`Response of ${route.operationId} does not match its schema: ${shaped.error.message}`);
  // As JSON (what goes out), in any key order.
  const asJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
  if (!isDeepStrictEqual(asJson(shaped.data), asJson(result))) {
    throw new Error(`Response of ${route.operationId} changes when its schema parses it (a field the schema strips, fills or transforms): ${JSON.stringify(result).slice(0, 500)}`);
  }
}
