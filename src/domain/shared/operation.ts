import type { z } from 'zod';
import type { Executor } from '../../db/database.js';
import type { Logger } from '../../observability/logger.js';
import type { JobQueue } from '../../queue/enqueue.js';
import type { AccessRule } from '../auth/access.js';
import type { Principal } from '../auth/principal.js';
import type { ChannelAdapter } from '../channels/channel-adapter.js';
import type { ImageServices } from '../dynamic-images/dynamic-image-render.service.js';
import type { ContactFileServices } from '../contact-transfers/contact-file.service.js';

/**
 * One operation of the service, declared once for every adapter: its id, access rule, input and
 * output schemas, examples and the service call. REST builds a route from it (adding a method, a
 * path and a status: src/rest/routes/), GraphQL a root field (adding the field's name and type, and
 * the arguments' shape where it differs: src/graphql/types/, run by src/graphql/operations.ts), so
 * the rules stated here are enforced alike on both, and neither adapter states them again.
 *
 * Input comes in three parts, as an operation names them: `params` (the record it acts on: an id,
 * an identifier), `query` (filters and pages of a read) and `body` (what a write sends). Each part
 * is one zod schema, which validates it on every adapter and documents it in the reference.
 */
export interface Operation<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, R = unknown> {
  /** `area.verb`, stable: the OpenAPI operationId. */
  id: string;
  /** A short name for a table of contents ("List tags"), at most about 40 characters. */
  summary: string;
  /** What it does, in a sentence or two, where the summary is not enough. */
  description?: string;
  /** The reference's group (OpenAPI tag), shared by an area's operations. */
  tag: string;
  access: AccessRule;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * What it answers over REST (the result as `present` shapes it), in a few words, and one example
   * value per input part and for the answer (each must parse with its schema). An operation only
   * GraphQL serves (a connection) has none of the three.
   */
  output?: O;
  outputDescription?: string;
  examples?: OperationExamples<P, Q, B, O>;
  run: (ctx: OperationCall<z.output<P>, z.output<Q>, z.output<B>>) => Promise<R>;
  /**
   * The result as REST answers it, when that differs from the domain's result GraphQL resolves
   * (a list in `{data}`, an automation without its internal fields, a record with the relations
   * GraphQL loads per field).
   */
  present?: (result: R, ctx: OperationContext) => z.input<O> | Promise<z.input<O>>;
  /**
   * An answer that is not JSON (a PNG): its media type, and the example's address for the
   * reference (an image it shows). The result, as `present` shapes it, is a BinaryAnswer.
   */
  binary?: { mediaType: string } & ({ exampleUrl: string } | { exampleText: string });
}

/** The answer of a binary operation: its bytes and the headers of its own (caching, ETag). */
export interface BinaryAnswer {
  /** Whole, or streamed as it is produced (a CSV written from the database). */
  bytes: Uint8Array | AsyncIterable<Uint8Array>;
  headers: Record<string, string>;
}

export interface OperationExamples<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  params?: z.input<P>;
  query?: z.input<Q>;
  body?: z.input<B>;
  response: z.output<O>;
}

/**
 * What an operation runs with: the request's database handle (its statements counted on the
 * request) and caller, the process's job queue and channel adapter for the few operations that
 * enqueue or send, the request's logger.
 */
export interface OperationContext {
  db: Executor;
  who: Principal;
  queue: JobQueue;
  adapter: ChannelAdapter;
  logger: Logger;
  /** Where outbound requests may go: `host:port`s let through the private-address guard (tests' receivers). */
  outbound: { allowedHosts: readonly string[] };
  /** Rendering dynamic images: the drawing pool, the render store, the link settings. */
  images: ImageServices;
  /** Contact CSV files (imports, exports): their store and the address their signed links start with. */
  files: ContactFileServices;
}

/** Where each input part sits in the request, for the paths of the issues a service reports. */
export interface InputPaths {
  params: (string | number)[];
  query: (string | number)[];
  body: (string | number)[];
}

/**
 * An operation's context with its validated input, and where that input came from: a value the
 * service finds wrong is reported at `[...at.body, 'value']`, which is `["body", "value"]` on REST
 * and, say, `["input", "value"]` on GraphQL.
 */
export interface OperationCall<P = unknown, Q = unknown, B = unknown> extends OperationContext {
  params: P;
  query: Q;
  body: B;
  at: InputPaths;
}

/** Any operation, as adapters hold them: each is typed where it is declared. */
export type AnyOperation = Omit<Operation<any, any, any, any, any>, 'run' | 'present'> & {
  run: (ctx: OperationCall<any, any, any>) => Promise<any>;
  present?: (result: any, ctx: OperationContext) => unknown;
};

type Declared<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, O extends z.ZodType, R> = Omit<Operation<P, Q, B, O, R>, 'tag'>;

/** A part the operation was declared with is there; one it was not (left at `z.ZodUnknown`) is undefined. */
type Part<S extends z.ZodType> = [S] extends [z.ZodUnknown] ? undefined : S;
type Typed<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, O extends z.ZodType, R> = Omit<Declared<P, Q, B, O, R>, 'params' | 'query' | 'body'> & {
  params: Part<P>;
  query: Part<Q>;
  body: Part<B>;
};

/**
 * Declares one operation of an area; the area's `tag` comes from `operationsOf`. An identity
 * function that ties the schemas' types to `run`, `present` and the examples, and tells adapters
 * which input parts the operation has.
 */
export const operation = <P extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, B extends z.ZodType = z.ZodUnknown, O extends z.ZodType = z.ZodType, R = z.input<O>>(
  declared: Declared<P, Q, B, O, R>,
) => declared as Typed<P, Q, B, O, R>;

/** An area's operations under its reference group. */
export function operationsOf<T extends Record<string, { id: string; access: AccessRule }>>(tag: string, declared: T): { [K in keyof T]: T[K] & { tag: string } } {
  return Object.fromEntries(Object.entries(declared).map(([key, op]) => [key, { ...op, tag }])) as { [K in keyof T]: T[K] & { tag: string } };
}
