import { nowIso } from '../../db/values.js';
import { enabledWebhooksOf, insertDeliveries, type WebhookRecord } from '../../domain/webhooks/webhook.repository.js';
import { enqueueAttempt } from '../../domain/webhooks/webhook.service.js';
import { claimUnfannedEvents, type StoredEvent } from '../../domain/workspace-events/workspace-event.repository.js';
import { eventsRecorded } from '../../domain/workspace-events/workspace-event.service.js';
import type { EngineDeps } from '../context.js';

/** Events one fan-out transaction takes at most. */
const BATCH = 500;
/** After a wake-up that found nothing (the recording transaction had not committed yet). */
const RECHECK_MS = 25;
/**
 * Between the starts of two fan-outs woken by recordings: under load every commit records events,
 * and a fan-out per commit cost more round trips than the events' own writes; those recorded
 * within the gap go out together. An event recorded after a quiet spell goes out at once.
 */
const MIN_GAP_MS = 20;

/** Does one of the webhook's conditions hold for the event: its type, and its source where it names one? */
export const firesOn = (webhook: WebhookRecord, event: StoredEvent): boolean =>
  webhook.conditions.some((c) => c.type === event.type && (c.sourceId === undefined || Number(c.sourceId) === event.sourceId));

/**
 * Takes the events no fan-out has taken (any workspace, oldest first) and makes a delivery for each
 * enabled webhook of the event's workspace whose conditions hold, each with its first attempt
 * enqueued as a job: all in one transaction, so a crash leaves the events for the next fan-out
 * and no delivery half made. Answers how many events it took.
 */
export async function fanOutEvents(deps: Pick<EngineDeps, 'db' | 'queue'>): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const now = nowIso();
    const events = await claimUnfannedEvents(trx, BATCH, now);
    if (events.length === 0) return 0;
    const webhooks = await enabledWebhooksOf(trx, [...new Set(events.map((e) => e.workspaceId))]);
    const rows = events.flatMap((event) =>
      webhooks.filter((w) => w.workspaceId === event.workspaceId && firesOn(w, event)).map((w) => ({ workspaceId: event.workspaceId, webhookId: Number(w.id), eventId: Number(event.id) })),
    );
    const deliveries = await insertDeliveries(trx, rows, now);
    for (const d of deliveries) await enqueueAttempt(trx, deps.queue, { workspaceId: d.workspaceId, deliveryId: Number(d.id), attempt: 0 });
    return events.length;
  });
}

export interface FanOut {
  stop(): Promise<void>;
}

/**
 * Runs the fan-out in this process until stopped: whenever events were recorded here (woken at
 * once), and every `pollMs` for those other processes recorded. Several processes may run it:
 * each event is taken by one (claimUnfannedEvents).
 */
export function startEventFanOut(deps: Pick<EngineDeps, 'db' | 'queue' | 'logger'>, pollMs: number): FanOut {
  let stopped = false;
  let wake: (() => void) | null = null;
  const unlisten = eventsRecorded.listen(() => wake?.());
  const done = (async () => {
    let woken = false;
    while (!stopped) {
      const started = Date.now();
      let taken = 0;
      try {
        taken = await fanOutEvents(deps);
      } catch (err) {
        deps.logger.error({ err }, 'fanning events out to webhooks failed; trying again');
      }
      if (taken >= BATCH || stopped) continue;
      // A wake-up can come before the recording transaction commits: nothing seen then is looked
      // for again shortly, not only at the next poll.
      const wait = woken && taken === 0 ? Math.min(RECHECK_MS, pollMs) : pollMs;
      woken = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), wait);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      wake = null;
      const gap = MIN_GAP_MS - (Date.now() - started);
      if (woken && gap > 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, gap));
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      unlisten();
      await done;
    },
  };
}
