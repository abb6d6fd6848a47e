import { Agent, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { freshDatabaseUrl, type TestDatabaseUrl } from './support/engine.js';
import { startServer, type RunningServer } from './support/processes.js';

/**
 * SIGTERM under keep-alive load, as a load balancer sees it: /readyz turns 503 at once, and every
 * request that reaches the server during SHUTDOWN_DRAIN_MS is answered (with `Connection: close`,
 * so the client's next request opens a new connection) until the balancer, having seen the 503,
 * sends no more; then the port closes. Before, the next request on every open keep-alive
 * connection was reset.
 *
 * (A client that keeps opening connections until the port closes can still meet a reset: Linux
 * resets connections that completed their handshake but were not yet accepted when the listening
 * socket closes. That is what the drain is for: balancers stop sending first.)
 */
/** `sentDraining`: sent once the client had seen /readyz answer 503, so the server was draining. */
type Outcome = { status: number; connection: string | undefined; sentDraining: boolean } | { error: string; sentDraining: boolean };

function get(base: string, path: string, agent: Agent | false, token?: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { agent, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('SIGTERM drains before closing', () => {
  let server: RunningServer | undefined;
  let target: TestDatabaseUrl | undefined;
  afterEach(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await server?.exited;
    await target?.drop();
    server = target = undefined;
  });

  it('answers every request that reaches it over 16 busy keep-alive connections, /readyz 503 at once', async () => {
    target = await freshDatabaseUrl();
    const database = createDatabase(target.url);
    await migrateToLatest(database.db);
    const token = (await createWorkspace(database.db, { name: 'Drain' })).tokens.developer.token;
    await database.destroy();
    server = await startServer({
      DATABASE_URL: target.url,
      SEED_DEMO: 'false',
      // Long enough for the balancer below to notice on a loaded machine; the test waits for facts, not for it.
      SHUTDOWN_DRAIN_MS: '8000',
      RATE_LIMIT_IP_POINTS: '1000000',
      RATE_LIMIT_WORKSPACE_POINTS: '1000000',
    });
    const base = server.base;

    let seenDraining = false;
    // The load balancer stops sending once it has seen /readyz fail.
    let balancerSawNotReady = false;
    const outcomes: Outcome[] = [];
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const deadline = Date.now() + 30_000;
    // Each loop sends back to back until the balancer takes this server out (or a bounded time passes).
    const loop = async () => {
      while (Date.now() < deadline && !balancerSawNotReady) {
        const sentDraining = seenDraining;
        try {
          outcomes.push({ ...(await get(base, '/v1/tags', agent, token)), sentDraining });
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
          outcomes.push({ error: code, sentDraining });
        }
      }
    };
    const loops = Array.from({ length: 16 }, loop);
    while (outcomes.length < 200) await new Promise((r) => setTimeout(r, 10));

    expect((await get(base, '/readyz', false)).status).toBe(200);
    server.child.kill('SIGTERM');
    // Not ready from the moment the signal is handled, while still answering.
    let ready = await get(base, '/readyz', false);
    while (ready.status === 200) ready = await get(base, '/readyz', false);
    expect(ready).toEqual({ status: 503, connection: 'close' });
    seenDraining = true;
    // Traffic goes on while the balancer has not noticed yet: the drain is for that. (When the
    // server handles the signal is its own affair: only requests sent once it was seen draining
    // are known to reach it draining.)
    while (outcomes.filter((o) => o.sentDraining).length < 50) await new Promise((r) => setTimeout(r, 10));
    balancerSawNotReady = true;

    await Promise.all(loops);
    const exit = await server.exited;
    agent.destroy();
    expect(exit.code).toBe(0);

    // Every request sent was answered, before and after the signal.
    expect(outcomes.filter((o) => 'error' in o)).toEqual([]);
    expect(outcomes.every((o) => 'status' in o && o.status === 200)).toBe(true);
    // During the drain, every answer closes its connection.
    const duringDrain = outcomes.filter((o): o is Extract<Outcome, { status: number }> => o.sentDraining && 'status' in o);
    expect(duringDrain.length).toBeGreaterThanOrEqual(50);
    expect(duringDrain.filter((o) => o.connection !== 'close')).toEqual([]);
    // And the port is closed now.
    await expect(get(base, '/healthz', false)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
