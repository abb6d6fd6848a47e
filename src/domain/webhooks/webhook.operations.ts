import { z } from 'zod';
import { operation, operationsOf } from '../shared/operation.js';
import { idParams, successSchema } from '../shared/schemas.js';
import {
  createExternalWebhookInput,
  createWebhookInput,
  deliveriesQuery,
  deliveryPageSchema,
  deliveryParams,
  externalWebhookPageSchema,
  externalWebhookSchema,
  recoveredSchema,
  recoverInput,
  updateWebhookInput,
  webhookPageSchema,
  webhookSchema,
  webhooksQuery,
  webhookWithSecretSchema,
} from './webhook.schema.js';
import {
  createExternalWebhook,
  createWebhook,
  deleteExternalWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveriesPage,
  listExternalWebhooksPage,
  listWebhooksPage,
  publicWebhook,
  recoverWebhook,
  retryDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  withSecret,
} from './webhook.service.js';

const read = { action: 'read', scope: 'webhooks' } as const;
const write = { action: 'write', scope: 'webhooks' } as const;
/** A 204: nothing in the body. */
const noContent = z.undefined();

const created = '2026-11-27T10:00:00.000Z';
const exampleWebhook = {
  id: '7',
  name: 'n8n: tagApplied',
  url: 'https://hooks.example.com/messaging/tag-applied',
  conditions: [{ type: 'tagApplied' as const, sourceId: '3' }],
  enabled: true,
  disabledReason: null,
  failingSince: null,
  createdAt: created,
  updatedAt: created,
};
const exampleSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Z2Dp5cE4Ck=';
const exampleDelivery = {
  id: '41',
  webhookId: '7',
  eventId: '1204',
  event: 'tag_applied',
  status: 'succeeded' as const,
  attempts: [
    { attemptedAt: '2026-11-27T10:05:00.120Z', durationMs: 512, statusCode: 503, error: null, responseExcerpt: 'Service Unavailable' },
    { attemptedAt: '2026-11-27T10:05:05.300Z', durationMs: 48, statusCode: 200, error: null, responseExcerpt: '{"ok":true}' },
  ],
  nextAttemptAt: null,
  createdAt: '2026-11-27T10:05:00.100Z',
  updatedAt: '2026-11-27T10:05:05.350Z',
};
const exampleExternal = { id: '3', url: 'https://hooks.example.com/flows/order-placed', event: 'order_placed', provider: 'n8n', createdAt: created, updatedAt: created };

/**
 * Webhooks: where the workspace's events are POSTed, signed (Standard Webhooks), with retries and
 * a delivery log. The real product's list, create and delete, and ours beside them.
 */
export const webhookOperations = operationsOf('Webhooks', {
  list: operation({
    id: 'webhooks.list',
    summary: 'List webhooks',
    description: "The workspace's webhooks, in the order they were registered.",
    access: read,
    query: webhooksQuery,
    output: webhookPageSchema,
    outputDescription: 'A page of webhooks (without their secrets)',
    examples: { query: { page: '1', perPage: '20' }, response: { data: [exampleWebhook], pageCount: 1 } },
    run: ({ db, who, query }) => listWebhooksPage(db, who.workspaceId, query),
    present: (page) => ({ ...page, data: page.data.map(publicWebhook) }),
  }),
  create: operation({
    id: 'webhooks.create',
    summary: 'Create a webhook',
    description:
      "Registers a URL to POST the workspace's events to when one of the conditions holds. The answer holds its signing secret (also readable later by GET).",
    access: write,
    body: createWebhookInput,
    output: webhookWithSecretSchema,
    outputDescription: 'The new webhook with its signing secret; `Location` is its address',
    examples: {
      body: { name: 'n8n: tagApplied', url: 'https://hooks.example.com/messaging/tag-applied', conditions: [{ type: 'tagApplied', sourceId: '3' }] },
      response: { ...exampleWebhook, secret: exampleSecret },
    },
    run: ({ db, who, body, outbound, at }) => createWebhook(db, who.workspaceId, body, outbound, at.body),
    present: (w, { who }) => withSecret(w, who),
  }),
  get: operation({
    id: 'webhooks.get',
    summary: 'Get a webhook',
    description: 'One webhook with its signing secret.',
    access: read,
    params: idParams,
    output: webhookWithSecretSchema,
    outputDescription: 'The webhook',
    examples: { params: { id: '7' }, response: { ...exampleWebhook, secret: exampleSecret } },
    run: ({ db, who, params }) => getWebhook(db, who.workspaceId, params.id),
    present: (w, { who }) => withSecret(w, who),
  }),
  update: operation({
    id: 'webhooks.update',
    summary: 'Change a webhook',
    description: 'Its name, url, conditions, or whether it is enabled; enabling one the service disabled forgets why.',
    access: write,
    params: idParams,
    body: updateWebhookInput,
    output: webhookSchema,
    outputDescription: 'The webhook as changed',
    examples: { params: { id: '7' }, body: { enabled: false }, response: { ...exampleWebhook, enabled: false, updatedAt: '2026-11-28T08:00:00.000Z' } },
    run: ({ db, who, params, body, outbound, at }) => updateWebhook(db, who.workspaceId, params.id, body, outbound, at.body),
    present: publicWebhook,
  }),
  delete: operation({
    id: 'webhooks.delete',
    summary: 'Delete a webhook',
    description: 'Deletes the webhook and its delivery log; attempts already due stop.',
    access: { action: 'delete', scope: 'webhooks' },
    params: idParams,
    output: noContent,
    outputDescription: 'Deleted',
    examples: { params: { id: '7' }, response: undefined },
    run: ({ db, who, params }) => deleteWebhook(db, who.workspaceId, params.id),
    present: () => undefined,
  }),
  rotateSecret: operation({
    id: 'webhooks.rotateSecret',
    summary: "Rotate a webhook's secret",
    description: 'A new signing secret; for 24 hours the previous one signs too (a second `v1,` signature), so the receiver can switch over.',
    access: write,
    params: idParams,
    output: webhookWithSecretSchema,
    outputDescription: 'The webhook with its new secret',
    examples: { params: { id: '7' }, response: { ...exampleWebhook, secret: 'whsec_C2dSaYqP7P+VyvLBqN1oY8n0O4JnJ9pD7GfD4cWcLbQ=', updatedAt: '2026-11-28T08:00:00.000Z' } },
    run: ({ db, who, params }) => rotateWebhookSecret(db, who.workspaceId, params.id),
    present: (w, { who }) => withSecret(w, who),
  }),
  listDeliveries: operation({
    id: 'webhooks.listDeliveries',
    summary: "List a webhook's deliveries",
    description: 'Newest first: each event sent to the webhook, its state and every attempt (status code or error, duration, the first 1 KB of the answer).',
    access: read,
    params: idParams,
    query: deliveriesQuery,
    output: deliveryPageSchema,
    outputDescription: 'A page of deliveries',
    examples: { params: { id: '7' }, query: { page: '1', perPage: '20', status: 'succeeded' }, response: { data: [exampleDelivery], pageCount: 1 } },
    run: ({ db, who, params, query }) => listDeliveriesPage(db, who.workspaceId, params.id, query),
  }),
  retryDelivery: operation({
    id: 'webhooks.retryDelivery',
    summary: 'Retry a delivery',
    description: 'Sends the delivery again now, whatever its state; its earlier attempts stay in the log. A disabled webhook is 422 (`reason: webhookDisabled`): enable it first.',
    access: write,
    params: deliveryParams,
    output: successSchema,
    outputDescription: 'Scheduled',
    examples: { params: { id: '7', deliveryId: '41' }, response: { success: true } },
    run: ({ db, who, params, queue }) => retryDelivery(db, queue, who.workspaceId, params.id, params.deliveryId),
  }),
  test: operation({
    id: 'webhooks.test',
    summary: 'Send a webhook a ping',
    description: 'Sends the webhook `{event: "ping", webhook_id, timestamp}`, signed, as a delivery of its own (retried like any other). A disabled webhook is 422 (`reason: webhookDisabled`).',
    access: write,
    params: idParams,
    output: successSchema,
    outputDescription: 'Scheduled; the delivery log shows the answer',
    examples: { params: { id: '7' }, response: { success: true } },
    run: ({ db, who, params, queue }) => testWebhook(db, queue, who.workspaceId, params.id),
  }),
  recover: operation({
    id: 'webhooks.recover',
    summary: 'Retry failed deliveries',
    description: 'Tries again every failed delivery of the webhook created at or after `since`. A disabled webhook is 422 (`reason: webhookDisabled`).',
    access: write,
    params: idParams,
    body: recoverInput,
    output: recoveredSchema,
    outputDescription: 'How many deliveries were scheduled again',
    examples: { params: { id: '7' }, body: { since: '2026-11-26T00:00:00Z' }, response: { retried: 12 } },
    run: ({ db, who, params, body, queue }) => recoverWebhook(db, queue, who.workspaceId, params.id, body.since),
  }),
});

/** The automation tool's flow-data registrations: stored and listed; they fire when flows run, not yet. */
export const externalWebhookOperations = operationsOf('Webhooks', {
  list: operation({
    id: 'externalWebhooks.list',
    summary: 'List external webhooks',
    description: "The flow-data registrations, in the order they were made. They fire when flows run, which this service does not do yet.",
    access: read,
    query: webhooksQuery,
    output: externalWebhookPageSchema,
    outputDescription: 'A page of registrations',
    examples: { query: { page: '1', perPage: '20' }, response: { data: [exampleExternal], pageCount: 1 } },
    run: ({ db, who, query }) => listExternalWebhooksPage(db, who.workspaceId, query),
  }),
  create: operation({
    id: 'externalWebhooks.create',
    summary: 'Register an external webhook',
    description: "Where to send a flow event's data. Stored and listed; it fires when flows run, which this service does not do yet.",
    access: write,
    body: createExternalWebhookInput,
    output: externalWebhookSchema,
    outputDescription: 'The registration',
    examples: { body: { url: exampleExternal.url, event: exampleExternal.event, provider: exampleExternal.provider }, response: exampleExternal },
    run: ({ db, who, body, outbound, at }) => createExternalWebhook(db, who.workspaceId, body, outbound, at.body),
  }),
  delete: operation({
    id: 'externalWebhooks.delete',
    summary: 'Delete an external webhook',
    access: { action: 'delete', scope: 'webhooks' },
    params: idParams,
    output: noContent,
    outputDescription: 'Deleted',
    examples: { params: { id: '3' }, response: undefined },
    run: ({ db, who, params }) => deleteExternalWebhook(db, who.workspaceId, params.id),
    present: () => undefined,
  }),
});
