import { expect } from 'vitest';
import type { TestApp, TestWorkspace } from './harness.js';
import { waitFor } from './queue.js';

/**
 * The outbound webhook calls the delivery tests repeat, through the real app with a workspace's
 * token: register a webhook, read its delivery log, wait for a delivery to reach a state.
 */
export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { attemptedAt: string; durationMs: number; statusCode: number | null; error: string | null; responseExcerpt: string | null }[];
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CreatedWebhook {
  id: string;
  secret: string;
  name: string;
  url: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
}

export function webhookApi(t: TestApp, ws: TestWorkspace) {
  const call = async <T = any>(method: string, path: string, body?: unknown, token = ws.developerToken) => t.request<T>(method, path, { token, body });
  const api = {
    call,
    async create(url: string, conditions: { type: string; sourceId?: string }[], name = 'Hook'): Promise<CreatedWebhook> {
      const res = await call('POST', '/v1/webhooks', { name, url, conditions });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },
    async get(id: string): Promise<CreatedWebhook> {
      const res = await call('GET', `/v1/webhooks/${id}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    async deliveries(id: string): Promise<Delivery[]> {
      const res = await call('GET', `/v1/webhooks/${id}/deliveries?perPage=50`);
      expect(res.status, res.text).toBe(200);
      return res.body.data;
    },
    async ping(id: string): Promise<void> {
      const res = await call('POST', `/v1/webhooks/${id}/test`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ success: true });
    },
    /** Applies tags to a contact the way an integration does: POST /v1/contacts/{id}/tags. */
    async tagContact(contactId: number | string, ...tagIds: (number | string)[]): Promise<void> {
      const res = await call('POST', `/v1/contacts/${contactId}/tags`, { tagIds: tagIds.map(String) });
      expect(res.status, res.text).toBe(200);
    },
    /** Waits until the webhook's newest delivery (or the one with `deliveryId`) satisfies `done`. */
    async waitForDelivery(id: string, done: (d: Delivery) => boolean, what = 'a delivery in the expected state', timeoutMs = 20_000): Promise<Delivery> {
      return waitFor(`webhook ${id}: ${what}`, async () => (await api.deliveries(id)).find(done) ?? null, timeoutMs);
    },
    /** Waits until the webhook has `count` deliveries, none pending. */
    async waitForSettled(id: string, count: number, timeoutMs = 20_000): Promise<Delivery[]> {
      return waitFor(`webhook ${id}: ${count} deliveries settled`, async () => {
        const list = await api.deliveries(id);
        return list.length >= count && list.every((d) => d.status !== 'pending') ? list : null;
      }, timeoutMs);
    },
  };
  return api;
}
