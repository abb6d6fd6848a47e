import { createServer, type ServerResponse } from 'node:http';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { createDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { createLogger } from './observability/logger.js';
import { ensureDemoWorkspace } from './demo.js';

/** A start-up failure the operator can fix: printed as one line naming the setting. */
class StartupError extends Error {}
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Listens and handles signals; everything else is built by app.ts. */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  // Start-up failures name the setting to look at (never its value: a URL may hold a password).
  let database: Database;
  try {
    database = createDatabase(config.DATABASE_URL, logger);
    await migrateToLatest(database.db);
  } catch (err) {
    throw new StartupError(`DATABASE_URL: cannot open or migrate the database: ${messageOf(err)}`);
  }
  const demo = config.SEED_DEMO ? await ensureDemoWorkspace(database, config.DATABASE_URL) : null;

  const app = buildApp({ config, database, logger });
  await app.ready();
  let stopping = false;
  // Responses still being produced when shutdown starts are told to close their connection, so a
  // keep-alive client does not hold the server open after its last answer.
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    if (stopping) res.setHeader('Connection', 'close');
    app.listener(req, res);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'is already in use' : err.code === 'EACCES' ? 'needs privileges this process lacks' : err.code === 'EADDRNOTAVAIL' ? 'is not an address of this machine' : messageOf(err);
      const what = err.code === 'EADDRNOTAVAIL' ? `HOST: ${config.HOST}` : `PORT: ${config.HOST}:${config.PORT}`;
      reject(new StartupError(`${what} ${why}`));
    });
    server.listen(config.PORT, config.HOST, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const base = `http://${host}:${port}`;

  // The banner is for the person who typed `npm start`, so it goes to stdout as plain text.
  const lines = [
    '',
    `Messaging API listening on ${base} (${database.engine})`,
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

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('shutdown timeout reached; closing remaining connections');
      server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    server.close(async () => {
      await app.close();
      logger.info('stopped');
      process.exit(0);
    });
    // Idle keep-alive sockets would hold server.close() open until they time out.
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  // Expected start-up failures are one line; anything else keeps its stack for whoever debugs it.
  console.error(`Failed to start: ${err instanceof StartupError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
