import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { shareWakeups, WAKEUPS_CHANNEL } from '../src/http/event-wakeups.js';
import { createLogger } from '../src/observability/logger.js';
import { redisUrl, testEngine } from './support/engine.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { waitFor } from './support/queue.js';
import { EVENTS, subscribe } from './support/sse.js';

/**
 * Wake-ups shared through Redis are only hints: with Redis unreachable, requests and streams go on
 * (events arrive by polling); with Redis, a process hears the others' wake-ups, not its own, and
 * passes none on.
 */
describe(`event subscriptions and Redis on ${testEngine}`, () => {
  const closers: (() => Promise<unknown> | unknown)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('Redis unreachable: requests are answered and a stream still gets its events (by polling)', async () => {
    // Nothing listens on port 9 (discard): every connection is refused.
    const t: TestApp = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:9', EVENTS_POLL_MS: '100' });
    closers.push(() => t.close());
    const server: Server = createServer(t.app.listener);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    closers.push(() => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(ok));
    });
    const ws = await t.workspace();
    const stream = await subscribe(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, EVENTS, { token: ws.developerToken });
    const created = await t.request('POST', '/v1/contacts', { token: ws.developerToken, body: { email: 'down@example.com', firstName: 'Dot' } });
    expect(created.status).toBe(200);
    expect((await stream.result()).data.events).toMatchObject({ type: 'newContact', contact: { rawId: created.body.id, firstName: 'Dot' } });
    stream.close();
  });

  it.runIf(redisUrl !== undefined)('a process hears the other processes\' wake-ups, not its own, and passes none on', async () => {
    const logger = createLogger('silent');
    const connect = () => {
      const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
      closers.push(() => redis.quit());
      return redis;
    };
    const heard = { a: [] as number[], b: [] as number[] };
    const a = shareWakeups(connect(), logger, (id) => heard.a.push(id));
    const b = shareWakeups(connect(), logger, (id) => heard.b.push(id));
    closers.push(() => a.close(), () => b.close());
    // Everything said on the channel, as a third party hears it.
    const listener = connect().duplicate({ enableOfflineQueue: true });
    closers.push(() => listener.quit());
    const said: string[] = [];
    listener.on('message', (_channel: string, message: string) => said.push(message));
    await listener.subscribe(WAKEUPS_CHANNEL);
    await Promise.all([a.settled, b.settled]);

    // Publishing fails while a's connection is not ready yet (no offline queue): say it until heard.
    const workspaceId = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    await waitFor('b to hear a', async () => {
      a.publish(workspaceId);
      await new Promise((ok) => setTimeout(ok, 50));
      return heard.b.includes(workspaceId);
    });
    const marker = workspaceId + 1;
    await waitFor('the channel to carry a marker after it', async () => {
      a.publish(marker);
      await new Promise((ok) => setTimeout(ok, 50));
      return said.some((m) => m.endsWith(` ${marker}`));
    });
    // Other test files' servers share this Redis and channel: only this test's ids are judged.
    const ours = (id: number) => id === workspaceId || id === marker;
    expect(heard.a.filter(ours)).toEqual([]);
    // b woke its own readers and said nothing: every message about these ids came from a.
    expect(new Set(said.filter((m) => ours(Number(m.split(' ')[1]))).map((m) => m.split(' ')[0])).size).toBe(1);
  });
});
