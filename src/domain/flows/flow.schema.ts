import { z } from 'zod';
import { pageQueryFields } from '../shared/pagination.js';
import { retryDelayMs } from '../../queue/types.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * A flow: an ordered list of items a contact is sent, each a message or an action, run in order.
 * Messages go out through the channel adapter; actions change the contact through the same
 * services as the API (so they record the same events). Texts take the contact placeholders
 * (`{{first_name}}`, `{{full_name}}`, `{{custom.<field>}}`) and `{{image:<dynamic image id>}}`,
 * which becomes the signed link of that image rendered for the contact.
 */

export const MAX_FLOW_ITEMS = 50;
export const MAX_FLOW_TEXT = 2000;
export const MAX_QUICK_REPLIES = 13;

const text = z.string().trim().min(1, 'text must not be empty').max(MAX_FLOW_TEXT, `text must be at most ${MAX_FLOW_TEXT} characters`);
const quickReply = z.strictObject({
  title: z.string().trim().min(1, 'title must not be empty').max(20, 'title must be at most 20 characters'),
  payload: z.string().max(1000, 'payload must be at most 1000 characters').optional(),
});

export const flowItemSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('text'), text }),
    z.strictObject({ type: z.literal('image'), url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }).max(1000, 'url must be at most 1000 characters') }),
    z.strictObject({ type: z.literal('dynamicImage'), imageId: digitId }),
    z.strictObject({ type: z.literal('quickReplies'), text, replies: z.array(quickReply).min(1, 'replies must hold at least 1 reply').max(MAX_QUICK_REPLIES, `replies must hold at most ${MAX_QUICK_REPLIES} replies`) }),
    z.strictObject({ type: z.literal('addTag'), tagId: digitId }),
    z.strictObject({ type: z.literal('removeTag'), tagId: digitId }),
    z.strictObject({
      type: z.literal('setCustomField'),
      customFieldId: digitId,
      value: z.union([z.string().max(MAX_FLOW_TEXT), z.number(), z.boolean(), z.null()], {
        error: (issue) => (issue.input === undefined ? 'Required' : `value must be a string of at most ${MAX_FLOW_TEXT} characters, a number, a boolean or null`),
      }),
    }),
    z.strictObject({ type: z.literal('subscribeSequence'), sequenceId: digitId }),
    z.strictObject({
      type: z.literal('customEvent'),
      name: z.string().trim().min(1, 'name must not be empty').max(255, 'name must be at most 255 characters').meta({ description: 'Fires the external webhooks registered for this event' }),
    }),
  ])
  .meta({ id: 'FlowItem', description: 'A message (text, image, dynamicImage, quickReplies) or an action (addTag, removeTag, setCustomField, subscribeSequence, customEvent)' });
export type FlowItem = z.infer<typeof flowItemSchema>;

/** The item types that send a message (the others are actions). */
export const messageItemTypes = new Set<FlowItem['type']>(['text', 'image', 'dynamicImage', 'quickReplies']);

const flowName = z.string().trim().min(1, 'name must not be empty').max(255, 'name must be at most 255 characters');
const flowItems = z.array(flowItemSchema).min(1, 'items must hold at least 1 item').max(MAX_FLOW_ITEMS, `items must hold at most ${MAX_FLOW_ITEMS} items`);

export const flowSchema = z
  .object({ id: digitId, name: z.string(), items: z.array(flowItemSchema), createdAt: isoDateTime, updatedAt: isoDateTime })
  .meta({ id: 'Flow' });
export type Flow = z.infer<typeof flowSchema>;

export const flowPageSchema = z.object({ data: z.array(flowSchema), pageCount: z.number().int() }).meta({ id: 'FlowPage' });
export const flowsQuery = z.strictObject({ ...pageQueryFields });

export const createFlowInput = z.strictObject({ name: flowName, items: flowItems }).meta({ id: 'CreateFlowInput' });
export type CreateFlowInput = z.infer<typeof createFlowInput>;

export const updateFlowInput = z
  .strictObject({ name: flowName.optional(), items: flowItems.optional() })
  .refine((f) => f.name !== undefined || f.items !== undefined, { message: 'Provide at least one of name or items' })
  .meta({ id: 'UpdateFlowInput', description: 'At least one of name or items; fields left out keep their value.', minProperties: 1 });
export type UpdateFlowInput = z.infer<typeof updateFlowInput>;

/** Tries of one custom event's POST to one external webhook, the job queue's backoff between them. */
export const EXTERNAL_EVENT_ATTEMPTS = 5;
/** The retries as the API reference states them: "5 tries in all". */
export const externalEventTries = `${EXTERNAL_EVENT_ATTEMPTS} tries in all`;
/** The delays before each retry, spoken: "3 s, 7 s, 20 s, 55 s". */
export const externalEventRetryDelays = Array.from({ length: EXTERNAL_EVENT_ATTEMPTS - 1 }, (_, i) => `${Math.round(retryDelayMs(i + 1) / 1000)} s`).join(', ');

/**
 * What a flow's `customEvent` item POSTs to each external webhook of its event name: the product's
 * flat JSON, unsigned (flow-events.service.ts builds it).
 */
export const customEventBodySchema = z
  .strictObject({
    event: z.string().meta({ description: "The item's `name`: the event the external webhook was registered for" }),
    contact_id: digitId,
    flow_id: digitId,
    flow_name: z.string(),
    timestamp: isoDateTime,
  })
  .meta({ id: 'FlowCustomEvent', description: "A flow's `customEvent` item ran for the contact." });
export type CustomEventBody = z.infer<typeof customEventBodySchema>;
