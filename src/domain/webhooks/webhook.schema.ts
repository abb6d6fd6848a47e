import { z } from 'zod';
import { EXTERNAL_EVENT_ATTEMPTS } from '../flows/flow.schema.js';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { eventTypeSchema, sourceRequiredTypes, sourcedTypes } from '../workspace-events/workspace-event.schema.js';

/**
 * Webhooks: endpoints a workspace registers to be told of its events (workspace-events/), each a
 * URL, a name and the conditions it fires on. The real product's surface (list, create, delete)
 * and ours beside it (get, change, rotate the secret, the delivery log, retry, test, recover).
 */

export const MAX_URL_LENGTH = 1000;
export const MAX_CONDITIONS = 50;

const sourceTypes = new Set<string>(sourcedTypes);
const requiredSource = new Set<string>(sourceRequiredTypes);

export const webhookConditionSchema = z
  .strictObject({
    type: eventTypeSchema,
    sourceId: digitId.optional().meta({ description: 'The tag (tagApplied, tagRemoved) or sequence (subscribedToSequence, unsubscribedFromSequence, where it is required) the condition is about' }),
  })
  .superRefine((c, ctx) => {
    if (c.sourceId !== undefined && !sourceTypes.has(c.type)) ctx.addIssue({ code: 'custom', message: `sourceId applies to ${sourcedTypes.join(', ')} only`, path: ['sourceId'] });
    if (c.sourceId === undefined && requiredSource.has(c.type)) ctx.addIssue({ code: 'custom', message: `sourceId is required for ${c.type}: the sequence`, path: ['sourceId'] });
  })
  .meta({ id: 'WebhookCondition', description: 'An event type, and for tag and sequence events the tag or sequence; an event of another source does not fire it.' });
export type WebhookCondition = z.infer<typeof webhookConditionSchema>;

const nameInput = z.string().trim().min(1, 'name must not be empty').max(255, 'name must be at most 255 characters');
/** Checked as a URL the service may call by the service (the address guard needs the settings). */
const urlInput = z.string().max(MAX_URL_LENGTH, `url must be at most ${MAX_URL_LENGTH} characters`).meta({ description: `http or https, at most ${MAX_URL_LENGTH} characters; its host must be a public address` });
const conditionsInput = z
  .array(webhookConditionSchema)
  .min(1, 'conditions must hold at least one condition')
  .max(MAX_CONDITIONS, `conditions must hold at most ${MAX_CONDITIONS} conditions`);

export const createWebhookInput = z
  .strictObject({ name: nameInput, url: urlInput, conditions: conditionsInput })
  .meta({ id: 'CreateWebhookInput', description: 'name (trimmed, 1 to 255 characters), url and at least one condition.' });
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const updateWebhookInput = z
  .strictObject({
    name: nameInput.optional(),
    url: urlInput.optional(),
    conditions: conditionsInput.optional(),
    enabled: z.boolean().optional().meta({ description: 'false stops its deliveries; true starts them again (and forgets why it was disabled)' }),
  })
  .refine((o) => Object.keys(o).length > 0, { message: 'Provide at least one field to change' })
  .meta({ id: 'UpdateWebhookInput', description: 'Any of name, url, conditions and enabled; at least one.', minProperties: 1 });
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhookSchema = z
  .object({
    id: digitId,
    name: z.string(),
    url: z.string(),
    conditions: z.array(webhookConditionSchema),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().meta({ description: 'Why the service switched it off (a 410 answer, or every delivery failing for days); null otherwise' }),
    failingSince: isoDateTime.nullable().meta({ description: 'Since when every delivery has failed; null while it answers' }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhookSchema>;

/** A webhook with its signing secret: what its create, get and rotate answer. */
export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z
      .string()
      .optional()
      .meta({ description: 'The Standard Webhooks signing secret (`whsec_` + base64 of 32 bytes): verify `webhook-signature` with it. Tokens with full permission only; absent for read-only tokens' }),
  })
  .meta({ id: 'WebhookWithSecret' });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const webhookPageSchema = z.object({ data: z.array(webhookSchema), pageCount: z.number().int() }).meta({ id: 'WebhookPage' });
export const webhooksQuery = z.strictObject({ ...pageQueryFields });

export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const;

export const webhookAttemptSchema = z
  .object({
    attemptedAt: isoDateTime,
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when there was none (a refused address, a timeout)" }),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable().meta({ description: 'The first 1 KB of the answer' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const webhookDeliverySchema = z
  .object({
    id: digitId,
    webhookId: digitId,
    eventId: digitId.meta({ description: 'The event, and the `webhook-id` header of every attempt' }),
    event: z.string().meta({ description: "The body's `event`" }),
    status: z.enum(deliveryStatuses).meta({ description: 'pending: an attempt is due; succeeded; failed: every attempt of the schedule failed, or the webhook was disabled or deleted' }),
    attempts: z.array(webhookAttemptSchema),
    nextAttemptAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const deliveryPageSchema = z.object({ data: z.array(webhookDeliverySchema), pageCount: z.number().int() }).meta({ id: 'WebhookDeliveryPage' });
export const deliveriesQuery = z.strictObject({
  ...pageQueryFields,
  status: z.enum(deliveryStatuses).optional().meta({ description: 'Only deliveries in this state' }),
});

export const deliveryParams = z.strictObject({ id: digitId.meta({ description: "The webhook's id" }), deliveryId: digitId.meta({ description: "The delivery's id" }) });

export const recoverInput = z
  .strictObject({ since: isoDateTime.meta({ description: 'Failed deliveries created at or after this instant are tried again' }) })
  .meta({ id: 'RecoverWebhookInput' });
export const recoveredSchema = z.object({ retried: z.number().int().meta({ description: 'How many failed deliveries were scheduled again' }) }).meta({ id: 'WebhookRecovery' });

/** What POST /v1/webhooks/{id}/test sends, to that webhook only: a delivery of its own, signed like any. */
export const pingBodySchema = z
  .strictObject({ event: z.literal('ping'), webhook_id: digitId, timestamp: isoDateTime })
  .meta({ id: 'PingEvent', description: 'Sent by POST /v1/webhooks/{id}/test to that webhook alone (no condition selects it), as a delivery of its own.' });
export type PingBody = z.infer<typeof pingBodySchema>;

// External webhooks: the automation tool's flow-data trigger registers one per flow event.

export const createExternalWebhookInput = z
  .strictObject({
    url: urlInput,
    event: z.string().trim().min(1, 'event must not be empty').max(255, 'event must be at most 255 characters'),
    provider: z.string().trim().min(1, 'provider must not be empty').max(255, 'provider must be at most 255 characters'),
  })
  .meta({ id: 'CreateExternalWebhookInput', description: `Where to send the data a flow event produces: a flow's \`customEvent\` item named \`event\` POSTs \`{event, contact_id, flow_id, flow_name, timestamp}\` to \`url\`, unsigned, retried by the job queue up to ${EXTERNAL_EVENT_ATTEMPTS} tries.` });
export type CreateExternalWebhookInput = z.infer<typeof createExternalWebhookInput>;

export const externalWebhookSchema = z
  .object({ id: digitId, url: z.string(), event: z.string(), provider: z.string(), createdAt: isoDateTime, updatedAt: isoDateTime })
  .meta({ id: 'ExternalWebhook' });
export type ExternalWebhook = z.infer<typeof externalWebhookSchema>;
export const externalWebhookPageSchema = z.object({ data: z.array(externalWebhookSchema), pageCount: z.number().int() }).meta({ id: 'ExternalWebhookPage' });
