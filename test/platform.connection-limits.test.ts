import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/processes.js';
import { freshDatabaseUrl, type TestDatabaseUrl } from './support/engine.js';

/**
 * Slow and surplus clients on the real server: headers trickled a byte at a time are cut off
 * after HEADERS_TIMEOUT_MS with 408 (not a minute later, as Node's defaults would), and a
 * connection beyond MAX_CONNECTIONS is answered 503 with Retry-After at once, while the
 * connections within the cap are served.
 */
interface RawConnection {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
}

function open(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => (received += d));
    const closed = new Promise<string>((r) => socket.once('close', () => r(received)));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

describe('connection limits', () => {
  let server: RunningServer;
  let target: TestDatabaseUrl;
  beforeAll(async () => {
    target = await freshDatabaseUrl();
    server = await startServer({ DATABASE_URL: target.url, SEED_DEMO: 'false', LOG_LEVEL: 'warn', HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', MAX_CONNECTIONS: '3' });
  });
  afterAll(async () => {
    await server.stop();
    await target.drop();
  });

  it('cuts off headers that trickle in with 408 after HEADERS_TIMEOUT_MS', async () => {
    const slow = await open(server.port);
    const started = Date.now();
    const request = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';
    let i = 0;
    // A byte every 100 ms: the headers would take minutes to complete.
    const drip = setInterval(() => {
      if (!slow.socket.destroyed) slow.socket.write(i < request.length ? request[i++] : 'a');
    }, 100);
    const answer = await slow.closed;
    clearInterval(drip);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    // Cut by the 1-second limit (checked every second), not by Node's 60-second default.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('answers connections beyond MAX_CONNECTIONS with 503 and Retry-After, and serves the others', async () => {
    const held = await Promise.all([open(server.port), open(server.port), open(server.port)]);
    // Within the cap: served, kept alive.
    held[0].socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const surplus = await open(server.port);
    surplus.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const refused = await surplus.closed;
    expect(refused).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(refused).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(refused).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toEqual({
      defined: false,
      code: 'serviceUnavailable',
      status: 503,
      message: 'The server is at its connection limit; retry in a second',
    });
    for (const c of held) c.socket.end();
    await Promise.all(held.map((c) => c.closed));
    expect(await held[0].closed).toMatch(/^HTTP\/1\.1 200 /);

    // Once the server has seen them go (it may take a moment after our side closed), a new
    // connection is served again.
    let answer = '';
    for (let attempt = 0; attempt < 50 && !answer.startsWith('HTTP/1.1 200 '); attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50));
      const after = await open(server.port);
      after.socket.end('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      answer = await after.closed;
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
