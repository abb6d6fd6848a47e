import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/** Commands of a client's connection set-up, not of the rate limiter. */
const handshake = new Set(['CLIENT', 'SELECT', 'PING', 'QUIT']);

/**
 * A Redis that accepts connections and then answers nothing (frozen: a stuck primary, a full
 * network buffer) must not make every request wait for the rate-limit command to time out. After
 * the first time-out, the service stops asking Redis for REDIS_RETRY_AFTER_MS and counts in memory,
 * then asks again. Played by a local server that speaks just enough of Redis' protocol to complete
 * the client's connection set-up (INFO, CLIENT SETINFO), then never answers; it counts the
 * commands it receives.
 */
class FrozenRedis {
  private server!: Server;
  private sockets = new Set<Socket>();
  /** The rate limiter's commands received (RESP arrays), not those of the connection set-up. */
  commands = 0;
  port = 0;

  async start() {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      let buffered = '';
      socket.on('data', (chunk) => {
        buffered += chunk.toString('latin1');
        // Every command is an array of bulk strings: `*<n>\r\n` then `$<len>\r\n<bytes>\r\n` n times.
        for (;;) {
          const parsed = parseCommand(buffered);
          if (!parsed) break;
          buffered = buffered.slice(parsed.length);
          if (parsed.name === 'INFO') {
            const info = '# Server\r\nredis_version:7.0.0\r\n# Persistence\r\nloading:0\r\n';
            socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
          } else if (handshake.has(parsed.name)) {
            // The client's connection set-up (CLIENT SETINFO, ...) is answered, so the connection
            // becomes ready and the limiter's own commands are really sent (not refused by the
            // client as "stream not writeable", which counted reconnects instead of commands).
            socket.write('+OK\r\n');
          } else {
            this.commands++; // frozen: never answered
          }
        }
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
  }

  async stop() {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

function parseCommand(text: string): { name: string; length: number } | null {
  const head = /^\*(\d+)\r\n/.exec(text);
  if (!head) return null;
  let at = head[0].length;
  const parts: string[] = [];
  for (let i = 0; i < Number(head[1]); i++) {
    const bulk = /^\$(\d+)\r\n/.exec(text.slice(at));
    if (!bulk) return null;
    const start = at + bulk[0].length;
    const end = start + Number(bulk[1]);
    if (text.length < end + 2) return null;
    parts.push(text.slice(start, end));
    at = end + 2;
  }
  return { name: (parts[0] ?? '').toUpperCase(), length: at };
}

/**
 * The period is checked in two apps, so no assertion depends on how fast this machine runs: one
 * whose period (60 s) outlasts the test, which must not ask Redis again; one that waits past its
 * period (1 s) before its next request, which must ask again.
 */
describe('a frozen Redis', () => {
  let redis: FrozenRedis;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    redis = new FrozenRedis();
    await redis.start();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await redis.stop();
  });
  const appWithPeriod = async (ms: number) => {
    const t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${redis.port}`, REDIS_RETRY_AFTER_MS: String(ms), RATE_LIMIT_WORKSPACE_POINTS: '5' }, { captureLogs: true });
    apps.push(t);
    return { t, ws: await t.workspace() };
  };
  const trips = (t: TestApp) => t.logs.filter((l) => /^redis command failed/.test(l.msg)).length;

  it('is not asked again within REDIS_RETRY_AFTER_MS; meanwhile limits are counted in memory, and enforced', async () => {
    const before = redis.commands;
    const { t, ws } = await appWithPeriod(60_000);
    // The first command this app sends (while setting up, or for this first request) times out and
    // opens the breaker: once.
    const first = await t.request('GET', '/v1/tags', { token: ws.developerToken });
    expect(first.status).toBe(200);
    const asked = redis.commands;
    expect(asked).toBeGreaterThan(before);
    expect(trips(t)).toBe(1);

    // The breaker is open: nothing more reaches Redis, and the budget still binds (5 per window).
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.request('GET', '/v1/tags', { token: ws.developerToken })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(redis.commands).toBe(asked);
    expect(trips(t)).toBe(1);
  });

  it('is asked again once the period has passed (and, still frozen, trips the breaker once more)', async () => {
    const { t, ws } = await appWithPeriod(1000);
    expect((await t.request('GET', '/v1/tags', { token: ws.developerToken })).status).toBe(200);
    const asked = redis.commands;
    const tripped = trips(t);
    expect(tripped).toBe(1);
    // Waiting longer than the period is all that matters here; a slow machine only waits longer.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.request('GET', '/v1/tags', { token: ws.developerToken })).status).toBe(200);
    expect(redis.commands).toBeGreaterThan(asked);
    expect(trips(t)).toBe(tripped + 1);
  });
});
