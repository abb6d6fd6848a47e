// A program for platform.exit-logs.test.ts: logs one short line on the real stdout logger, far
// less than a batch, and then stays alive doing nothing until it is killed.
import { createLogger } from '../../src/observability/logger.js';

const logger = createLogger('info');
logger.info({ pid: process.pid }, 'alone');
setTimeout(() => undefined, 60_000);
