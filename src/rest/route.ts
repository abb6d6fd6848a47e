import type { z } from 'zod';
import type { Executor } from '../db/database.js';
import type { AccessRule } from '../domain/auth/access.js';
import type { Principal } from '../domain/auth/principal.js';
import type { AnyOperation, OperationCall } from '../domain/shared/operation.js';
import type { AppDeps } from '../http/app-deps.js';
import type { Logger } from '../observability/logger.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContext<P, Q, B> extends OperationCall<P, Q, B> {
  /** The request's database handle (its statements are counted on the request). */
  db: Executor;
  who: Principal;
  deps: AppDeps;
  /** Logs with the request's id. */
  logger: Logger;
}

/**
 * One row of the route table: everything the router needs to run the route and everything the
 * OpenAPI document says about it, from the same zod schemas.
 */
export interface Route<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** OpenAPI-style template: `/v1/net-comments/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  /** What the operation does, before the access rules in the reference's description. */
  description?: string;
  tag: string;
  access: AccessRule;
  params?: P;
  query?: Q;
  body?: B;
  response: {
    status: number;
    description: string;
    schema: R;
    /** For a 201: where the created record can be read (sent as `Location`). */
    location?: (created: z.output<R>) => string;
    /** Not JSON: the handler resolves to a BinaryAnswer of this media type; the reference shows `exampleUrl`. */
    binary?: AnyOperation['binary'];
  };
  /**
   * Error statuses the contract lists for this operation. The OpenAPI document adds those every
   * route can answer (see `documentedErrorStatuses` in openapi.ts).
   */
  errors: number[];
  /**
   * Examples for the reference (OpenAPI `examples`, the curl sample, /docs and /docs/static): one
   * value for each part the route takes (path parameters, query parameters as sent in the URL, the
   * body) and the success response. Each must parse with its schema (test/contract.openapi-examples).
   */
  examples: RouteExamples<P, Q, B, R>;
  handler: (ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>) => Promise<z.input<R>>;
}

export interface RouteExamples<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  params?: z.input<P>;
  query?: z.input<Q>;
  body?: z.input<B>;
  response: z.output<R>;
}

/** Identity function that keeps each route's schema types tied to its handler. */
export const defineRoute = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  route: Route<P, Q, B, R>,
): Route => route as unknown as Route;

/**
 * What REST adds to an operation: the status of success (200 unless told), where a created record
 * is read (`Location`), and the error statuses its shape does not imply (a path parameter implies
 * 404, a body 400/413/415, any input 422, every route 401/403/429/500: openapi.ts
 * documentedErrorStatuses), such as the contract's 404 on a list.
 */
export interface RestBinding {
  status?: number;
  location?: (created: never) => string;
  errors?: number[];
}

/** One row of the route table: an operation at a method and path. */
export function operationRoute(method: HttpMethod, path: string, op: AnyOperation, binding: RestBinding = {}): Route {
  const { output, outputDescription, examples } = op;
  if (!output || outputDescription === undefined || !examples) throw new Error(`${op.id}: a REST route needs the operation's output, outputDescription and examples`);
  const present = op.present;
  return {
    method,
    path,
    operationId: op.id,
    summary: op.summary,
    ...(op.description === undefined ? {} : { description: op.description }),
    tag: op.tag,
    access: op.access,
    params: op.params,
    query: op.query,
    body: op.body,
    response: { status: binding.status ?? 200, description: outputDescription, schema: output, location: binding.location as Route['response']['location'], binary: op.binary },
    errors: binding.errors ?? [],
    examples,
    handler: present ? async (ctx) => present(await op.run(ctx), ctx) : (ctx) => op.run(ctx),
  };
}

/** Route rows by method: `get('/v1/tags', tags.list)`. */
export const get = (path: string, op: AnyOperation, binding?: RestBinding) => operationRoute('GET', path, op, binding);
export const post = (path: string, op: AnyOperation, binding?: RestBinding) => operationRoute('POST', path, op, binding);
export const put = (path: string, op: AnyOperation, binding?: RestBinding) => operationRoute('PUT', path, op, binding);
export const patch = (path: string, op: AnyOperation, binding?: RestBinding) => operationRoute('PATCH', path, op, binding);
export const del = (path: string, op: AnyOperation, binding?: RestBinding) => operationRoute('DELETE', path, op, binding);
