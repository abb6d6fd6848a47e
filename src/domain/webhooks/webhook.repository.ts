import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { countRows } from '../../db/count.js';
import type { ExternalWebhooksTable, WebhookDeliveriesTable, WebhooksTable } from '../../db/types.js';
import { bool, idString, parseJson, toBool } from '../../db/values.js';
import type { ExternalWebhook, Webhook, WebhookCondition } from './webhook.schema.js';

/** A webhook as the service sees it: the API's fields, its secrets and its workspace. */
export interface WebhookRecord extends Webhook {
  workspaceId: number;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: string | null;
}

const toWebhook = (r: Selectable<WebhooksTable>): WebhookRecord => ({
  id: idString(r.id),
  workspaceId: r.workspace_id,
  name: r.name,
  url: r.url,
  conditions: parseJson<WebhookCondition[]>(r.conditions),
  enabled: toBool(r.enabled),
  disabledReason: r.disabled_reason,
  failingSince: r.failing_since,
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousSecretUntil: r.previous_secret_until,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertWebhook(
  db: Executor,
  workspaceId: number,
  w: { name: string; url: string; conditions: WebhookCondition[]; secret: string; now: string },
): Promise<WebhookRecord> {
  const row = await db
    .insertInto('webhooks')
    .values({
      workspace_id: workspaceId,
      name: w.name,
      url: w.url,
      conditions: JSON.stringify(w.conditions),
      enabled: bool(true),
      secret: w.secret,
      previous_secret: null,
      previous_secret_until: null,
      failing_since: null,
      disabled_reason: null,
      created_at: w.now,
      updated_at: w.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toWebhook(row);
}

export async function findWebhook(db: Executor, workspaceId: number, id: number): Promise<WebhookRecord | null> {
  const row = await db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return row ? toWebhook(row) : null;
}

/** The workspace's webhooks among these ids (Webhook nodes), in one statement. */
export async function webhooksByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<WebhookRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
  return rows.map(toWebhook);
}

export const countWebhooks = (db: Executor, workspaceId: number) => countRows(db.selectFrom('webhooks').where('workspace_id', '=', workspaceId));

/** Oldest first (by id): the order they were registered. */
export async function listWebhooks(db: Executor, workspaceId: number, w: { limit: number; offset: number }): Promise<WebhookRecord[]> {
  const rows = await db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').limit(w.limit).offset(w.offset).execute();
  return rows.map(toWebhook);
}

/** The enabled webhooks of these workspaces: what a batch of events is fanned out to. */
export async function enabledWebhooksOf(db: Executor, workspaceIds: readonly number[]): Promise<WebhookRecord[]> {
  if (workspaceIds.length === 0) return [];
  const rows = await db.selectFrom('webhooks').selectAll().where('workspace_id', 'in', [...workspaceIds]).where('enabled', '=', bool(true)).orderBy('id').execute();
  return rows.map(toWebhook);
}

export async function updateWebhookRow(
  db: Executor,
  workspaceId: number,
  id: number,
  set: Partial<{
    name: string;
    url: string;
    conditions: WebhookCondition[];
    enabled: boolean;
    disabledReason: string | null;
    failingSince: string | null;
    secret: string;
    previousSecret: string | null;
    previousSecretUntil: string | null;
  }>,
  now: string,
): Promise<WebhookRecord | null> {
  const row = await db
    .updateTable('webhooks')
    .set({
      ...(set.name !== undefined ? { name: set.name } : {}),
      ...(set.url !== undefined ? { url: set.url } : {}),
      ...(set.conditions !== undefined ? { conditions: JSON.stringify(set.conditions) } : {}),
      ...(set.enabled !== undefined ? { enabled: bool(set.enabled) } : {}),
      ...(set.disabledReason !== undefined ? { disabled_reason: set.disabledReason } : {}),
      ...(set.failingSince !== undefined ? { failing_since: set.failingSince } : {}),
      ...(set.secret !== undefined ? { secret: set.secret } : {}),
      ...(set.previousSecret !== undefined ? { previous_secret: set.previousSecret } : {}),
      ...(set.previousSecretUntil !== undefined ? { previous_secret_until: set.previousSecretUntil } : {}),
      updated_at: now,
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toWebhook(row) : null;
}

/** A delivery failed: the webhook has failed since this instant, unless it already had. */
export async function markWebhookFailing(db: Executor, id: number, since: string): Promise<void> {
  await db.updateTable('webhooks').set({ failing_since: since }).where('id', '=', id).where('failing_since', 'is', null).execute();
}

/** A delivery succeeded: the webhook answers again. */
export async function markWebhookAnswering(db: Executor, id: number): Promise<void> {
  await db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
}

export async function deleteWebhookRow(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// Deliveries and attempts.

export interface DeliveryRecord {
  id: string;
  workspaceId: number;
  webhookId: string;
  eventId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const toDelivery = (r: Omit<Selectable<WebhookDeliveriesTable>, 'sending_until'>): DeliveryRecord => ({
  id: idString(r.id),
  workspaceId: r.workspace_id,
  webhookId: idString(r.webhook_id),
  eventId: idString(r.event_id),
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** New deliveries, pending, their first attempt due now; in one statement. */
export async function insertDeliveries(
  db: Executor,
  rows: { workspaceId: number; webhookId: number; eventId: number }[],
  now: string,
): Promise<DeliveryRecord[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values(rows.map((r) => ({ workspace_id: r.workspaceId, webhook_id: r.webhookId, event_id: r.eventId, status: 'pending' as const, attempts: 0, next_attempt_at: now, created_at: now, updated_at: now })))
    .returningAll()
    .execute();
  return inserted.map(toDelivery);
}

export async function findDelivery(db: Executor, id: number): Promise<DeliveryRecord | null> {
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toDelivery(row) : null;
}

export async function findWebhookDelivery(db: Executor, workspaceId: number, webhookId: number, id: number): Promise<DeliveryRecord | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toDelivery(row) : null;
}

/**
 * A new state of the delivery. A try that records its outcome gives `attempts` (the count with it)
 * and ends its lease; a retry asked for leaves the lease of a try being sent alone.
 */
export async function updateDelivery(db: Executor, id: number, set: { status: DeliveryRecord['status']; attempts?: number; nextAttemptAt: string | null }, now: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: set.status, ...(set.attempts !== undefined ? { attempts: set.attempts, sending_until: null } : {}), next_attempt_at: set.nextAttemptAt, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Takes the lease of try `attempt` of a pending delivery until `until`, in one statement:
 * `claimed`; `stale` when the delivery is no longer at that try (another try ran, it ended, it is
 * gone); `busy` when another job holds the lease of this very try now (`until`: when it ends).
 */
export async function claimDeliveryAttempt(
  db: Executor,
  id: number,
  attempt: number,
  now: string,
  until: string,
): Promise<{ lease: 'claimed' | 'stale' } | { lease: 'busy'; until: string }> {
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({ sending_until: until })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('attempts', '=', attempt)
    // A lease is over at its end instant: the look-again scheduled for it runs then, often within
    // the same millisecond, and must find it free.
    .where((eb) => eb.or([eb('sending_until', 'is', null), eb('sending_until', '<=', now)]))
    .returning('id')
    .executeTakeFirst();
  if (claimed) return { lease: 'claimed' };
  const current = await db.selectFrom('webhook_deliveries').select(['status', 'attempts', 'sending_until']).where('id', '=', id).executeTakeFirst();
  return current && current.status === 'pending' && current.attempts === attempt && current.sending_until !== null
    ? { lease: 'busy', until: current.sending_until }
    : { lease: 'stale' };
}

export async function insertAttempt(
  db: Executor,
  a: { workspaceId: number; deliveryId: number; attemptedAt: string; durationMs: number; statusCode: number | null; error: string | null; responseExcerpt: string | null },
): Promise<void> {
  await db
    .insertInto('webhook_attempts')
    .values({
      workspace_id: a.workspaceId,
      delivery_id: a.deliveryId,
      attempted_at: a.attemptedAt,
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
      response_excerpt: a.responseExcerpt,
    })
    .execute();
}

const deliveriesOf = (db: Executor, workspaceId: number, webhookId: number, status: string | undefined) => {
  // Qualified: the listing joins workspace_events, which has a workspace_id too.
  let q = db.selectFrom('webhook_deliveries').where('webhook_deliveries.workspace_id', '=', workspaceId).where('webhook_deliveries.webhook_id', '=', webhookId);
  if (status) q = q.where('webhook_deliveries.status', '=', status as DeliveryRecord['status']);
  return q;
};

export const countDeliveries = (db: Executor, workspaceId: number, webhookId: number, status?: string) => countRows(deliveriesOf(db, workspaceId, webhookId, status));

/** Newest first, with each delivery's event type and attempts (oldest first): three statements for the page. */
export async function listDeliveries(
  db: Executor,
  workspaceId: number,
  webhookId: number,
  opts: { status?: string; limit: number; offset: number },
): Promise<(DeliveryRecord & { event: string; attemptLog: AttemptRecord[] })[]> {
  const rows = await deliveriesOf(db, workspaceId, webhookId, opts.status)
    .innerJoin('workspace_events as e', 'e.id', 'webhook_deliveries.event_id')
    .selectAll('webhook_deliveries')
    .select('e.body as event_body')
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  const attempts = await attemptsOf(db, rows.map((r) => r.id));
  return rows.map((r) => ({
    ...toDelivery(r),
    event: String(parseJson<{ event?: unknown }>(r.event_body).event ?? ''),
    attemptLog: attempts.get(r.id) ?? [],
  }));
}

export interface AttemptRecord {
  attemptedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

async function attemptsOf(db: Executor, deliveryIds: number[]): Promise<Map<number, AttemptRecord[]>> {
  const byDelivery = new Map<number, AttemptRecord[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('id').execute();
  for (const r of rows) {
    const list = byDelivery.get(r.delivery_id) ?? [];
    list.push({ attemptedAt: r.attempted_at, durationMs: r.duration_ms, statusCode: r.status_code, error: r.error, responseExcerpt: r.response_excerpt });
    byDelivery.set(r.delivery_id, list);
  }
  return byDelivery;
}

/** The webhook's failed deliveries created at or after `since`: what `recover` tries again. */
export async function failedDeliveriesSince(db: Executor, workspaceId: number, webhookId: number, since: string): Promise<DeliveryRecord[]> {
  const rows = await deliveriesOf(db, workspaceId, webhookId, 'failed').selectAll().where('created_at', '>=', since).orderBy('id').execute();
  return rows.map(toDelivery);
}

/** Has every delivery of the webhook since `since` failed? (None succeeded since.) */
export async function succeededSince(db: Executor, webhookId: number, since: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select('a.id')
    .where('d.webhook_id', '=', webhookId)
    .where('a.attempted_at', '>=', since)
    .where('a.status_code', '>=', 200)
    .where('a.status_code', '<', 300)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// External webhooks.

const toExternal = (r: Selectable<ExternalWebhooksTable>): ExternalWebhook => ({
  id: idString(r.id),
  url: r.url,
  event: r.event,
  provider: r.provider,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertExternalWebhook(db: Executor, workspaceId: number, e: { url: string; event: string; provider: string; now: string }): Promise<ExternalWebhook> {
  const row = await db
    .insertInto('external_webhooks')
    .values({ workspace_id: workspaceId, url: e.url, event: e.event, provider: e.provider, created_at: e.now, updated_at: e.now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toExternal(row);
}

/** The workspace's external webhooks among these ids (ExternalWebhook nodes), in one statement. */
export async function externalWebhooksByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ExternalWebhook[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('external_webhooks').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
  return rows.map(toExternal);
}

export const countExternalWebhooks = (db: Executor, workspaceId: number) => countRows(db.selectFrom('external_webhooks').where('workspace_id', '=', workspaceId));

export async function listExternalWebhooks(db: Executor, workspaceId: number, w: { limit: number; offset: number }): Promise<ExternalWebhook[]> {
  const rows = await db.selectFrom('external_webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').limit(w.limit).offset(w.offset).execute();
  return rows.map(toExternal);
}

export async function deleteExternalWebhookRow(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('external_webhooks').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The workspace's external webhooks registered for this event name (a flow's custom event). */
export async function externalWebhooksForEvent(db: Executor, workspaceId: number, event: string): Promise<{ id: number; url: string }[]> {
  return db.selectFrom('external_webhooks').select(['id', 'url']).where('workspace_id', '=', workspaceId).where('event', '=', event).orderBy('id').execute();
}

export async function findExternalWebhookUrl(db: Executor, workspaceId: number, id: number): Promise<string | null> {
  const row = await db.selectFrom('external_webhooks').select('url').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return row?.url ?? null;
}
