import { failedStatementOf } from '../db/database.js';
import { AppError, type ErrorEnvelope } from '../errors/catalogue.js';
import { describeError } from '../errors/describe.js';
import type { Logger } from '../observability/logger.js';
import { jsonAnswer, type Answer } from './exchange.js';

/**
 * Any thrown value as an AppError. Unknown errors become 500 INTERNAL_SERVER_ERROR with the
 * default message; the original is logged with the request id (and the statement, when a SQL
 * statement raised it) and never reaches the caller.
 */
export function toAppError(err: unknown, logger: Logger, requestId: string): AppError {
  if (err instanceof AppError) return err;
  logUnexpected(logger, err, requestId, 'unhandled error');
  return new AppError('INTERNAL_SERVER_ERROR');
}

/** An unexpected error's log line (error level, with the request id), and its failed statement's. */
export function logUnexpected(logger: Logger, err: unknown, requestId: string | undefined, message: string, extra: Record<string, unknown> = {}): void {
  logger.error({ err, requestId, ...extra }, message);
  const sql = failedStatementOf(err);
  if (sql !== undefined) logger.error({ err, sql, requestId }, 'sql statement failed');
}

export const errorAnswer = (err: AppError): Answer => jsonAnswer(err.status, err.toEnvelope(), err.headers);

/**
 * The same error as a GraphQL-over-HTTP answer, for failures before GraphQL execution starts:
 * the envelope in `extensions`, a `message` that says what happened (describeError).
 */
export function graphqlErrorAnswer(err: AppError): Answer {
  const { message: _default, ...extensions }: ErrorEnvelope = err.toEnvelope();
  return jsonAnswer(err.status, { errors: [{ message: describeError(err), extensions }] }, err.headers);
}
