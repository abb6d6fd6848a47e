/**
 * The one error catalogue. The `defined` codes are the contract's table, with its statuses and
 * default messages. The contract also allows "undefined" errors (defined: false) at any status;
 * we use that for HTTP-level failures the contract does not list (bad JSON, wrong media type, body
 * too large, unknown method), so no code outside this file is ever invented. `graphqlOnly` codes
 * are HTTP failures only /graphql can answer (the REST routes' OpenAPI document leaves them out).
 */
export const errorCatalogue = {
  businessError: { status: 400, message: 'An error occurred while processing your request', defined: true },
  UNAUTHORIZED: { status: 401, message: 'Authentication required', defined: true },
  INVALID_CHATBOT_TOKEN: { status: 401, message: 'Invalid or missing workspace API token', defined: true },
  FORBIDDEN: { status: 403, message: 'You do not have permission to perform this action', defined: true },
  trialExpired: { status: 403, message: 'Trial expired', defined: true },
  macLimitReached: { status: 403, message: 'Monthly active contact limit reached', defined: true },
  notFound: { status: 404, message: 'Resource not found', defined: true },
  invalidRequestData: { status: 422, message: 'Input validation failed', defined: true },
  validation: { status: 422, message: 'Validation error', defined: true },
  tooManyRequests: { status: 429, message: 'Too many requests', defined: true },
  INTERNAL_SERVER_ERROR: { status: 500, message: 'An unexpected error occurred', defined: true },
  // Undefined errors (HTTP-level, not in the contract's table).
  malformedJson: { status: 400, message: 'The request body is not valid JSON', defined: false },
  badRequest: { status: 400, message: 'The request is not a well-formed GraphQL-over-HTTP request', defined: false, graphqlOnly: true },
  methodNotAllowed: { status: 405, message: 'This method is not allowed on this path', defined: false },
  notAcceptable: { status: 406, message: 'None of the media types the Accept header allows is served here', defined: false, graphqlOnly: true },
  conflict: { status: 409, message: 'The request conflicts with another one in progress', defined: false },
  lengthRequired: { status: 411, message: 'POST /graphql needs a Content-Length header', defined: false },
  payloadTooLarge: { status: 413, message: 'The request body is too large', defined: false },
  unsupportedMediaType: { status: 415, message: 'Request bodies must be sent as application/json', defined: false },
  serviceUnavailable: { status: 503, message: 'The service is not ready', defined: false },
} as const satisfies Record<string, { status: number; message: string; defined: boolean; graphqlOnly?: true }>;

export type ErrorCode = keyof typeof errorCatalogue;

type Catalogue = typeof errorCatalogue;
/** The contract's codes: their message is always the table's default; specifics go in `data`. */
export type DefinedCode = { [C in ErrorCode]: Catalogue[C]['defined'] extends true ? C : never }[ErrorCode];
/** HTTP-level codes the contract does not list (`defined: false`): these may word their message. */
export type UndefinedCode = Exclude<ErrorCode, DefinedCode>;

export interface ErrorEnvelope {
  defined: boolean;
  code: string;
  status: number;
  message: string;
  data?: unknown;
}

interface ErrorOptions {
  data?: unknown;
  /** Extra response headers (Retry-After, Allow, WWW-Authenticate). */
  headers?: Record<string, string>;
}

/**
 * The error every layer throws; REST serialises it as the envelope, GraphQL into `extensions`.
 * One way to say each error: a defined code takes no message (the type refuses one), so its
 * envelope always carries the contract's default message and what varies travels in `data`
 * (`notFound` with `data.resource`, `FORBIDDEN` with `data.reason`, ...). Only the undefined,
 * HTTP-level codes may say more in their message (`PUT is not allowed here; use GET, POST`).
 */
export class AppError extends Error {
  declare readonly message: string;
  readonly code: ErrorCode;
  readonly status: number;
  readonly defined: boolean;
  readonly data: unknown;
  readonly headers: Record<string, string>;

  constructor(code: DefinedCode, options?: ErrorOptions & { message?: never });
  constructor(code: UndefinedCode, options?: ErrorOptions & { message?: string });
  constructor(code: ErrorCode, options: ErrorOptions & { message?: string } = {}) {
    const entry = errorCatalogue[code];
    // The overloads already refuse a message for a defined code; untyped callers get the default too.
    super(entry.defined ? entry.message : (options.message ?? entry.message));
    this.name = 'AppError';
    this.code = code;
    this.status = entry.status;
    this.defined = entry.defined;
    this.data = options.data;
    this.headers = options.headers ?? {};
  }

  toEnvelope(): ErrorEnvelope {
    const body: ErrorEnvelope = { defined: this.defined, code: this.code, status: this.status, message: this.message };
    if (this.data !== undefined) body.data = this.data;
    return body;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** 404 notFound; `resource` names what was looked for (`Contact`) in `data.resource`. */
export const notFound = (resource?: string) => new AppError('notFound', resource ? { data: { resource } } : {});

/**
 * 422 validation: ids inside a record's definition (an automation's tags, an image's custom field,
 * an assignee) that name nothing in the workspace; another workspace's ids read the same. `field`
 * is the input field (`tagIds`, `post.value`), `ids` every unknown one. The relation routes of the
 * contacts API answer 404 instead: there the ids are the subject of the call, here the definition
 * is what is invalid.
 */
export const unknownReferences = (field: string, ids: readonly string[]) =>
  new AppError('validation', { data: { field, reason: 'notFound', ids: [...ids] } });
