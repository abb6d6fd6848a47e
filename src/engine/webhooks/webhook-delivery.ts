import { postJson, type OutboundResult } from '../../channels/outbound-http.js';
import { nowIso } from '../../db/values.js';
import { insertErrorLog } from '../../domain/error-logs/error-log.repository.js';
import { signatureHeaders } from '../../domain/webhooks/webhook-signature.js';
import {
  claimDeliveryAttempt,
  findDelivery,
  findWebhook,
  insertAttempt,
  markWebhookAnswering,
  markWebhookFailing,
  updateDelivery,
  updateWebhookRow,
  type DeliveryRecord,
  type WebhookRecord,
} from '../../domain/webhooks/webhook.repository.js';
import { enqueueAttempt } from '../../domain/webhooks/webhook.service.js';
import { findEvent } from '../../domain/workspace-events/workspace-event.repository.js';
import type { Executor } from '../../db/database.js';
import type { JsonValue } from '../../queue/types.js';
import type { EngineDeps } from '../context.js';

/** The first bytes of an answer a delivery log keeps. */
const EXCERPT_BYTES = 1024;
/** A try's lease outlasts its answer's time-out by this much. */
const LEASE_MARGIN_MS = 5_000;
/** Retry-After beyond this is read as this: a receiver cannot park a delivery for longer. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
/** A retry waits its delay give or take this share of it, so retries of one outage spread out. */
const JITTER = 0.1;

interface DeliverPayload {
  workspaceId: number;
  deliveryId: number;
  /** The delivery's attempt count when this try was scheduled: a try scheduled before another ran is stale. */
  attempt: number;
}

/**
 * One attempt of a delivery: the event's body, signed with the webhook's secrets, POSTed to its
 * URL (no redirects, through the private-address guard, connect and answer timeouts). No network
 * call runs inside a transaction: the attempt is recorded afterwards, with what it leads to, in
 * one transaction:
 * - a 2xx: succeeded; the webhook answers again;
 * - a 410: the receiver is gone; the webhook is disabled (and an error log says why);
 * - anything else (an error, a timeout, a refused address, another status, a 3xx): the next try
 *   of the schedule is enqueued (later if the receiver asked with Retry-After on 429 or 503), or,
 *   after the last, the delivery has failed. A webhook whose every delivery has failed for
 *   WEBHOOK_DISABLE_AFTER_SECONDS is disabled.
 * A crash between the POST and the record makes the queue run this try again: the receiver may
 * get the event twice, with the same `webhook-id`.
 */
export async function deliverWebhook(deps: EngineDeps, payload: JsonValue): Promise<void> {
  const { deliveryId, attempt } = payload as unknown as DeliverPayload;
  const delivery = await findDelivery(deps.db, deliveryId);
  if (!delivery || delivery.status !== 'pending' || delivery.attempts !== attempt) return;
  const webhook = await findWebhook(deps.db, delivery.workspaceId, Number(delivery.webhookId));
  const event = await findEvent(deps.db, delivery.workspaceId, Number(delivery.eventId));
  if (!webhook || !event) return; // deleted meanwhile: its deliveries went with it
  if (!webhook.enabled) {
    await updateDelivery(deps.db, deliveryId, { status: 'failed', nextAttemptAt: null }, nowIso());
    return;
  }
  // Two jobs may hold this try (a manual retry beside the scheduled one): the lease lets one send.
  // The other looks again when the lease ends: by then the try is recorded (and the job is stale),
  // or its sender died before recording, and this job sends it.
  const now = new Date();
  const claim = await claimDeliveryAttempt(deps.db, deliveryId, attempt, now.toISOString(), new Date(now.getTime() + deps.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS).toISOString());
  if (claim.lease === 'stale') return;
  if (claim.lease === 'busy') {
    await enqueueAttempt(deps.db, deps.queue, { workspaceId: delivery.workspaceId, deliveryId, attempt, runAt: claim.until, afterLease: claim.until });
    return;
  }

  const secrets = [webhook.secret, ...(webhook.previousSecret && webhook.previousSecretUntil && webhook.previousSecretUntil > now.toISOString() ? [webhook.previousSecret] : [])];
  const headers = { 'content-type': 'application/json', 'user-agent': 'messaging-api-webhooks', ...signatureHeaders(secrets, event.id, now, event.bodyText) };
  const result = await postJson(webhook.url, { body: event.bodyText, headers }, {
    connectTimeoutMs: deps.config.WEBHOOK_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowedHosts: deps.config.OUTBOUND_ALLOWED_HOSTS,
    excerptBytes: EXCERPT_BYTES,
  });
  await deps.db.transaction().execute((trx) => record(deps, trx, webhook, delivery, result, now.toISOString()));
}

async function record(deps: EngineDeps, trx: Executor, webhook: WebhookRecord, delivery: DeliveryRecord, result: OutboundResult, attemptedAt: string): Promise<void> {
  const deliveryId = Number(delivery.id);
  const webhookId = Number(webhook.id);
  const attempts = delivery.attempts + 1;
  const now = nowIso();
  await insertAttempt(trx, {
    workspaceId: delivery.workspaceId,
    deliveryId,
    attemptedAt,
    durationMs: result.durationMs,
    statusCode: result.status,
    error: result.error,
    responseExcerpt: result.excerpt,
  });
  if (result.ok) {
    await updateDelivery(trx, deliveryId, { status: 'succeeded', attempts, nextAttemptAt: null }, now);
    await markWebhookAnswering(trx, webhookId);
    return;
  }
  if (result.status === 410) {
    await disable(trx, webhook, 'The receiver answered 410 Gone', '410', now);
    await updateDelivery(trx, deliveryId, { status: 'failed', attempts, nextAttemptAt: null }, now);
    return;
  }
  await markWebhookFailing(trx, webhookId, attemptedAt);
  const failingSince = webhook.failingSince ?? attemptedAt;
  if (Date.parse(now) - Date.parse(failingSince) >= deps.config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000) {
    await disable(trx, webhook, `Every delivery has failed since ${failingSince}`, result.status === null ? '0' : String(result.status), now);
    await updateDelivery(trx, deliveryId, { status: 'failed', attempts, nextAttemptAt: null }, now);
    return;
  }
  const delay = deps.config.WEBHOOK_RETRY_SCHEDULE[attempts];
  if (delay === undefined) {
    await updateDelivery(trx, deliveryId, { status: 'failed', attempts, nextAttemptAt: null }, now);
    return;
  }
  const asked = result.status === 429 || result.status === 503 ? retryAfterMs(result.headers['retry-after']) : null;
  const wait = Math.max(Math.round(delay * (1 + (Math.random() * 2 - 1) * JITTER)), Math.min(asked ?? 0, MAX_RETRY_AFTER_MS));
  const next = new Date(Date.parse(now) + wait).toISOString();
  await updateDelivery(trx, deliveryId, { status: 'pending', attempts, nextAttemptAt: next }, now);
  await enqueueAttempt(trx, deps.queue, { workspaceId: delivery.workspaceId, deliveryId, attempt: attempts, runAt: next });
}

/** Switches the webhook off, saying why in its record and in the workspace's error log. */
async function disable(trx: Executor, webhook: WebhookRecord, reason: string, httpCode: string, now: string): Promise<void> {
  await updateWebhookRow(trx, webhook.workspaceId, Number(webhook.id), { enabled: false, disabledReason: reason }, now);
  await insertErrorLog(trx, webhook.workspaceId, { contactId: null, action: 'webhook', detail: `Webhook ${webhook.id} ("${webhook.name}") was disabled: ${reason}`, httpCode });
}

/** Retry-After in milliseconds: seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
