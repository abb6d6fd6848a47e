import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout (or `destination`). Lines about a request carry its id (`requestId`): the
 * platform passes a child logger bound to it to what serves the request (RequestState.logger), so
 * one grep finds everything about a request.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    // Tokens travel in Authorization headers and ?token=; neither belongs in a log line.
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
