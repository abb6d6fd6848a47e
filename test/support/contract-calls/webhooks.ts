import { fixtures } from '../fixtures.js';
import type { TestApp, TestWorkspace } from '../harness.js';
import type { CallTable } from './seed.js';

let created = 0;

/**
 * A webhook with one delivery, one the delete call consumes, and an external webhook for the
 * delete call. Nothing is sent: no job runner runs in the contract tests.
 */
export async function seedWebhooks(t: TestApp, ws: TestWorkspace, tag: number) {
  const f = fixtures(t.db, ws.id);
  const webhook = await f.webhook('tag-applied', { tagId: tag });
  return {
    webhook,
    delivery: await f.webhookDelivery(webhook),
    disposableWebhook: await f.webhook('delete-me'),
    disposableExternalWebhook: await f.externalWebhook('delete_me'),
  };
}

/** Webhooks, their deliveries and the external webhooks of the flow-data trigger. */
export const webhookCalls: CallTable = {
  'webhooks.list': () => ({ method: 'GET', path: '/v1/webhooks?page=1&perPage=10' }),
  'webhooks.create': (s) => ({
    method: 'POST',
    path: '/v1/webhooks',
    body: { name: `n8n: tagApplied ${++created}`, url: 'https://hooks.example.com/messaging/tag-applied', conditions: [{ type: 'tagApplied', sourceId: String(s.tags.vip) }] },
  }),
  'webhooks.get': (s) => ({ method: 'GET', path: `/v1/webhooks/${s.webhooks.webhook}` }),
  'webhooks.update': (s) => ({ method: 'PATCH', path: `/v1/webhooks/${s.webhooks.webhook}`, body: { name: 'Tag applied', enabled: true } }),
  'webhooks.delete': (s) => ({ method: 'DELETE', path: `/v1/webhooks/${s.webhooks.disposableWebhook}` }),
  'webhooks.rotateSecret': (s) => ({ method: 'POST', path: `/v1/webhooks/${s.webhooks.webhook}/secret/rotate` }),
  'webhooks.listDeliveries': (s) => ({ method: 'GET', path: `/v1/webhooks/${s.webhooks.webhook}/deliveries?status=pending` }),
  'webhooks.retryDelivery': (s) => ({ method: 'POST', path: `/v1/webhooks/${s.webhooks.webhook}/deliveries/${s.webhooks.delivery}/retry` }),
  'webhooks.test': (s) => ({ method: 'POST', path: `/v1/webhooks/${s.webhooks.webhook}/test` }),
  'webhooks.recover': (s) => ({ method: 'POST', path: `/v1/webhooks/${s.webhooks.webhook}/recover`, body: { since: '2026-01-01T00:00:00Z' } }),
  'externalWebhooks.list': () => ({ method: 'GET', path: '/v1/external-webhooks' }),
  'externalWebhooks.create': () => ({ method: 'POST', path: '/v1/external-webhooks', body: { url: 'https://hooks.example.com/flows/order-placed', event: 'order_placed', provider: 'n8n' } }),
  'externalWebhooks.delete': (s) => ({ method: 'DELETE', path: `/v1/external-webhooks/${s.webhooks.disposableExternalWebhook}` }),
};
