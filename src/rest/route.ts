import type { z } from 'zod';
import type { Executor } from '../db/database.js';
import type { AccessRule } from '../domain/auth/access.js';
import type { Principal } from '../domain/auth/principal.js';
import type { AppDeps } from '../http/app-deps.js';
import type { Logger } from '../observability/logger.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContext<P, Q, B> {
  /** The request's database handle (its statements are counted on the request). */
  db: Executor;
  who: Principal;
  params: P;
  query: Q;
  body: B;
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
