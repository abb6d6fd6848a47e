import { externalWebhookOperations as external, webhookOperations as webhooks } from '../../domain/webhooks/webhook.operations.js';
import { del, get, patch, post } from '../route.js';

/** Webhooks and their deliveries; the flow-data trigger's external webhooks. */
export const webhookRoutes = [
  get('/v1/webhooks', webhooks.list),
  post('/v1/webhooks', webhooks.create, { status: 201, location: (w: { id: string }) => `/v1/webhooks/${w.id}` }),
  get('/v1/webhooks/{id}', webhooks.get),
  patch('/v1/webhooks/{id}', webhooks.update),
  del('/v1/webhooks/{id}', webhooks.delete, { status: 204 }),
  post('/v1/webhooks/{id}/secret/rotate', webhooks.rotateSecret),
  get('/v1/webhooks/{id}/deliveries', webhooks.listDeliveries),
  post('/v1/webhooks/{id}/deliveries/{deliveryId}/retry', webhooks.retryDelivery),
  post('/v1/webhooks/{id}/test', webhooks.test),
  post('/v1/webhooks/{id}/recover', webhooks.recover),
  get('/v1/external-webhooks', external.list),
  post('/v1/external-webhooks', external.create, { status: 201, location: (w: { id: string }) => `/v1/external-webhooks/${w.id}` }),
  del('/v1/external-webhooks/{id}', external.delete, { status: 204 }),
];
