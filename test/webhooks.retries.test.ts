import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { fixtures } from './support/fixtures.js';
import type { TestWorkspace } from './support/harness.js';
import { waitFor } from './support/queue.js';
import { isoNow } from './support/rest.js';
import { webhookApi } from './support/webhook-api.js';
import { ok, startReceiver, verifies, type Receiver } from './support/webhook-receiver.js';

/**
 * Outbound webhooks when the receiver does not answer 2xx: retries on WEBHOOK_RETRY_SCHEDULE (made
 * short here: 0, 50 ms, 50 ms, so three tries) with the same `webhook-id`, every attempt in the
 * delivery log; a 3xx is a failure and never followed; 410 disables the webhook with an error log;
 * Retry-After on 429 moves the next try later; the schedule's end fails the delivery; a manual
 * retry and `recover {since}` send again; a receiver that never answers is a timeout. Then the
 * webhook's health: failing for WEBHOOK_DISABLE_AFTER_SECONDS disables it.
 */
describe('webhooks: retries', () => {
  let t: EngineTestApp;
  let receiver: Receiver;
  let ws: TestWorkspace;
  let api: ReturnType<typeof webhookApi>;
  let serial = 0;
  const path = () => `/retries/${++serial}`;
  const down = { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' };
  const attempt = (statusCode: number | null, responseExcerpt: string | null, error: string | null = null) => ({ attemptedAt: isoNow(), durationMs: expect.any(Number), statusCode, error, responseExcerpt });

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createEngineTestApp({ ...unlimited, OUTBOUND_ALLOWED_HOSTS: receiver.host, WEBHOOK_RETRY_SCHEDULE: '0,0.05,0.05', WEBHOOK_TIMEOUT_MS: '1000', EVENTS_POLL_MS: '50' });
    ws = await t.workspace();
    api = webhookApi(t, ws);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('500 then 200: two attempts with the same webhook-id and body, the delivery succeeded with both in its log (status, duration, the first 1 KB of the answer)', async () => {
    const at = path();
    const long = `${'x'.repeat(1500)}`;
    receiver.answer(at, (_r, nth) => (nth === 1 ? { status: 500, headers: { 'content-type': 'text/plain' }, body: long } : ok));
    const tag = await fixtures(t.db, ws.id).tag(`Retried ${at}`);
    const hook = await api.create(receiver.url(at), [{ type: 'tagApplied', sourceId: String(tag) }]);
    const contact = await fixtures(t.db, ws.id).contact({ email: 'retried@example.com' });
    await api.tagContact(contact, tag);

    const [first, second] = await receiver.waitFor(at, 2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    for (const r of [first!, second!]) expect(verifies(hook.secret, r)).toBe(true);
    const delivery = await api.waitForDelivery(hook.id, (d) => d.status === 'succeeded');
    expect(delivery).toMatchObject({ eventId: first!.headers['webhook-id'], event: 'tag_applied', status: 'succeeded', nextAttemptAt: null });
    expect(delivery.attempts).toEqual([attempt(500, 'x'.repeat(1024)), attempt(200, '{"ok":true}')]);
    expect(delivery.attempts[1]!.attemptedAt >= delivery.attempts[0]!.attemptedAt).toBe(true);
    // It answers again: not failing.
    expect(await api.get(hook.id)).toMatchObject({ enabled: true, failingSince: null, disabledReason: null });
    expect(receiver.to(at)).toHaveLength(2);
  });

  it('a 3xx is a failure: the Location is never followed, and the schedule runs out', async () => {
    const at = path();
    const target = path();
    receiver.answer(at, () => ({ status: 302, headers: { location: receiver.url(target) }, body: '' }));
    receiver.answer(target, () => ok);
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    await api.ping(hook.id);
    const [delivery] = await api.waitForSettled(hook.id, 1);
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(delivery!.attempts).toEqual([attempt(302, ''), attempt(302, ''), attempt(302, '')]);
    expect(receiver.to(at)).toHaveLength(3);
    expect(receiver.to(target)).toEqual([]);
  });

  it('410 Gone disables the webhook at once (enabled false, disabledReason) and writes an error log; later events make no delivery', async () => {
    const at = path();
    receiver.answer(at, () => ({ status: 410, body: 'gone' }));
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }], 'Gone receiver');
    await api.ping(hook.id);
    const [delivery] = await api.waitForSettled(hook.id, 1);
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null, attempts: [attempt(410, 'gone')] });
    expect(await api.get(hook.id)).toMatchObject({ enabled: false, disabledReason: 'The receiver answered 410 Gone' });

    const logs = await api.call('GET', `/v1/error-logs?keyword=${encodeURIComponent(`Webhook ${hook.id} `)}`);
    expect(logs.status).toBe(200);
    expect(logs.body).toEqual({
      data: [
        {
          id: expect.stringMatching(/^\d+$/),
          workspaceId: String(ws.id),
          contactId: '',
          action: 'webhook',
          detail: `Webhook ${hook.id} ("Gone receiver") was disabled: The receiver answered 410 Gone`,
          httpCode: '410',
          createdAt: isoNow(),
          updatedAt: isoNow(),
        },
      ],
      pageCount: 1,
    });

    // A new contact (a newContact event) finds it disabled: no delivery, nothing sent.
    const witness = path();
    await api.create(receiver.url(witness), [{ type: 'newContact' }]);
    const made = await api.call('POST', '/v1/contacts', { email: 'after-gone@example.com' });
    expect(made.status, made.text).toBe(200);
    await receiver.waitFor(witness, 1);
    expect(await api.deliveries(hook.id)).toHaveLength(1);
    expect(receiver.to(at)).toHaveLength(1);

    // Disabled, it sends nothing on request either: test, retry and recover say so.
    const disabled = { status: 422, body: { defined: true, code: 'validation', status: 422, message: 'Validation error', data: { field: 'enabled', reason: 'webhookDisabled' } } };
    expect(await api.call('POST', `/v1/webhooks/${hook.id}/test`)).toMatchObject(disabled);
    expect(await api.call('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery!.id}/retry`)).toMatchObject(disabled);
    expect(await api.call('POST', `/v1/webhooks/${hook.id}/recover`, { since: '2020-01-01T00:00:00Z' })).toMatchObject(disabled);
    expect(await api.deliveries(hook.id)).toHaveLength(1);

    // Enabled again, it forgets why it was disabled.
    expect((await api.call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true })).body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('a receiver that always fails: three tries (the schedule), then the delivery has failed; the webhook is failing but still enabled', async () => {
    const at = path();
    receiver.answer(at, () => down);
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    await api.ping(hook.id);
    const [delivery] = await api.waitForSettled(hook.id, 1);
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(delivery!.attempts).toEqual([attempt(500, 'Internal Server Error'), attempt(500, 'Internal Server Error'), attempt(500, 'Internal Server Error')]);
    const requests = receiver.to(at);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery!.eventId]));
    const state = await api.get(hook.id);
    expect(state).toMatchObject({ enabled: true, disabledReason: null, failingSince: delivery!.attempts[0]!.attemptedAt });
    await t.settle();
    expect(receiver.to(at)).toHaveLength(3);

    // A manual retry sends it once more, now: the log keeps every attempt, the webhook answers again.
    receiver.answer(at, () => ok);
    const retried = await api.call('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery!.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ success: true });
    const done = await api.waitForDelivery(hook.id, (d) => d.status === 'succeeded', 'the manual retry succeeded');
    expect(done.attempts).toEqual([...delivery!.attempts, attempt(200, '{"ok":true}')]);
    expect(receiver.to(at)).toHaveLength(4);
    expect(receiver.to(at)[3]!.headers['webhook-id']).toBe(delivery!.eventId);
    expect(receiver.to(at)[3]!.body).toBe(requests[0]!.body);
    expect(await api.get(hook.id)).toMatchObject({ enabled: true, failingSince: null });

    // Retrying a delivery that succeeded sends it again too ("whatever its state").
    expect((await api.call('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery!.id}/retry`)).status).toBe(200);
    await receiver.waitFor(at, 5);
    expect((await api.waitForDelivery(hook.id, (d) => d.attempts.length === 5 && d.status === 'succeeded')).attempts[4]).toEqual(attempt(200, '{"ok":true}'));
  });

  it("a manual retry needs the webhook's own delivery: another webhook's is 404", async () => {
    const a = await api.create(receiver.url(path()), [{ type: 'newContact' }]);
    const b = await api.create(receiver.url(path()), [{ type: 'newContact' }]);
    await api.ping(a.id);
    const [delivery] = await api.waitForSettled(a.id, 1);
    const res = await api.call('POST', `/v1/webhooks/${b.id}/deliveries/${delivery!.id}/retry`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'notFound', data: { resource: 'Delivery' } });
  });

  it('recover {since} sends again every failed delivery created since then, and no other', async () => {
    const at = path();
    receiver.answer(at, () => down);
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    const since = new Date(Date.now() - 1000);
    await api.ping(hook.id);
    await api.ping(hook.id);
    const failed = await api.waitForSettled(hook.id, 2);
    expect(failed.map((d) => d.status)).toEqual(['failed', 'failed']);
    expect(receiver.to(at)).toHaveLength(6);
    // The log filters by state and pages, newest first.
    const byStatus = async (query: string) => (await api.call('GET', `/v1/webhooks/${hook.id}/deliveries?${query}`)).body;
    expect(await byStatus('status=failed')).toEqual({ data: failed, pageCount: 1 });
    expect(await byStatus('status=succeeded')).toEqual({ data: [], pageCount: 0 });
    expect(await byStatus('status=failed&perPage=1&page=2')).toEqual({ data: [failed[1]], pageCount: 2 });
    expect(Number(failed[0]!.id)).toBeGreaterThan(Number(failed[1]!.id));

    // Nothing failed after a later instant.
    const later = await api.call('POST', `/v1/webhooks/${hook.id}/recover`, { since: new Date(Date.now() + 60_000).toISOString() });
    expect(later.body).toEqual({ retried: 0 });

    receiver.answer(at, () => ok);
    // An instant with an offset and whole seconds names the same moment as its UTC spelling.
    const offsetSpelling = new Date(Math.floor(since.getTime() / 1000) * 1000 + 2 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+02:00');
    const res = await api.call('POST', `/v1/webhooks/${hook.id}/recover`, { since: offsetSpelling });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ retried: 2 });
    const recovered = await api.waitForSettled(hook.id, 2);
    expect(recovered.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    for (const d of recovered) expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);
    expect(receiver.to(at)).toHaveLength(8);
    expect(new Set(receiver.to(at).slice(6).map((r) => r.headers['webhook-id']))).toEqual(new Set(recovered.map((d) => d.eventId)));
    // Nothing left to recover.
    expect((await api.call('POST', `/v1/webhooks/${hook.id}/recover`, { since: since.toISOString() })).body).toEqual({ retried: 0 });
  });

  it('the delivery log is one snapshot: read while attempts are recorded, a state always matches its attempts', async () => {
    const at = path();
    const seen = new Map<string, number>();
    // Each event fails once, then succeeds.
    receiver.answer(at, (r) => {
      const n = (seen.get(r.headers['webhook-id']!) ?? 0) + 1;
      seen.set(r.headers['webhook-id']!, n);
      return n === 1 ? down : ok;
    });
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    const pings = 15;
    for (let i = 0; i < pings; i++) await api.ping(hook.id);
    const is2xx = (code: number | null) => code !== null && code >= 200 && code < 300;
    let reads = 0;
    await waitFor('every ping delivered', async () => {
      const list = await api.deliveries(hook.id);
      reads++;
      for (const d of list) {
        const last = d.attempts[d.attempts.length - 1];
        if (d.status === 'succeeded') expect(is2xx(last?.statusCode ?? null), JSON.stringify(d)).toBe(true);
        if (d.status === 'pending') {
          expect(d.attempts.some((a) => is2xx(a.statusCode)), JSON.stringify(d)).toBe(false);
          if (last) expect(Date.parse(d.nextAttemptAt!) >= Date.parse(last.attemptedAt), JSON.stringify(d)).toBe(true);
        }
      }
      return list.length === pings && list.every((d) => d.status === 'succeeded');
    });
    expect(reads).toBeGreaterThan(0);
    for (const d of await api.deliveries(hook.id)) expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
  });

  it('Retry-After on a 429 moves the next try later than the schedule would', async () => {
    const at = path();
    receiver.answer(at, (_r, nth) => (nth === 1 ? { status: 429, headers: { 'retry-after': '2' }, body: 'slow down' } : ok));
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    await api.ping(hook.id);
    await receiver.waitFor(at, 1);
    const waiting = await api.waitForDelivery(hook.id, (d) => d.attempts.length === 1, 'the first try recorded');
    if (waiting.status === 'pending') {
      expect(Date.parse(waiting.nextAttemptAt!) - Date.parse(waiting.attempts[0]!.attemptedAt)).toBeGreaterThanOrEqual(2000);
    }
    const [first, second] = await receiver.waitFor(at, 2, 30_000);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2000 - 5);
    const done = await api.waitForDelivery(hook.id, (d) => d.status === 'succeeded');
    expect(done.attempts).toEqual([attempt(429, 'slow down'), attempt(200, '{"ok":true}')]);
    expect(Date.parse(done.attempts[1]!.attemptedAt) - Date.parse(done.attempts[0]!.attemptedAt)).toBeGreaterThanOrEqual(2000);
  });

  it('a Retry-After of years is read as one day: a receiver cannot park a delivery for longer', async () => {
    const at = path();
    receiver.answer(at, () => ({ status: 503, headers: { 'retry-after': '999999999' }, body: 'maintenance' }));
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    await api.ping(hook.id);
    const waiting = await api.waitForDelivery(hook.id, (d) => d.attempts.length === 1 && d.nextAttemptAt !== null, 'the first try recorded');
    const wait = Date.parse(waiting.nextAttemptAt!) - Date.parse(waiting.attempts[0]!.attemptedAt);
    expect(wait).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 1000);
    expect(wait).toBeLessThanOrEqual(24 * 3600 * 1000 + 60_000);
  });

  it('a manual retry of a try already scheduled sends once: the two jobs of one try never both send', async () => {
    const at = path();
    // The first answer is held until the retry has been asked for: the scheduled try is mid-send.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.answer(at, async (_r, nth) => {
      if (nth === 1) await held;
      return ok;
    });
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    await api.ping(hook.id);
    await receiver.waitFor(at, 1);
    const [pending] = await api.deliveries(hook.id);
    expect((await api.call('POST', `/v1/webhooks/${hook.id}/deliveries/${pending!.id}/retry`)).status).toBe(200);
    release();
    const done = await api.waitForDelivery(hook.id, (d) => d.status === 'succeeded');
    await t.settle();
    expect(done.attempts).toEqual([attempt(200, '{"ok":true}')]);
    expect(await api.deliveries(hook.id)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: [attempt(200, '{"ok":true}')] })]);
    expect(receiver.to(at)).toHaveLength(1);
  });

  it('a 500 with Retry-After keeps the schedule (Retry-After counts on 429 and 503 only)', async () => {
    const at = path();
    receiver.answer(at, (_r, nth) => (nth === 1 ? { status: 500, headers: { 'retry-after': '3600' }, body: 'oops' } : ok));
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    await api.ping(hook.id);
    const done = await api.waitForDelivery(hook.id, (d) => d.status === 'succeeded', 'the second try succeeded well before an hour');
    expect(done.attempts).toEqual([attempt(500, 'oops'), attempt(200, '{"ok":true}')]);
  });

  it('a receiver that never answers: the try ends with a timeout (no status), and the next one is made', async () => {
    const at = path();
    receiver.answer(at, (_r, nth) => (nth === 1 ? 'hang' : ok));
    const hook = await api.create(receiver.url(at), [{ type: 'newContact' }]);
    await api.ping(hook.id);
    const done = await api.waitForDelivery(hook.id, (d) => d.status === 'succeeded');
    expect(done.attempts).toEqual([attempt(null, null, 'timeout'), attempt(200, '{"ok":true}')]);
    expect(done.attempts[0]!.durationMs).toBeGreaterThanOrEqual(1000 - 5);
    const [first, second] = receiver.to(at);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
  });
});

describe('webhooks: health', () => {
  let t: EngineTestApp;
  let receiver: Receiver;
  let ws: TestWorkspace;
  let api: ReturnType<typeof webhookApi>;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Tries at 0 and 2 s (and 4 s): failing for a second disables the webhook at the second try.
    t = await createEngineTestApp({ ...unlimited, OUTBOUND_ALLOWED_HOSTS: receiver.host, WEBHOOK_RETRY_SCHEDULE: '0,2,2', WEBHOOK_DISABLE_AFTER_SECONDS: '1', EVENTS_POLL_MS: '50' });
    ws = await t.workspace();
    api = webhookApi(t, ws);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('a webhook whose every delivery has failed for WEBHOOK_DISABLE_AFTER_SECONDS is disabled, with an error log, before the schedule ends', async () => {
    receiver.answer('/failing', () => ({ status: 503, body: 'unavailable' }));
    const hook = await api.create(receiver.url('/failing'), [{ type: 'newContact' }], 'Failing receiver');
    await api.ping(hook.id);
    const [delivery] = await api.waitForSettled(hook.id, 1, 30_000);
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([503, 503]);
    const state = await api.get(hook.id);
    const since = delivery!.attempts[0]!.attemptedAt;
    expect(state).toMatchObject({ enabled: false, failingSince: since, disabledReason: `Every delivery has failed since ${since}` });
    const logs = (await api.call('GET', '/v1/error-logs')).body.data;
    expect(logs).toEqual([expect.objectContaining({ action: 'webhook', httpCode: '503', detail: `Webhook ${hook.id} ("Failing receiver") was disabled: Every delivery has failed since ${since}` })]);
    await t.settle();
    expect(receiver.to('/failing')).toHaveLength(2);
  });

  it('a success in between starts the count again: failingSince is cleared', async () => {
    receiver.answer('/flaky', (_r, nth) => (nth === 1 ? { status: 500, body: 'oops' } : ok));
    const hook = await api.create(receiver.url('/flaky'), [{ type: 'newContact' }]);
    await api.ping(hook.id);
    await api.waitForDelivery(hook.id, (d) => d.attempts.length === 1, 'the first try failed');
    expect((await api.get(hook.id)).failingSince).not.toBeNull();
    await api.waitForDelivery(hook.id, (d) => d.status === 'succeeded', 'the second try succeeded', 30_000);
    expect(await api.get(hook.id)).toMatchObject({ enabled: true, failingSince: null, disabledReason: null });
  });
});
