import { z } from 'zod';
import { EXTERNAL_EVENT_ATTEMPTS } from '../../domain/flows/flow.schema.js';
import { digitId } from '../../domain/shared/schemas.js';
import type { ExternalWebhook, WebhookDelivery } from '../../domain/webhooks/webhook.schema.js';
import { deliveryStatuses, webhookConditionSchema } from '../../domain/webhooks/webhook.schema.js';
import type { WebhookRecord } from '../../domain/webhooks/webhook.repository.js';
import { externalWebhookOperations as externalWebhooks, webhookOperations as webhooks } from '../../domain/webhooks/webhook.operations.js';
import { withSecret } from '../../domain/webhooks/webhook.service.js';
import { eventTypeSchema } from '../../domain/workspace-events/workspace-event.schema.js';
import type { ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { contractEnum } from '../enums.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { zodInputType } from '../zod-input.js';
import { EventTypeEnum } from './workspace-event.type.js';

/**
 * Webhooks and external webhooks (scope `webhooks`), over the operations REST runs
 * (src/domain/webhooks/webhook.operations.ts). Where REST answers 204, these answer `Success`.
 */

const WebhookConditionType = builder.objectRef<z.infer<typeof webhookConditionSchema>>('WebhookCondition').implement({
  description: 'An event type, and for tag and sequence events the tag or sequence (sourceId); an event of another source does not fire it.',
  fields: (t) => ({
    type: t.expose('type', { type: EventTypeEnum }),
    sourceId: t.exposeID('sourceId', { nullable: true, description: "The tag's or sequence's plain id" }),
  }),
});

export const WebhookType = builder.node(builder.objectRef<WebhookRecord>('Webhook'), {
  ...nodeOptions('Webhook', webhooks.get.access, ({ loaders }) => loaders.webhook),
  description: "Where the workspace's events are POSTed, signed with Standard Webhooks, retried, and logged.",
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    url: t.exposeString('url'),
    conditions: t.field({ type: [WebhookConditionType], resolve: (w) => w.conditions }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'Why the service switched it off (a 410, or every delivery failing for days)' }),
    failingSince: t.expose('failingSince', { type: 'DateTime', nullable: true, description: 'Since when every delivery has failed; null while it answers' }),
    secret: t.string({
      nullable: true,
      description: 'The signing secret (`whsec_…`): verify `webhook-signature` with it. Null for read-only tokens',
      resolve: (w, _args, { who }) => withSecret(w, who).secret ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const DeliveryStatusEnum = contractEnum('WebhookDeliveryStatus', deliveryStatuses, 'pending: an attempt is due; succeeded; failed: every attempt of the schedule failed, or the webhook was disabled');

const WebhookAttemptType = builder.objectRef<WebhookDelivery['attempts'][number]>('WebhookAttempt').implement({
  fields: (t) => ({
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when there was none (a refused address, a timeout)" }),
    error: t.exposeString('error', { nullable: true }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'The first 1 KB of the answer' }),
  }),
});

const WebhookDeliveryType = builder.objectRef<WebhookDelivery>('WebhookDelivery').implement({
  description: 'One event sent to one webhook: its state and every attempt.',
  fields: (t) => ({
    id: t.exposeID('id'),
    webhookId: t.exposeID('webhookId'),
    eventId: t.exposeID('eventId', { description: 'The event, and the `webhook-id` header of every attempt' }),
    event: t.exposeString('event', { description: "The body's `event`" }),
    status: t.expose('status', { type: DeliveryStatusEnum }),
    attempts: t.field({ type: [WebhookAttemptType], resolve: (d) => d.attempts }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ExternalWebhookType = builder.node(builder.objectRef<ExternalWebhook>('ExternalWebhook'), {
  ...nodeOptions('ExternalWebhook', externalWebhooks.list.access, ({ loaders }) => loaders.externalWebhook),
  description: `A flow-data registration of the automation tool: when a flow's \`customEvent\` item named \`event\` runs, \`{event, contact_id, flow_id, flow_name, timestamp}\` is POSTed to \`url\`, unsigned, through the outbound address guard, retried by the job queue up to ${EXTERNAL_EVENT_ATTEMPTS} tries.`,
  fields: (t) => ({
    rawId: rawIdField(t),
    url: t.exposeString('url'),
    event: t.exposeString('event'),
    provider: t.exposeString('provider'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WebhookRecoveryType = builder.objectRef<{ retried: number }>('WebhookRecovery').implement({
  fields: (t) => ({ retried: t.exposeInt('retried', { description: 'How many failed deliveries were scheduled again' }) }),
});

const webhookIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Webhook'));

builder.queryField('webhooks', (t) =>
  t.field({
    type: pageOf('WebhookPage', WebhookType),
    description: 'Like GET /v1/webhooks: in the order they were registered.',
    access: webhooks.list.access,
    args: pageArgs(t.arg),
    validate: pageArgsSchema,
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(webhooks.list, ctx, { query: args }),
  }),
);

builder.queryField('webhook', (t) =>
  t.field({
    type: WebhookType,
    description: 'Like GET /v1/webhooks/{id}.',
    access: webhooks.get.access,
    args: { id: webhookIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(webhooks.get, ctx, { params: { id } }),
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: pageOf('WebhookDeliveryPage', WebhookDeliveryType),
    description: "Like GET /v1/webhooks/{id}/deliveries: the webhook's deliveries, newest first, each with its attempts.",
    access: webhooks.listDeliveries.access,
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }), status: t.arg({ type: DeliveryStatusEnum }), ...pageArgs(t.arg) },
    // A field-level schema answers the arguments it names only: the id is checked here too.
    validate: pageArgsSchema.extend({ id: recordIdArg('Webhook'), status: z.enum(deliveryStatuses).nullish() }),
    complexity: pageComplexity,
    resolve: (_r, { id, status, page, perPage }, ctx) => runOperation(webhooks.listDeliveries, ctx, { params: { id }, query: { page, perPage, status: status ?? undefined } }),
  }),
);

builder.queryField('externalWebhooks', (t) =>
  t.field({
    type: pageOf('ExternalWebhookPage', ExternalWebhookType),
    description: 'Like GET /v1/external-webhooks: the flow-data registrations, in the order they were made.',
    access: externalWebhooks.list.access,
    args: pageArgs(t.arg),
    validate: pageArgsSchema,
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(externalWebhooks.list, ctx, { query: args }),
  }),
);

/** Conditions name event types by the GraphQL enum and tags or sequences by plain id. */
const conditionTypes = {
  schemaTypes: new Map<z.ZodType, object | string>([
    [eventTypeSchema, EventTypeEnum],
    [digitId, 'ID'],
  ]),
  schemaNames: new Map<z.ZodType, string>([[webhookConditionSchema, 'WebhookConditionInput']]),
};
const CreateWebhookInputType = zodInputType('CreateWebhookInput', webhooks.create.body, conditionTypes);
const UpdateWebhookInputType = zodInputType('UpdateWebhookInput', webhooks.update.body, conditionTypes);
const CreateExternalWebhookInputType = zodInputType('CreateExternalWebhookInput', externalWebhooks.create.body);

builder.mutationField('createWebhook', (t) =>
  t.field({
    type: WebhookType,
    description: 'Like POST /v1/webhooks: a URL (public address, http or https) and the conditions it fires on; answers it with its signing secret.',
    access: webhooks.create.access,
    args: { input: t.arg({ type: CreateWebhookInputType, required: true }).validate(webhooks.create.body) },
    resolve: (_r, { input }, ctx) => runOperation(webhooks.create, ctx, { body: input }),
  }),
);

builder.mutationField('updateWebhook', (t) =>
  t.field({
    type: WebhookType,
    description: 'Like PATCH /v1/webhooks/{id}: any of name, url, conditions and enabled.',
    access: webhooks.update.access,
    args: { id: webhookIdArg(t.arg), input: t.arg({ type: UpdateWebhookInputType, required: true }).validate(webhooks.update.body) },
    resolve: (_r, { id, input }, ctx) => runOperation(webhooks.update, ctx, { params: { id }, body: input }),
  }),
);

builder.mutationField('deleteWebhook', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/webhooks/{id}: the webhook and its delivery log go.',
    access: webhooks.delete.access,
    args: { id: webhookIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(webhooks.delete, ctx, { params: { id } }),
  }),
);

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: WebhookType,
    description: 'Like POST /v1/webhooks/{id}/secret/rotate: a new secret; the previous one also signs for 24 hours.',
    access: webhooks.rotateSecret.access,
    args: { id: webhookIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(webhooks.rotateSecret, ctx, { params: { id } }),
  }),
);

builder.mutationField('retryWebhookDelivery', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry: sends the delivery again now.',
    access: webhooks.retryDelivery.access,
    args: { id: webhookIdArg(t.arg), deliveryId: t.arg.id({ required: true, description: "The delivery's id" }).validate(webhooks.retryDelivery.params.shape.deliveryId) },
    resolve: (_r, { id, deliveryId }, ctx) => runOperation(webhooks.retryDelivery, ctx, { params: { id, deliveryId } }),
  }),
);

builder.mutationField('testWebhook', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like POST /v1/webhooks/{id}/test: sends it a signed `ping` event; the delivery log shows the answer.',
    access: webhooks.test.access,
    args: { id: webhookIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(webhooks.test, ctx, { params: { id } }),
  }),
);

builder.mutationField('recoverWebhook', (t) =>
  t.field({
    type: WebhookRecoveryType,
    description: 'Like POST /v1/webhooks/{id}/recover: tries again every failed delivery created at or after `since`.',
    access: webhooks.recover.access,
    args: { id: webhookIdArg(t.arg), since: t.arg({ type: 'DateTime', required: true }).validate(webhooks.recover.body.shape.since) },
    resolve: (_r, { id, since }, ctx) => runOperation(webhooks.recover, ctx, { params: { id }, body: { since }, at: { body: [] } }),
  }),
);

builder.mutationField('createExternalWebhook', (t) =>
  t.field({
    type: ExternalWebhookType,
    description: `Like POST /v1/external-webhooks: where a flow event sends its data. A flow's \`customEvent\` item named \`event\` POSTs \`{event, contact_id, flow_id, flow_name, timestamp}\` to \`url\`, unsigned, retried by the job queue up to ${EXTERNAL_EVENT_ATTEMPTS} tries.`,
    access: externalWebhooks.create.access,
    args: { input: t.arg({ type: CreateExternalWebhookInputType, required: true }).validate(externalWebhooks.create.body) },
    resolve: (_r, { input }, ctx) => runOperation(externalWebhooks.create, ctx, { body: input }),
  }),
);

builder.mutationField('deleteExternalWebhook', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/external-webhooks/{id}.',
    access: externalWebhooks.delete.access,
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('ExternalWebhook')) },
    resolve: (_r, { id }, ctx) => runOperation(externalWebhooks.delete, ctx, { params: { id } }),
  }),
);
