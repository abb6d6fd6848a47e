import { postJson } from '../../channels/outbound-http.js';
import { findExternalWebhookUrl } from '../../domain/webhooks/webhook.repository.js';
import type { ExternalEventPayload } from '../../domain/flows/flow-events.service.js';
import type { EngineDeps } from '../context.js';

/**
 * Posts a flow's custom event to one external webhook, through the outbound guard (no private
 * addresses unless allowed). A refused or failed delivery throws, so the queue tries again with
 * its backoff until the job's attempts run out (then the queue's error log records it). A
 * registration deleted since is not called.
 */
export async function deliverExternalEvent(deps: EngineDeps, payload: ExternalEventPayload): Promise<void> {
  const url = await findExternalWebhookUrl(deps.db, payload.workspaceId, payload.externalWebhookId);
  if (url === null) return;
  const result = await postJson(url, { body: JSON.stringify(payload.body), headers: { 'user-agent': 'messaging-api-flows' } }, {
    connectTimeoutMs: deps.config.WEBHOOK_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowedHosts: deps.config.OUTBOUND_ALLOWED_HOSTS,
    excerptBytes: 512,
  });
  if (!result.ok) throw new Error(`external webhook ${payload.externalWebhookId}: ${result.error ?? `HTTP ${result.status}`}`);
}
