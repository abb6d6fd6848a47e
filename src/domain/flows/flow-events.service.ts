import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { externalWebhooksForEvent } from '../webhooks/webhook.repository.js';
import { EXTERNAL_EVENT_ATTEMPTS, type CustomEventBody } from './flow.schema.js';

/**
 * A flow's custom event (`customEvent` item) goes to every external webhook registered for that
 * event name (POST /v1/external-webhooks, the automation tool's "Watch Flow Data" trigger): one job
 * per registration, enqueued through `db` (the caller's handle), each posting the flat JSON body below.
 */
export const EXTERNAL_EVENT_TASK = 'external-event';

export interface ExternalEventPayload {
  workspaceId: number;
  externalWebhookId: number;
  body: CustomEventBody;
}

export async function fireCustomEvent(db: Executor, queue: JobQueue, workspaceId: number, e: { name: string; contactId: number; flowId: number; flowName: string }): Promise<number> {
  const hooks = await externalWebhooksForEvent(db, workspaceId, e.name);
  const body: CustomEventBody = { event: e.name, contact_id: String(e.contactId), flow_id: String(e.flowId), flow_name: e.flowName, timestamp: nowIso() };
  for (const hook of hooks) {
    const payload: ExternalEventPayload = { workspaceId, externalWebhookId: hook.id, body };
    await queue.enqueue(db, { task: EXTERNAL_EVENT_TASK, payload: { ...payload }, maxAttempts: EXTERNAL_EVENT_ATTEMPTS });
  }
  return hooks.length;
}
