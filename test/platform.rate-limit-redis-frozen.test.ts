import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * A Redis that accepts connections and then answers nothing (frozen: a stuck primary, a full
 * network buffer) must not make every request wait for the rate-limit command to time out. After
 * the first time-out, the service stops asking Redis for REDIS_RETRY_AFTER_MS and counts in memory,
 * then asks again. Played by a local server that speaks just enough of Redis' protocol to pass the
 * client's ready check (INFO), then never answers; it counts the commands it receives.
 */
class FrozenRedis {
  private server!: Server;
  private sockets = new Set<Socket>();
  /** Commands received after the ready check (RESP arrays). */
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

describe('a frozen Redis', () => {
  let redis: FrozenRedis;
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    redis = await new FrozenRedis();
    await redis.start();
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${redis.port}`, REDIS_RETRY_AFTER_MS: '3000', RATE_LIMIT_WORKSPACE_POINTS: '5' }, { captureLogs: true });
    ws = await t.workspace();
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('is asked once per REDIS_RETRY_AFTER_MS; meanwhile limits are counted in memory, and enforced', async () => {
    const first = await t.request('GET', '/v1/tags', { token: ws.developerToken });
    expect(first.status).toBe(200);
    const asked = redis.commands;
    expect(asked).toBeGreaterThan(0);
    expect(t.logs.filter((l) => /^redis command failed/.test(l.msg))).toHaveLength(1);

    // The breaker is open: nothing more reaches Redis, and the budget still binds (5 per window).
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.request('GET', '/v1/tags', { token: ws.developerToken })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(redis.commands).toBe(asked);
    expect(t.logs.filter((l) => /^redis command failed/.test(l.msg))).toHaveLength(1);

    // After the period, Redis is asked again (and, still frozen, trips the breaker once more).
    await new Promise((r) => setTimeout(r, 3100));
    await t.request('GET', '/healthz');
    await t.request('GET', '/v1/tags', { token: ws.developerToken });
    expect(redis.commands).toBeGreaterThan(asked);
    expect(t.logs.filter((l) => /^redis command failed/.test(l.msg))).toHaveLength(2);
  });
});
