import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    // Tokens travel in Authorization headers and ?token=; neither belongs in a log line.
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
  });
}
