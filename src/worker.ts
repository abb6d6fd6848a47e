import { ConfigError, isPostgresUrl, loadConfig, type Config } from './config/config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { createLogger, exitAfterLogs } from './observability/logger.js';
import { createLoopWatchdog } from './observability/loop-watchdog.js';
import { prepareJobQueue, startConfiguredRunner, type JobRunner } from './queue/index.js';
import { createChannelAdapter } from './channels/registry.js';
import { engineDepsOf } from './engine/context.js';
import { createImageServices } from './imaging/image-services.js';
import { startEngine } from './engine/engine-runner.js';
import { jobQueue } from './queue/enqueue.js';
import { createContactFileServices } from './domain/contact-transfers/contact-file.service.js';

/**
 * `npm run worker`: a process that runs the job queue's workers without the HTTP server, for
 * PostgreSQL, where any number of server and worker processes share the jobs. SQLite's queue is
 * run by the server process (the embedded database belongs to one process), so there it refuses.
 *
 * Like the server: signal handlers first, then work. SIGTERM or SIGINT stops taking jobs, lets the
 * running ones finish for WORKER_SHUTDOWN_TIMEOUT_MS, releases the rest for another process, exit 0.
 */

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

async function main() {
  const config = configOrExit();
  if (!isPostgresUrl(config.DATABASE_URL)) {
    console.error('npm run worker needs PostgreSQL (DATABASE_URL=postgres://...): on SQLite the server process runs the jobs (RUN_WORKERS=true, the default)');
    process.exit(1);
  }
  const logger = createLogger(config.LOG_LEVEL);
  const database = createDatabase(config.DATABASE_URL);

  let runner: Promise<JobRunner | null> = Promise.resolve(null);
  let images: ReturnType<typeof createImageServices> | null = null;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: no new jobs; running ones finish or are released');
    void runner
      .then((r) => r?.stop())
      .catch((err: unknown) => logger.error({ err }, 'stopping the job workers failed'))
      .then(() => images?.close())
      .then(() => database.destroy())
      .then(() => {
        logger.info('stopped');
        exitAfterLogs(logger, 0);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  try {
    await migrateToLatest(database.db);
    await prepareJobQueue(database, config, logger);
  } catch (err) {
    throw new Error(`DATABASE_URL: cannot open or migrate the database: ${messageOf(err)}`);
  }
  if (stopping) return;
  images = createImageServices(config, database.engine, logger);
  const deps = engineDepsOf({ database, config, logger, queue: jobQueue({ workerSchema: config.WORKER_SCHEMA }), adapter: createChannelAdapter(config, database.db), images, files: createContactFileServices(config, database.engine) });
  runner = startEngine(deps, (tasks) => startConfiguredRunner(database, config, logger, tasks));
  await runner;
  // A job that blocks the loop stalls every other job of this process: logged, and past
  // EVENT_LOOP_ABORT_MS the process is killed for its supervisor to replace (its jobs are released).
  createLoopWatchdog({ stallMs: config.EVENT_LOOP_STALL_MS, abortMs: config.EVENT_LOOP_ABORT_MS, logLevel: config.LOG_LEVEL }).start();
  console.log(`Job worker running (postgres, schema ${config.WORKER_SCHEMA}, ${config.WORKER_CONCURRENCY} jobs at a time); SIGTERM stops it gracefully`);
}

main().catch((err) => {
  console.error(`Failed to start: ${messageOf(err)}`);
  process.exit(1);
});
