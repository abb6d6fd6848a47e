// A program for platform.exit-logs.test.ts: logs 800 numbered lines of about 1 KB on the real
// stdout logger, half of them on a later turn (while the first write is still on its way), then
// 'stopped', and exits as a graceful stop does (exitAfterLogs).
import { createLogger, exitAfterLogs } from '../../src/observability/logger.js';

const logger = createLogger('info');
const pad = 'x'.repeat(1000);
for (let i = 0; i < 400; i++) logger.info({ i, pad }, 'line');
setTimeout(() => {
  for (let i = 400; i < 800; i++) logger.info({ i, pad }, 'line');
  logger.info('stopped');
  exitAfterLogs(logger, 0);
}, 10);
