import type { Executor } from '../../db/database.js';
import type { Principal } from '../auth/principal.js';
import { idNumber, nowIso } from '../../db/values.js';
import { AppError, notFound, unknownReferences } from '../../errors/catalogue.js';
import { invalidRequestData, type Issue } from '../../errors/validation.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { sequenceIdsAmong } from '../sequences/sequence.repository.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { checkPublicUrl } from '../shared/public-url.js';
import { liveTagIdsAmong } from '../tags/tag.repository.js';
import { insertEvents } from '../workspace-events/workspace-event.repository.js';
import { newSecret } from './webhook-signature.js';
import {
  countDeliveries,
  countExternalWebhooks,
  countWebhooks,
  deleteExternalWebhookRow,
  deleteWebhookRow,
  failedDeliveriesSince,
  findWebhook,
  findWebhookDelivery,
  insertDeliveries,
  insertExternalWebhook,
  insertWebhook,
  listDeliveries,
  listExternalWebhooks,
  listWebhooks,
  updateDelivery,
  updateWebhookRow,
  type DeliveryRecord,
  type WebhookRecord,
} from './webhook.repository.js';
import type {
  CreateExternalWebhookInput,
  CreateWebhookInput,
  ExternalWebhook,
  PingBody,
  UpdateWebhookInput,
  Webhook,
  WebhookCondition,
  WebhookDelivery,
  WebhookWithSecret,
} from './webhook.schema.js';
import { MAX_URL_LENGTH } from './webhook.schema.js';

type IssuePath = Issue['path'];

/** What the webhook services need beyond the database: the hosts tests may send to, and the queue. */
export interface WebhookSettings {
  /** `host:port`s accepted whatever their address (OUTBOUND_ALLOWED_HOSTS): test receivers on loopback. */
  allowedHosts: readonly string[];
}

/** The task that makes one attempt of a delivery (src/engine/webhooks/). */
export const DELIVER_TASK = 'webhooks.deliver';
/** After a rotation, the previous secret still signs this long, so receivers can switch over. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

const missing = () => notFound('Webhook');
/** 422 validation: sending through a disabled webhook would fail at once; enable it first. */
const disabled = () => new AppError('validation', { data: { field: 'enabled', reason: 'webhookDisabled' } });

/** The workspace's webhook, enabled, to send through (404, or 422 when disabled). */
async function sendableWebhook(db: Executor, workspaceId: number, id: number): Promise<WebhookRecord> {
  const webhook = await findWebhook(db, workspaceId, id);
  if (!webhook) throw missing();
  if (!webhook.enabled) throw disabled();
  return webhook;
}
const key = (id: string) => {
  const n = idNumber(id);
  if (n === null) throw missing();
  return n;
};

/** A webhook as the API shows it, without its secrets. */
export const publicWebhook = ({ workspaceId: _w, secret: _s, previousSecret: _p, previousSecretUntil: _u, ...w }: WebhookRecord): Webhook => w;
/**
 * A webhook with its signing secret, for a caller who may change it: a read-only token could
 * otherwise forge the workspace's events to its receivers. Read-only tokens get it without.
 */
export const withSecret = (w: WebhookRecord, who: Pick<Principal, 'permission'>): WebhookWithSecret =>
  who.permission === 'full' ? { ...publicWebhook(w), secret: w.secret } : publicWebhook(w);

/** A URL the service may call: http(s), no credentials, a public host (422 at `at` otherwise). */
function checkedUrl(value: string, settings: WebhookSettings, at: IssuePath): string {
  const checked = checkPublicUrl(value, { maxLength: MAX_URL_LENGTH, allowedHosts: settings.allowedHosts });
  if (!checked.ok) throw invalidRequestData([{ message: checked.message, path: at }]);
  return checked.url.href;
}

/** The tags and sequences the conditions name must be the workspace's (live tags): 422 validation naming the unknown ones. */
async function checkSources(db: Executor, workspaceId: number, conditions: readonly WebhookCondition[]): Promise<void> {
  const idsOf = (types: readonly string[]) => [
    ...new Set(conditions.filter((c) => c.sourceId !== undefined && types.includes(c.type)).map((c) => c.sourceId!)),
  ];
  const tagIds = idsOf(['tagApplied', 'tagRemoved']);
  const sequenceIds = idsOf(['subscribedToSequence', 'unsubscribedFromSequence']);
  const known = (ids: string[], found: number[]) => ids.filter((id) => !found.includes(idNumber(id) ?? -1));
  const unknown = [
    ...known(tagIds, tagIds.length ? await liveTagIdsAmong(db, workspaceId, tagIds.map(idNumber).filter((n): n is number => n !== null)) : []),
    ...known(sequenceIds, sequenceIds.length ? await sequenceIdsAmong(db, workspaceId, sequenceIds.map(idNumber).filter((n): n is number => n !== null)) : []),
  ];
  if (unknown.length > 0) throw unknownReferences('conditions.sourceId', unknown);
}

export const listWebhooksPage = async (db: Executor, workspaceId: number, p: PageRequest): Promise<Page<WebhookRecord>> =>
  fetchPage(p, () => countWebhooks(db, workspaceId), (w) => listWebhooks(db, workspaceId, w));

/** A new webhook, enabled, with a new secret (answered once here, and by get). */
export async function createWebhook(db: Executor, workspaceId: number, input: CreateWebhookInput, settings: WebhookSettings, at: IssuePath): Promise<WebhookRecord> {
  const url = checkedUrl(input.url, settings, [...at, 'url']);
  await checkSources(db, workspaceId, input.conditions);
  return insertWebhook(db, workspaceId, { name: input.name, url, conditions: input.conditions, secret: newSecret(), now: nowIso() });
}

export async function getWebhook(db: Executor, workspaceId: number, id: string): Promise<WebhookRecord> {
  const found = await findWebhook(db, workspaceId, key(id));
  if (!found) throw missing();
  return found;
}

/** Changes what it is given; enabling it again forgets why it was disabled and that it was failing. */
export async function updateWebhook(db: Executor, workspaceId: number, id: string, input: UpdateWebhookInput, settings: WebhookSettings, at: IssuePath): Promise<WebhookRecord> {
  const n = key(id);
  const url = input.url === undefined ? undefined : checkedUrl(input.url, settings, [...at, 'url']);
  if (input.conditions) await checkSources(db, workspaceId, input.conditions);
  const reenabled = input.enabled === true ? { disabledReason: null, failingSince: null } : {};
  const updated = await updateWebhookRow(db, workspaceId, n, { ...input, url, ...reenabled }, nowIso());
  if (!updated) throw missing();
  return updated;
}

/** A new secret; the previous one still signs for PREVIOUS_SECRET_MS. */
export async function rotateWebhookSecret(db: Executor, workspaceId: number, id: string): Promise<WebhookRecord> {
  const current = await getWebhook(db, workspaceId, id);
  const now = new Date();
  const updated = await updateWebhookRow(
    db,
    workspaceId,
    key(id),
    { secret: newSecret(), previousSecret: current.secret, previousSecretUntil: new Date(now.getTime() + PREVIOUS_SECRET_MS).toISOString() },
    now.toISOString(),
  );
  if (!updated) throw missing();
  return updated;
}

/** Deletes it and its deliveries; attempts already due find it gone and stop. */
export async function deleteWebhook(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  if (!(await deleteWebhookRow(db, workspaceId, key(id)))) throw missing();
  return { success: true };
}

export async function listDeliveriesPage(db: Executor, workspaceId: number, id: string, q: PageRequest & { status?: string }): Promise<Page<WebhookDelivery>> {
  // The deliveries and their attempts are separate statements: one snapshot (PostgreSQL's
  // repeatable read; SQLite's transaction holds its one connection), or an attempt recorded in
  // between shows beside the delivery's state from before it (pending, with a 200 in its log).
  const page = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const webhookId = Number((await getWebhook(trx, workspaceId, id)).id);
      return fetchPage(
        q,
        () => countDeliveries(trx, workspaceId, webhookId, q.status),
        (w) => listDeliveries(trx, workspaceId, webhookId, { ...w, status: q.status }),
      );
    });
  return {
    pageCount: page.pageCount,
    data: page.data.map(({ attemptLog, workspaceId: _w, ...d }) => ({ ...d, attempts: attemptLog })),
  };
}

/**
 * Enqueues try number `attempt` of a delivery (in the caller's transaction). The job carries the
 * delivery's attempt count it was scheduled at: once another try has run, it is stale and does
 * nothing, and while another job sends this try (its lease) it looks again afterwards
 * (`afterLease`: when that lease ends), so a manual retry and the scheduled one never both send.
 * Manual tries and look-agains have keys of their own: a scheduled try waiting hours does not hold
 * back one asked for now. A look-again's key names the lease it waits for: a look-again that finds
 * a newer lease enqueues another under a new key, where the same key would be the running job's
 * own and the enqueue would be dropped as a duplicate (the SQLite queue keeps one job per key).
 */
export async function enqueueAttempt(
  db: Executor,
  queue: JobQueue,
  d: { workspaceId: number; deliveryId: number; attempt: number; runAt?: string; manual?: boolean; afterLease?: string },
): Promise<void> {
  await queue.enqueue(db, {
    task: DELIVER_TASK,
    payload: { workspaceId: d.workspaceId, deliveryId: d.deliveryId, attempt: d.attempt },
    ...(d.runAt ? { runAt: d.runAt } : {}),
    key: `delivery:${d.deliveryId}:${d.attempt}${d.manual ? ':manual' : ''}${d.afterLease ? `:after-lease:${d.afterLease}` : ''}`,
  });
}

/** Puts a delivery back in line now: pending, an attempt enqueued in the same transaction. */
async function schedule(db: Executor, queue: JobQueue, workspaceId: number, delivery: DeliveryRecord, now: string): Promise<void> {
  await updateDelivery(db, Number(delivery.id), { status: 'pending', nextAttemptAt: now }, now);
  await enqueueAttempt(db, queue, { workspaceId, deliveryId: Number(delivery.id), attempt: delivery.attempts, manual: true });
}

/** Tries a delivery again now, whatever its state; its attempts so far stay in the log. */
export async function retryDelivery(db: Executor, queue: JobQueue, workspaceId: number, webhookId: string, deliveryId: string): Promise<{ success: true }> {
  const hook = key(webhookId);
  const delivery = idNumber(deliveryId);
  return db.transaction().execute(async (trx) => {
    await sendableWebhook(trx, workspaceId, hook);
    const found = delivery === null ? null : await findWebhookDelivery(trx, workspaceId, hook, delivery);
    if (!found) throw notFound('Delivery');
    await schedule(trx, queue, workspaceId, found, nowIso());
    return { success: true };
  });
}

/** Tries again every failed delivery of the webhook created since `since`. */
export async function recoverWebhook(db: Executor, queue: JobQueue, workspaceId: number, id: string, since: string): Promise<{ retried: number }> {
  const hook = key(id);
  return db.transaction().execute(async (trx) => {
    await sendableWebhook(trx, workspaceId, hook);
    // Stored as ISO UTC with milliseconds (text on SQLite): compare the same spelling of the instant.
    const failed = await failedDeliveriesSince(trx, workspaceId, hook, new Date(since).toISOString());
    const now = nowIso();
    for (const d of failed) await schedule(trx, queue, workspaceId, d, now);
    return { retried: failed.length };
  });
}

/**
 * Sends the webhook a `ping` event (`{event: "ping", webhook_id, timestamp}`), as any other: a
 * delivery with attempts and retries. It is not fanned out to the workspace's other webhooks.
 */
export async function testWebhook(db: Executor, queue: JobQueue, workspaceId: number, id: string): Promise<{ success: true }> {
  const hook = key(id);
  return db.transaction().execute(async (trx) => {
    const webhook = await sendableWebhook(trx, workspaceId, hook);
    const now = nowIso();
    const [event] = await insertEvents(trx, workspaceId, [
      { type: 'ping', contact_id: null, source_id: null, body: JSON.stringify({ event: 'ping', webhook_id: webhook.id, timestamp: now } satisfies PingBody), occurred_at: now, fanned_out: true },
    ]);
    const [delivery] = await insertDeliveries(trx, [{ workspaceId, webhookId: hook, eventId: event!.id }], now);
    await enqueueAttempt(trx, queue, { workspaceId, deliveryId: Number(delivery!.id), attempt: 0 });
    return { success: true };
  });
}

// External webhooks: registered here, fired by flows (flows/flow-events.service.ts).

export async function createExternalWebhook(db: Executor, workspaceId: number, input: CreateExternalWebhookInput, settings: WebhookSettings, at: IssuePath): Promise<ExternalWebhook> {
  const url = checkedUrl(input.url, settings, [...at, 'url']);
  return insertExternalWebhook(db, workspaceId, { url, event: input.event, provider: input.provider, now: nowIso() });
}

export const listExternalWebhooksPage = (db: Executor, workspaceId: number, p: PageRequest): Promise<Page<ExternalWebhook>> =>
  fetchPage(p, () => countExternalWebhooks(db, workspaceId), (w) => listExternalWebhooks(db, workspaceId, w));

export async function deleteExternalWebhook(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  const n = idNumber(id);
  if (n === null || !(await deleteExternalWebhookRow(db, workspaceId, n))) throw notFound('External webhook');
  return { success: true };
}
