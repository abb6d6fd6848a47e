import { Logger as GraphileLogger, type LogLevel } from 'graphile-worker';
import type { Logger } from '../observability/logger.js';

/**
 * graphile-worker's log lines into our pino logger. It logs every completed job at info: that is
 * debug for us (the job's own work logs what matters); its warnings and errors keep their level.
 */
export function graphileLogger(logger: Logger): GraphileLogger {
  const log = logger.child({ component: 'graphile-worker' });
  return new GraphileLogger(() => (level: LogLevel, message: string, meta?: unknown) => {
    const fields = meta && typeof meta === 'object' && 'error' in meta ? { err: (meta as { error: unknown }).error } : {};
    if (String(level) === 'error') log.error(fields, message);
    else if (String(level) === 'warning') log.warn(fields, message);
    else log.debug(fields, message);
  });
}
