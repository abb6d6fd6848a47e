import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { createDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { AppError } from './errors/catalogue.js';
import { createLogger, exitAfterLogs, type Logger } from './observability/logger.js';
import { createLoopWatchdog } from './observability/loop-watchdog.js';
import { connectionsRefused } from './observability/metrics.js';
import { ensureDemoWorkspace, type DemoInfo } from './demo.js';
import { prepareJobQueue, startConfiguredRunner, type JobRunner } from './queue/index.js';
import { engineDepsOf } from './engine/context.js';
import { startEngine } from './engine/engine-runner.js';

/**
 * Listens and handles signals; everything else is built by app.ts. With WEB_CONCURRENCY > 1 this
 * process is the primary of a node:cluster: it migrates and seeds once, forks the workers that
 * serve the port, passes signals on to them and restarts one that dies.
 */

/** A start-up failure the operator can fix: printed as one line naming the setting. */
class StartupError extends Error {}
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

/** Opens the database and brings it to the latest migration (and the demo workspace, if asked). */
async function prepareDatabase(config: Config, logger: Logger): Promise<{ database: Database; demo: DemoInfo | null }> {
  let database: Database;
  try {
    database = createDatabase(config.DATABASE_URL);
    await migrateToLatest(database.db);
  } catch (err) {
    // Never the value: a URL may hold a password.
    throw new StartupError(`DATABASE_URL: cannot open or migrate the database: ${messageOf(err)}`);
  }
  try {
    // PostgreSQL: graphile-worker's schema, which every enqueue needs, workers here or not.
    await prepareJobQueue(database, config, logger);
  } catch (err) {
    throw new StartupError(`WORKER_SCHEMA: cannot install the job queue's schema ${config.WORKER_SCHEMA}: ${messageOf(err)}`);
  }
  const demo = config.SEED_DEMO ? await ensureDemoWorkspace(database, config.DATABASE_URL) : null;
  return { database, demo };
}

/** The banner is for the person who typed `npm start`, so it goes to stdout as plain text. */
function printBanner(config: Config, engine: string, port: number, demo: DemoInfo | null) {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const base = `http://${host}:${port}`;
  const processes = config.WEB_CONCURRENCY > 1 ? `, ${config.WEB_CONCURRENCY} server processes` : '';
  const lines = [
    '',
    `Messaging API listening on ${base} (${engine}${processes})`,
    `  Web app:       ${base}/app/  (contacts inbox; paste the workspace API token)`,
    `  GraphiQL:      ${base}/graphql`,
    `  REST base URL: ${base}/v1`,
    `  API reference: ${base}/docs`,
  ];
  if (demo) {
    lines.push(
      '',
      `Demo workspace "${demo.name}" (id ${demo.workspaceId})`,
      `  workspace API token: ${demo.developerToken}`,
      `  user access token:   ${demo.userToken}`,
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer ${demo.developerToken}" ${base}/v1/tags`,
      `  curl "${base}/v1/workspaces?token=${demo.developerToken}"`,
      `  curl -H "Authorization: Bearer ${demo.developerToken}" -H "Content-Type: application/json" \\`,
      `       -d '{"query":"{ contacts(first: 2) { edges { node { fullName tags { name } } } } }"}' ${base}/graphql`,
    );
  } else {
    lines.push(
      '',
      'Every call needs a token; tokens are shown only when they are created. Make one with:',
      '  npm run --silent cli -- workspace create --name "My workspace" --json',
      '  npm run --silent cli -- token create --workspace <id> --kind developer --json',
    );
  }
  console.log(lines.join('\n') + '\n');
}

/** What a connection over MAX_CONNECTIONS gets at once, instead of waiting in a full queue. */
const refusal = JSON.stringify(
  new AppError('serviceUnavailable', { message: 'The server is at its connection limit; retry in a second' }).toEnvelope(),
);

/**
 * Serves the app on the port until a signal. `onListening` gets the port (0 picks a free one).
 *
 * Past capacity: connections beyond MAX_CONNECTIONS are answered 503 with Retry-After as soon as
 * their first request is read (Node's own parser, no framework work) and closed, so a client learns
 * at once instead of waiting behind a full listen queue, and the ones being served keep their pace.
 * Slow clients: headers must arrive within HEADERS_TIMEOUT_MS and the whole request within
 * REQUEST_TIMEOUT_MS (408, checked every second), idle keep-alive connections close after
 * KEEP_ALIVE_TIMEOUT_MS.
 *
 * Stopping: SIGTERM first drains for SHUTDOWN_DRAIN_MS: /readyz answers 503 at once so a load
 * balancer stops routing here, while every request is still served, with `Connection: close` so
 * clients open their next connection elsewhere. Then the port closes, in-flight requests finish
 * (cut off after SHUTDOWN_TIMEOUT_MS), idle connections close, the database closes, exit 0.
 * SIGINT (Ctrl-C at a terminal) skips the drain.
 *
 * Jobs: with RUN_WORKERS (the default) this process also runs the job queue's workers. A signal
 * stops them at once from taking jobs; running ones get WORKER_SHUTDOWN_TIMEOUT_MS to finish and
 * are then released for another process, while the HTTP side drains; the database closes after both.
 */
async function serve(config: Config, logger: Logger, database: Database, onListening: (port: number) => void) {
  const watchdog = createLoopWatchdog({ stallMs: config.EVENT_LOOP_STALL_MS, abortMs: config.EVENT_LOOP_ABORT_MS, logLevel: config.LOG_LEVEL });
  const app = buildApp({ config, database, logger, watchdog });
  await app.ready();

  let stopping = false;
  /** The job workers, once started (null: RUN_WORKERS=false); their stop, once asked. */
  let workers: Promise<JobRunner | null> = Promise.resolve(null);
  let workersStopped: Promise<void> = Promise.resolve();
  /** Open sockets: how many requests each has had answered, and how many it has in flight. */
  const sockets = new Map<Socket, { served: number; busy: number }>();
  const inFlight = new Set<ServerResponse>();
  const overLimit = new WeakSet<Socket>();

  const server = createServer(
    {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
      // Node checks the two time-outs above every 30 s by default: a slow client would hold its
      // socket up to 30 s longer than configured.
      connectionsCheckingInterval: Math.min(1000, config.HEADERS_TIMEOUT_MS),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      if (overLimit.has(req.socket)) {
        connectionsRefused.inc();
        res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(refusal), 'retry-after': '1', connection: 'close' });
        res.end(refusal);
        return;
      }
      const socket = sockets.get(req.socket);
      if (socket) socket.busy++;
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        if (socket) {
          socket.busy--;
          socket.served++;
        }
      });
      if (stopping) res.setHeader('Connection', 'close');
      app.listener(req, res);
    },
  );
  server.on('connection', (socket: Socket) => {
    sockets.set(socket, { served: 0, busy: 0 });
    if (sockets.size > config.MAX_CONNECTIONS) overLimit.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const close = () => {
    logger.info('closing the port; finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('shutdown timeout reached; closing remaining connections');
      server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    // Stop accepting, but not as http.Server#close does, which also destroys every connection
    // without a request in flight, including one just accepted whose request is on its way (the
    // client sees a reset for a request that reached us). Such a connection gets its answer, with
    // `Connection: close`; the callback runs once every connection has closed.
    NetServer.prototype.close.call(server, async () => {
      await workersStopped;
      await app.close();
      await watchdog.stop();
      logger.info('stopped');
      exitAfterLogs(logger, 0);
    });
    // Keep-alive connections idle after an answer are closed now (they would otherwise wait for
    // KEEP_ALIVE_TIMEOUT_MS); those answered during the drain were closed by their answer.
    for (const [socket, state] of sockets) if (state.busy === 0 && state.served > 0) socket.destroy();
  };

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.beginDrain();
    workersStopped = workers.then((runner) => runner?.stop()).catch((err: unknown) => logger.error({ err }, 'stopping the job workers failed'));
    // Answers already being produced close their connection too.
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const drainMs = signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_MS : 0;
    logger.info({ signal, drainMs }, 'shutting down: /readyz is 503; serving with Connection: close until the drain ends');
    if (drainMs > 0) setTimeout(close, drainMs);
    else close();
  };
  // Handlers before the port opens and the banner is printed: whoever reads the banner may signal
  // at once, and a SIGTERM that arrives with no handler kills the process on the spot.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  if (config.RUN_WORKERS) {
    const engine = startEngine(engineDepsOf(app.deps), (tasks) => startConfiguredRunner(database, config, logger, tasks));
    workers = engine;
    let tasks: string[];
    try {
      ({ tasks } = await engine);
    } catch (err) {
      throw new StartupError(`RUN_WORKERS: the job workers could not start: ${messageOf(err)}`);
    }
    logger.info({ engine: database.engine, concurrency: config.WORKER_CONCURRENCY, tasks }, 'job workers running');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'is already in use' : err.code === 'EACCES' ? 'needs privileges this process lacks' : err.code === 'EADDRNOTAVAIL' ? 'is not an address of this machine' : messageOf(err);
      const what = err.code === 'EADDRNOTAVAIL' ? `HOST: ${config.HOST}` : `PORT: ${config.HOST}:${config.PORT}`;
      reject(new StartupError(`${what} ${why}`));
    });
    // Ready to serve: from here on a blocked loop is a stall.
    watchdog.start();
    server.listen(config.PORT, config.HOST, resolve);
  });
  const address = server.address();
  onListening(typeof address === 'object' && address ? address.port : config.PORT);
}

/** One process serving the port. */
async function runSingle(config: Config) {
  const logger = createLogger(config.LOG_LEVEL);
  const { database, demo } = await prepareDatabase(config, logger);
  await serve(config, logger, database, (port) => printBanner(config, database.engine, port, demo));
}

/**
 * The cluster's primary: prepares the database once, forks WEB_CONCURRENCY workers (they share the
 * port: the primary accepts and hands connections out), prints the banner when the first listens,
 * passes SIGTERM/SIGINT on and exits when every worker has stopped. A worker that dies unasked is
 * replaced. Rate limits are per process unless REDIS_URL shares them.
 */
async function runPrimary(config: Config) {
  const logger = createLogger(config.LOG_LEVEL);
  const { database, demo } = await prepareDatabase(config, logger);
  await database.destroy();
  if (!config.REDIS_URL) logger.warn('WEB_CONCURRENCY > 1 without REDIS_URL: each server process counts rate limits on its own');

  let stopping = false;
  let bannerShown = false;
  const fork = () => cluster.fork({ SEED_DEMO: 'false' });
  cluster.on('listening', (_worker, address) => {
    if (bannerShown) return;
    bannerShown = true;
    printBanner(config, database.engine, address.port, demo);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!bannerShown) {
      // A worker that cannot start (port in use, ...) has said why on stderr: stop, as one process would.
      console.error(`Failed to start: server process ${worker.process.pid} exited with ${code ?? signal}`);
      process.exit(1);
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'server process died; starting another');
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
}

/** A cluster worker: the database is already migrated and seeded by the primary. */
async function runWorker(config: Config) {
  const logger = createLogger(config.LOG_LEVEL);
  const database = createDatabase(config.DATABASE_URL);
  await serve(config, logger, database, () => {});
}

async function main() {
  const config = configOrExit();
  if (config.WEB_CONCURRENCY === 1) return runSingle(config);
  return cluster.isPrimary ? runPrimary(config) : runWorker(config);
}

main().catch((err) => {
  // Expected start-up failures are one line; anything else keeps its stack for whoever debugs it.
  console.error(`Failed to start: ${err instanceof StartupError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
