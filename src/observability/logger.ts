import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout (or `destination`). Lines about a request carry its id (`requestId`): the
 * platform passes a child logger bound to it to what serves the request (RequestState.logger), so
 * one grep finds everything about a request.
 *
 * Stdout is written asynchronously (sonic-boom, `sync: false`): lines that come while a write is on
 * its way go out together in the next one, instead of a write(2) per line on the thread that serves
 * requests (one access line per request was about a tenth of a cheap read's time). pino flushes
 * what is left when the process exits, on a signal or an uncaught error too; only a kill -9 can cut
 * the last lines.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    // Tokens travel in Authorization headers and ?token=; neither belongs in a log line.
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
  };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
