import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { freshDatabaseUrl, redisUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { T0 } from './support/fixtures.js';
import { startServer, startWorker, type Finished, type RunningServer } from './support/processes.js';
import { workerSchemaForTest } from './support/queue.js';
import { EVENTS, subscribe } from './support/sse.js';

/**
 * `Subscription.events` across real processes, as an operator runs them: SIGTERM ends every open
 * stream and the server exits at once; on PostgreSQL, an event recorded by `npm run worker` reaches
 * a server's stream by polling alone, and with Redis one server's event reaches another's stream
 * long before its poll would (EVENTS_POLL_MS=60000).
 */
describe(`Subscription.events across processes on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let database: Database;
  const workerSchema = workerSchemaForTest();
  const running: { stop: () => Promise<unknown> }[] = [];

  beforeAll(async () => {
    target = await freshDatabaseUrl();
  });
  afterEach(async () => {
    for (const p of running.splice(0)) await p.stop();
  });
  afterAll(async () => {
    await database?.destroy();
    await target?.drop();
  });

  const serve = async (env: Record<string, string> = {}): Promise<RunningServer> => {
    const server = await startServer({ DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema, SEED_DEMO: 'false', LOG_LEVEL: 'warn', ...env });
    running.push(server);
    // The server migrated the database: the test writes to it from here on.
    database ??= createDatabase(target.url);
    return server;
  };
  const workspace = async (developmentMode = false) => {
    const created = await createWorkspace(database.db, { name: 'Streams', developmentMode });
    return { id: created.workspace.id, token: created.tokens.developer.token };
  };
  const call = async (base: string, token: string, method: string, path: string, body: unknown) => {
    const text = JSON.stringify(body);
    const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, body: text });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return res.json();
  };

  it('SIGTERM ends every open stream (saying why), its connection closes and the server exits at once', async () => {
    const server = await serve({ EVENTS_POLL_MS: '100', SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_TIMEOUT_MS: '60000' });
    const ws = await workspace();
    const stream = await subscribe(server.base, EVENTS, { token: ws.token });
    const contact = await call(server.base, ws.token, 'POST', '/v1/contacts', { email: 'sig@example.com', firstName: 'Sig' });
    expect((await stream.result()).data.events).toMatchObject({ type: 'newContact', contact: { rawId: contact.id, firstName: 'Sig' } });

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    expect(await stream.rest()).toEqual([
      {
        data: null,
        errors: [
          {
            message: 'The server is shutting down: subscribe again, with `after` set to the last event id you received, to go on from there',
            locations: [{ line: 2, column: 3 }],
            path: ['events'],
            extensions: { defined: false, code: 'serviceUnavailable', status: 503 },
          },
        ],
      },
    ]);
    await stream.closed;
    const finished: Finished = await server.exited;
    expect(finished.code).toBe(0);
    // Well before SHUTDOWN_TIMEOUT_MS: nothing was left open to cut off.
    expect(finished.stdout).not.toContain('shutdown timeout reached');
    expect(Date.now() - signalled).toBeLessThan(20_000);
  }, 60_000);

  it.runIf(testEngine === 'postgres')('an event recorded by `npm run worker` reaches a server\'s stream (no Redis: the server polls)', async () => {
    const server = await serve({ RUN_WORKERS: 'false', EVENTS_POLL_MS: '200' });
    const worker = startWorker({ DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema, LOG_LEVEL: 'warn', WORKER_POLL_INTERVAL_MS: '100' });
    running.push(worker);
    await worker.ready;

    const ws = await workspace(true);
    const PAGE = `page-${ws.id}`;
    await database.db.insertInto('inboxes').values({ workspace_id: ws.id, name: 'Page', channel: 'net', source_id: PAGE, status: 'active', created_at: T0, updated_at: T0 }).execute();
    const stream = await subscribe(server.base, EVENTS, { token: ws.token, variables: { types: ['newContact'] } });

    // The server stores the message and enqueues its job; the worker makes the contact, and records newContact.
    const sender = `psid-${ws.id}`;
    const res = await call(server.base, ws.token, 'POST', '/v1/dev/events', {
      channel: 'net',
      entry: [{ id: PAGE, messaging: [{ sender: { id: sender }, recipient: { id: PAGE }, timestamp: Date.now(), message: { mid: `m-${ws.id}`, text: 'Hello' } }] }],
      profiles: [{ id: sender, firstName: 'Grace', lastName: 'Hopper', name: 'Grace Hopper' }],
    });
    expect(res).toMatchObject({ stored: 1 });
    const event = (await stream.result(20_000)).data.events;
    expect(event).toMatchObject({ type: 'newContact', data: { event: 'new_contact', first_name: 'Grace', last_name: 'Hopper' }, contact: { firstName: 'Grace', tags: [] } });
    stream.close();
  }, 90_000);

  it.runIf(testEngine === 'postgres' && redisUrl !== undefined)(
    'with Redis, an event recorded by one server wakes another server\'s stream at once (its poll is a minute away)',
    async () => {
      const env = { REDIS_URL: redisUrl!, EVENTS_POLL_MS: '60000', RUN_WORKERS: 'false' };
      const [a, b] = [await serve(env), await serve(env)];
      const ws = await workspace();
      const contact = await call(a.base, ws.token, 'POST', '/v1/contacts', { email: 'redis@example.com', firstName: 'Ria' });
      const tag = await call(a.base, ws.token, 'POST', '/v1/tags', { name: 'Shared' });
      const stream = await subscribe(b.base, EVENTS, { token: ws.token, variables: { types: ['tagApplied'] } });

      const sent = Date.now();
      await call(a.base, ws.token, 'POST', `/v1/contacts/${contact.id}/tags`, { tagIds: [tag.id] });
      const event = (await stream.result(20_000)).data.events;
      expect(event).toMatchObject({ type: 'tagApplied', data: { tag: 'Shared' }, contact: { rawId: contact.id, tags: [{ name: 'Shared' }] } });
      // Far from the 60 s poll: only the wake-up through Redis can have brought it.
      expect(Date.now() - sent).toBeLessThan(20_000);
      stream.close();
    },
    90_000,
  );
});
