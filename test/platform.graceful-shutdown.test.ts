import { existsSync } from 'node:fs';
import { request as httpRequest, Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { startServer, type RunningServer } from './support/processes.js';

/**
 * SIGTERM on the real server: it stops accepting connections at once, lets in-flight requests
 * finish (here a POST whose body is still being uploaded when the signal arrives), closes the
 * database and exits 0. Idle keep-alive connections do not hold it up; a request that never
 * finishes is cut off after SHUTDOWN_TIMEOUT_MS.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function preparedDatabase(): Promise<{ target: TestDatabaseUrl; token: string }> {
  const target = await freshDatabaseUrl();
  const database = createDatabase(target.url);
  await migrateToLatest(database.db);
  const created = await createWorkspace(database.db, { name: 'Shutdown' });
  await database.destroy();
  return { target, token: created.tokens.developer.token };
}

/** Starts a POST /v1/contacts and sends only the first part of its body. */
function startUpload(server: RunningServer, token: string, body: string) {
  let req!: ClientRequest;
  const response = new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
    req = httpRequest(
      `${server.base}/v1/contacts`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  const connected = new Promise<void>((resolve) => req.once('socket', (socket) => (socket.connecting ? socket.once('connect', () => resolve()) : resolve())));
  return { response, connected, finish: () => req.end(body.slice(10)) };
}

/** A new connection: resolves with the status, or the connection error's code. */
function tryConnect(base: string): Promise<string | number> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}/healthz`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

describe('graceful shutdown on SIGTERM', () => {
  let server: RunningServer | undefined;
  let target: TestDatabaseUrl | undefined;
  afterEach(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await server?.exited;
    await target?.drop();
    server = target = undefined;
  });

  it('finishes the in-flight upload, refuses new connections, closes the database and exits 0', async () => {
    const prepared = await preparedDatabase();
    target = prepared.target;
    // Keep-alive and request time-outs far beyond the test, so only the shutdown can end it soon.
    server = await startServer({ DATABASE_URL: target.url, SEED_DEMO: 'false', LOG_LEVEL: 'info', KEEP_ALIVE_TIMEOUT_MS: '120000', REQUEST_TIMEOUT_MS: '120000' });
    expect(await tryConnect(server.base)).toBe(200);

    const upload = startUpload(server, prepared.token, JSON.stringify({ email: 'inflight@example.com', firstName: 'Late' }));
    await upload.connected;
    // A request on a second connection, answered after the first was accepted and its headers
    // read: the upload is in flight, waiting for the rest of its body.
    expect(await tryConnect(server.base)).toBe(200);
    server.child.kill('SIGTERM');
    // Once the signal is handled, the port is closed: new connections are refused...
    let attempt = await tryConnect(server.base);
    for (let i = 0; i < 50 && attempt !== 'ECONNREFUSED'; i++) {
      await sleep(100);
      attempt = await tryConnect(server.base);
    }
    expect(attempt).toBe('ECONNREFUSED');
    // ...while the process keeps serving the upload.
    await sleep(200);
    expect(server.child.exitCode).toBeNull();

    upload.finish();
    const res = await upload.response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ email: 'inflight@example.com', firstName: 'Late' });
    // The server says it is closing this connection rather than keeping it alive.
    expect(res.headers.connection).toBe('close');

    const answeredAt = Date.now();
    const exit = await server.exited;
    expect(exit.code).toBe(0);
    expect(exit.signal).toBeNull();
    // Not held open until a 120-second time-out.
    expect(Date.now() - answeredAt).toBeLessThan(30_000);
    const lines = exit.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const stopping = lines.findIndex((l) => l.msg === 'closing the port; finishing in-flight requests');
    expect(stopping).toBeGreaterThan(-1);
    // After the signal: the upload's access line, then the last word.
    const after = lines.slice(stopping + 1);
    expect(after.find((l) => l.route === '/v1/contacts')).toMatchObject({ msg: 'request', method: 'POST', status: 200 });
    expect(after.at(-1)).toMatchObject({ msg: 'stopped' });
    expect(exit.stderr).toBe('');
    if (testEngine === 'sqlite') {
      // better-sqlite3 checkpoints and removes the write-ahead log when the last connection closes.
      expect(existsSync(`${target.url}-wal`)).toBe(false);
    }
  });

  it('exits promptly with idle keep-alive connections open', async () => {
    const prepared = await preparedDatabase();
    target = prepared.target;
    server = await startServer({ DATABASE_URL: target.url, SEED_DEMO: 'false', LOG_LEVEL: 'warn', KEEP_ALIVE_TIMEOUT_MS: '120000' });
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      httpRequest(`${server!.base}/v1/tags`, { agent, headers: { authorization: `Bearer ${prepared.token}` } }, (res) => {
        res.resume();
        res.on('end', resolve);
      })
        .on('error', reject)
        .end();
    });
    const started = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    agent.destroy();
    expect(exit.code).toBe(0);
    // Not held open until the 120-second keep-alive timeout closes the idle socket.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('cuts off a request that never finishes after SHUTDOWN_TIMEOUT_MS, and still exits 0', async () => {
    const prepared = await preparedDatabase();
    target = prepared.target;
    server = await startServer({ DATABASE_URL: target.url, SEED_DEMO: 'false', LOG_LEVEL: 'warn', SHUTDOWN_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '120000' });
    const upload = startUpload(server, prepared.token, JSON.stringify({ email: 'never@example.com' }));
    upload.response.catch(() => {}); // the connection is reset
    await upload.connected;
    expect(await tryConnect(server.base)).toBe(200);
    const started = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit.code).toBe(0);
    // Cut off by SHUTDOWN_TIMEOUT_MS, not by the 120-second request time-out.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(exit.stdout).toContain('shutdown timeout reached; closing remaining connections');
  });
});
