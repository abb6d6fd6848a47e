import { AppError, type ErrorEnvelope } from '../errors/catalogue.js';
import { describeError } from '../errors/describe.js';
import type { Logger } from '../observability/logger.js';

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });

/**
 * Any thrown value as an AppError. Unknown errors become 500 INTERNAL_SERVER_ERROR with the
 * default message; the original is logged with the request id and never reaches the caller.
 */
export function toAppError(err: unknown, logger: Logger, requestId: string): AppError {
  if (err instanceof AppError) return err;
  logger.error({ err, requestId }, 'unhandled error');
  return new AppError('INTERNAL_SERVER_ERROR');
}

export function errorResponse(err: AppError): Response {
  return jsonResponse(err.status, err.toEnvelope(), err.headers);
}

/**
 * The same error as a GraphQL-over-HTTP response, for failures before GraphQL execution starts:
 * the envelope in `extensions`, a `message` that says what happened (describeError).
 */
export function graphqlErrorResponse(err: AppError): Response {
  const { message: _default, ...extensions }: ErrorEnvelope = err.toEnvelope();
  return jsonResponse(err.status, { errors: [{ message: describeError(err), extensions }] }, err.headers);
}
