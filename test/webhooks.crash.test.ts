import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { unlimited } from './support/endpoints.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/processes.js';
import { waitFor, workerSchemaForTest } from './support/queue.js';
import { ok, startReceiver, verified, type Received, type Receiver } from './support/webhook-receiver.js';

const CONCURRENCY = 4;

/**
 * kill -9 of a real server process with outbound webhooks on the way. Events are recorded in the
 * transaction of the change, fanned out to deliveries in one transaction, and each attempt is
 * recorded after its POST: so after a restart on the same database (SQLite file, PostgreSQL
 * schema) every event reaches the receiver at least once, and a POST the dead process made but
 * never recorded is sent again with the same `webhook-id` (and body).
 *
 * Mid-flight is made certain, not timed: the receiver answers the first ten POSTs and holds every
 * later one open, so when the server is killed WORKER_CONCURRENCY attempts are on the wire,
 * unrecorded. (Their jobs come back once the dead process's claim expires: SQLite's 30 s lease, or
 * on PostgreSQL four missed heartbeats of 250 ms.)
 */
describe(`webhooks: kill -9 on ${testEngine}`, () => {
  let target: TestDatabaseUrl;
  let database: Database;
  let receiver: Receiver;
  let workspaceId: number;
  let token: string;
  let tagId: number;
  let contacts: number[];
  const workerSchema = workerSchemaForTest();
  const servers: RunningServer[] = [];

  const start = (env: Record<string, string> = {}) =>
    startServer(
      {
        ...unlimited,
        DATABASE_URL: target.url,
        WORKER_SCHEMA: workerSchema,
        SEED_DEMO: 'false',
        OUTBOUND_ALLOWED_HOSTS: receiver.host,
        WORKER_CONCURRENCY: String(CONCURRENCY),
        WORKER_POLL_INTERVAL_MS: '100',
        WORKER_HEARTBEAT_MS: '250',
        EVENTS_POLL_MS: '100',
        WEBHOOK_RETRY_SCHEDULE: '0,0.1,0.1,0.1,0.1,0.1',
        ...env,
      },
      { timeoutMs: 60_000 },
    ).then((s) => (servers.push(s), s));
  const kill9 = async (server: RunningServer) => {
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
  };
  const call = async (server: RunningServer, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
  };
  const register = async (server: RunningServer, path: string) => {
    const res = await call(server, 'POST', '/v1/webhooks', { name: `crash ${path}`, url: receiver.url(path), conditions: [{ type: 'tagApplied', sourceId: String(tagId) }] });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const applyTags = async (server: RunningServer, ids: number[]) => {
    for (const id of ids) {
      const res = await call(server, 'POST', `/v1/contacts/${id}/tags`, { tagIds: [String(tagId)] });
      expect(res.status, res.text).toBe(200);
    }
  };
  /** The tagApplied events recorded for these contacts: id -> body. */
  const eventsOf = async (ids: number[]) => {
    const rows = await database.db.selectFrom('workspace_events').select(['id', 'body']).where('workspace_id', '=', workspaceId).where('type', '=', 'tagApplied').where('contact_id', 'in', ids).orderBy('id').execute();
    return new Map(rows.map((r) => [String(r.id), r.body]));
  };
  const deliveriesOf = (webhookId: string) => database.db.selectFrom('webhook_deliveries').select(['event_id', 'status']).where('webhook_id', '=', Number(webhookId)).execute();
  /** Every request is signed with the secret and carries exactly the stored body of the event its webhook-id names. */
  const expectSignedEvents = (requests: Received[], secret: string, events: Map<string, string>) => {
    for (const r of requests) {
      const id = r.headers['webhook-id']!;
      expect(events.has(id), `webhook-id ${id} is one of the events`).toBe(true);
      expect(r.body).toBe(events.get(id));
      expect(verified(secret, r)).toMatchObject({ event: 'tag_applied', tag: 'Crash' });
    }
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    target = await freshDatabaseUrl();
    database = createDatabase(target.url);
    await migrateToLatest(database.db);
    const created = await createWorkspace(database.db, { name: 'Webhook crash' });
    workspaceId = created.workspace.id;
    token = created.tokens.developer.token;
    const f = fixtures(database.db, workspaceId);
    tagId = await f.tag('Crash');
    contacts = [];
    for (let i = 0; i < 70; i++) contacts.push(await f.contact({ email: `crash${i}@example.com` }));
  });
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await receiver?.close();
    await database?.destroy();
    await target?.drop();
  });

  it('killed with attempts on the wire: after the restart every event is answered, the interrupted ones sent again with the same webhook-id', async () => {
    const path = '/crash/in-flight';
    const changed = contacts.slice(0, 50);
    let phase: 'before' | 'after' = 'before';
    const answered: Received[] = [];
    const held: Received[] = [];
    receiver.answer(path, (r, nth) => {
      if (phase === 'before' && nth > 10) {
        held.push(r);
        return 'hang';
      }
      answered.push(r);
      return ok;
    });

    // Attempts must not time out on their own while the process lives: only the kill, seconds
    // later, ends them. A try's lease is its time-out plus 5 s: after the restart the interrupted
    // tries are sent again once it has passed (and the dead process's jobs are released).
    const first = await start({ WEBHOOK_TIMEOUT_MS: '30000' });
    const hook = await register(first, path);
    await applyTags(first, changed);
    await waitFor(`${CONCURRENCY} attempts held open by the receiver`, async () => receiver.held() >= CONCURRENCY, 60_000);
    await kill9(first);
    phase = 'after';
    const events = await eventsOf(changed);
    expect(events.size).toBe(50);
    const heldIds = held.map((r) => r.headers['webhook-id']!);
    expect(heldIds.length).toBeGreaterThanOrEqual(CONCURRENCY);

    const second = await start();
    await waitFor('every event answered by the receiver', async () => new Set(answered.map((r) => r.headers['webhook-id'])).size >= events.size, 120_000);
    await waitFor('every delivery recorded as succeeded', async () => {
      const rows = await deliveriesOf(hook.id);
      return rows.length === events.size && rows.every((d) => d.status === 'succeeded');
    }, 60_000);

    const all = receiver.to(path);
    expectSignedEvents(all, hook.secret, events);
    expect(new Set(answered.map((r) => r.headers['webhook-id']))).toEqual(new Set(events.keys()));
    // Each held (unrecorded) attempt was made again after the restart, same id, same body.
    const answeredIds = new Set(answered.map((r) => r.headers['webhook-id']));
    for (const id of heldIds) expect(answeredIds.has(id), `held event ${id} sent again`).toBe(true);
    expect(all.length).toBeGreaterThanOrEqual(events.size + heldIds.length);
    // One delivery per event, whatever the number of POSTs.
    expect((await deliveriesOf(hook.id)).map((d) => String(d.event_id)).sort()).toEqual([...events.keys()].sort());
    expect(new Set(all.map((r) => JSON.parse(r.body).contact_id))).toEqual(new Set(changed.map(String)));
    await second.stop();
  }, 240_000);

  it('killed before the fan-out: events recorded by a server without workers all reach the receiver once after the restart', async () => {
    const path = '/crash/unfanned';
    const changed = contacts.slice(50, 70);
    const ingest = await start({ RUN_WORKERS: 'false' });
    const hook = await register(ingest, path);
    await applyTags(ingest, changed);
    await kill9(ingest);
    const events = await eventsOf(changed);
    expect(events.size).toBe(changed.length);
    expect(receiver.to(path)).toEqual([]);

    const worker = await start();
    await waitFor('every event delivered', async () => {
      const rows = await deliveriesOf(hook.id);
      return rows.length === events.size && rows.every((d) => d.status === 'succeeded');
    }, 60_000);
    const requests = receiver.to(path);
    expectSignedEvents(requests, hook.secret, events);
    // Nothing was on the wire when it died: exactly once each.
    expect(requests.map((r) => r.headers['webhook-id']).sort()).toEqual([...events.keys()].sort());
    await worker.stop();
  }, 180_000);
});
