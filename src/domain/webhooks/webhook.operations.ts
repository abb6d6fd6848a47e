import { z } from 'zod';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../../config/config.js';
import { customEventBodySchema, externalEventRetryDelays, externalEventTries, type CustomEventBody } from '../flows/flow.schema.js';
import { operation, operationsOf } from '../shared/operation.js';
import { idParams, successSchema } from '../shared/schemas.js';
import { eventBodySchemas, eventNames, eventTypes, unsentTypes, type EventBody, type EventType } from '../workspace-events/workspace-event.schema.js';
import {
  createExternalWebhookInput,
  pingBodySchema,
  type PingBody,
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

/** The automation tool's flow-data registrations: a flow's customEvent item posts to those of its event name. */
export const externalWebhookOperations = operationsOf('Webhooks', {
  list: operation({
    id: 'externalWebhooks.list',
    summary: 'List external webhooks',
    description: `The flow-data registrations, in the order they were made. When a flow's \`customEvent\` item runs, each registration of that event name gets \`{event, contact_id, flow_id, flow_name, timestamp}\` POSTed, unsigned, through the outbound address guard; a non-2xx answer or a failure is tried again by the job queue, ${externalEventTries}.`,
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
    description: `Where to send a flow event's data: when a flow's \`customEvent\` item named \`event\` runs, \`{event, contact_id, flow_id, flow_name, timestamp}\` is POSTed to \`url\`, unsigned (the product's shape), through the outbound address guard; a non-2xx answer or a failure is tried again by the job queue, ${externalEventTries}.`,
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

/**
 * A request this service makes to a receiver, for the OpenAPI document's `webhooks`: its body's
 * schema and an example, and whether it carries the Standard Webhooks signature (the external
 * webhooks' flow events do not: the product sends them unsigned).
 */
export interface OutboundEvent {
  name: string;
  summary: string;
  description: string;
  body: z.ZodType;
  example: unknown;
  signed: boolean;
}

const spokenDelay = (seconds: number) =>
  seconds === 0 ? 'at once' : seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
const defaultDelays = DEFAULT_WEBHOOK_RETRY_SCHEDULE.split(',').map(Number);
const defaultSchedule = defaultDelays.map(spokenDelay).join(', ');
const defaultTries = defaultDelays.length;

const signedDelivery = (to: string) => [
  `POSTed ${to}, as \`application/json\` with \`user-agent: messaging-api-webhooks\`, signed by the Standard Webhooks headers below; a receiver verifies them with the \`standardwebhooks\` package and de-duplicates on \`webhook-id\`.`,
  `A 2xx within WEBHOOK_TIMEOUT_MS (15 s; connecting within 5 s) is success. Anything else (another status, a 3xx: redirects are never followed, a time-out, a refused connection or address) is a failure. Tries follow WEBHOOK_RETRY_SCHEDULE, the delay before each: by default ${defaultSchedule} (${defaultTries} tries; each retry's delay ±10%); \`Retry-After\` on 429 or 503 moves the next try later. After the last the delivery is \`failed\`. A 410 disables the webhook at once; so does failing every delivery for WEBHOOK_DISABLE_AFTER_SECONDS (5 days).`,
].join('\n\n');

const at = '2026-11-27T10:05:00.100Z';
const messageExample = { message_id: '311', conversation_id: '4', inbox_id: '2', text: 'Do you ship to Lisbon?', attachments: [] };
const eventExamples: { [T in EventType]: EventBody<T> } = {
  archived: { event: 'conversation_archived', contact_id: '42', timestamp: at, conversation_id: '4', archived_by: '5' },
  contactInfoUpdated: { event: 'contact_info_updated', contact_id: '42', timestamp: at, info_type: 'first_name', old_value: 'Ada', new_value: 'Augusta' },
  contactReferredANewContact: { event: 'contact_referred_new_contact', contact_id: '42', timestamp: at },
  contactReferredExistingContact: { event: 'contact_referred_existing_contact', contact_id: '42', timestamp: at },
  contactUnsubscribedFormBroadcast: { event: 'contact_unsubscribed', contact_id: '42', timestamp: at },
  conversationAssigned: { event: 'conversation_assigned', contact_id: '42', timestamp: at, conversation_id: '4', assigned_to: '6', assigned_by: '5' },
  conversationTransferredToBot: { event: 'conversation_transferred_to_bot', contact_id: '42', timestamp: at, conversation_id: '4', transferred_by: null },
  conversationTransferredToHuman: { event: 'conversation_transferred_to_human', contact_id: '42', timestamp: at, conversation_id: '4', transferred_by: '5' },
  conversationUnassigned: { event: 'conversation_unassigned', contact_id: '42', timestamp: at, conversation_id: '4', assigned_to: '6', unassigned_by: null },
  customFieldValueChanged: { event: 'custom_field_changed', contact_id: '42', timestamp: at, custom_field: { name: 'Plan', old_value: 'basic', new_value: 'pro' } },
  followUp: { event: 'marked_as_follow_up', contact_id: '42', timestamp: at, conversation_id: '4', marked_by: '5' },
  messageReceived: { event: 'message_received', contact_id: '42', timestamp: at, ...messageExample },
  messageSent: { event: 'message_sent', contact_id: '42', timestamp: at, ...messageExample, message_id: '312', text: 'We do! Delivery takes 3 to 5 days.', automation_kind: 'comment', automation_id: '9' },
  newContact: { event: 'new_contact', contact_id: '42', timestamp: at, name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', phone: '+14155550123', email: 'ada@example.com', custom_fields: {} },
  subscribedToSequence: { event: 'subscribed_to_sequence', contact_id: '42', timestamp: at, sequence_id: '8', sequence_name: 'Welcome' },
  tagApplied: { event: 'tag_applied', contact_id: '42', timestamp: at, tag: 'vip' },
  tagRemoved: { event: 'tag_removed', contact_id: '42', timestamp: at, tag: 'vip' },
  unsubscribedFromSequence: { event: 'unsubscribed_from_sequence', contact_id: '42', timestamp: at, sequence_id: '8', sequence_name: 'Welcome' },
};
const unsent: ReadonlySet<EventType> = new Set(unsentTypes);
const pingExample: PingBody = { event: 'ping', webhook_id: '7', timestamp: at };
const customEventExample: CustomEventBody = { event: 'order_placed', contact_id: '42', flow_id: '12', flow_name: 'Order follow-up', timestamp: at };

/** Every body this service POSTs to receivers: one per event type, the test ping, and a flow's custom event. */
export const outboundEvents: OutboundEvent[] = [
  ...eventTypes.map((type) => ({
    name: type,
    summary: `${eventNames[type]} (condition ${type})`,
    description: unsent.has(type)
      ? 'The condition is accepted, so the automation tool can register it; the body is never sent.'
      : signedDelivery('to every enabled webhook of the workspace with a condition on this type (for a tag or sequence type, on its tag or sequence, or on none)'),
    body: eventBodySchemas[type],
    example: eventExamples[type],
    signed: true,
  })),
  { name: 'ping', summary: 'ping (POST /v1/webhooks/{id}/test)', description: signedDelivery('to the webhook tested alone, whatever its conditions'), body: pingBodySchema, example: pingExample, signed: true },
  {
    name: 'flowCustomEvent',
    summary: "A flow's custom event (external webhooks)",
    description: [
      "POSTed when a flow's `customEvent` item runs to every external webhook of the workspace registered (POST /v1/external-webhooks) for its `name`, one job per registration: unsigned, as the product sends it (no `webhook-*` headers), as `application/json` with `user-agent: messaging-api-flows`, through the outbound address guard, with the webhooks' time-outs and no redirects followed.",
      `A 2xx is success. Anything else fails the job, which the job queue tries again after about e^n seconds (${externalEventRetryDelays}), ${externalEventTries} (WEBHOOK_RETRY_SCHEDULE does not apply); after the last an error log (action \`external-event\`) says why. A registration deleted meanwhile is not called.`,
    ].join('\n\n'),
    body: customEventBodySchema,
    example: customEventExample,
    signed: false,
  },
];
