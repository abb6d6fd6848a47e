import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestScope } from './request-scope.js';

export type { Logger };

/**
 * JSON lines on stdout (or `destination`). Every line written while a request runs carries that
 * request's id, whoever logs it (the access log, a failing SQL statement, a masked GraphQL error),
 * so one grep finds everything about a request.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    // Tokens travel in Authorization headers and ?token=; neither belongs in a log line.
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
    mixin: () => {
      const scope = currentRequestScope();
      return scope ? { requestId: scope.requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
