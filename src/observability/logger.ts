import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout (or `destination`). Lines about a request carry its id (`requestId`): the
 * platform passes a child logger bound to it to what serves the request (RequestState.logger), so
 * one grep finds everything about a request.
 *
 * Stdout is written asynchronously (sonic-boom, `sync: false`) and in batches: lines are kept until
 * 4 KB are waiting (about a dozen access lines) or a second has passed, whichever comes first, and
 * lines that come while a write is on its way go out together in the next one: a write(2) per line
 * was a good share of a cheap read's CPU (bench/README.md). pino flushes what is left
 * when the process exits, on a signal or an uncaught error too; a kill -9 or a crash of V8 itself
 * (out of memory) loses what is kept, at most a second of lines.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    // Tokens travel in Authorization headers and ?token=; neither belongs in a log line.
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
  };
  if (destination) return pino(options, destination);
  const stdout = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES, periodicFlush: BATCH_MS });
  const logger = pino(options, stdout);
  stdouts.set(logger, stdout);
  return logger;
}

const BATCH_BYTES = 4096;
const BATCH_MS = 1000;

type SonicBoom = ReturnType<typeof pino.destination>;
const stdouts = new WeakMap<Logger, SonicBoom>();

/**
 * Exits with `code` once every line `logger` took is written, in order: what a graceful stop
 * calls after its last line. process.exit alone leaves the rest to pino's exit hook, a
 * synchronous flush that writes what is buffered ahead of a write still on its way (sonic-boom's
 * flushSync skips it), so the last lines came out in the wrong order or not at all ('stopped'
 * before the last request's access line). While a write is on its way, lines logged meanwhile
 * join the next one, and 'drain' comes when no more than a batch (BATCH_BYTES) is left: the exit
 * waits for it, and the exit hook's flush writes that rest after everything before it. sonic-boom
 * says whether a write is on its way only in `_writing` (pinned by platform.exit-logs.test.ts).
 * A stdout nobody reads cannot hold the exit up for more than EXIT_FLUSH_MS.
 */
export function exitAfterLogs(logger: Logger, code: number): void {
  const exit = () => process.exit(code);
  const stdout = stdouts.get(logger) as (SonicBoom & { _writing?: boolean }) | undefined;
  if (!stdout?._writing) return exit();
  stdout.once('drain', exit);
  setTimeout(exit, EXIT_FLUSH_MS);
}

const EXIT_FLUSH_MS = 5000;
