import { cursorLimitText } from '../shared/pagination.js';
import { z } from 'zod';
import { automationKindSchema } from '../outbox/outbox.schema.js';
import { identifierParams } from '../contacts/contact.schema.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * The messages of a contact's conversations, both ways: incoming ones stored from
 * the networks' `messaging` webhooks, outgoing ones sent through the channel adapter (the API's
 * sends and auto-replies, the engine's private replies and lead replies).
 */
export const messageDirectionSchema = z.enum(['incoming', 'outgoing']).meta({ id: 'MessageDirection' });
export type MessageDirection = z.infer<typeof messageDirectionSchema>;

export const messageStatusSchema = z
  .enum(['received', 'sent', 'failed'])
  .meta({ id: 'MessageStatus', description: 'received: an incoming message; sent: the network accepted it; failed: the network refused it (see error)' });

export const messageAttachmentSchema = z.object({ type: z.string(), url: z.string().nullable() }).meta({ id: 'MessageAttachment' });

export const messageSchema = z
  .object({
    id: digitId,
    contactId: digitId,
    conversationId: digitId,
    inboxId: digitId,
    direction: messageDirectionSchema,
    externalId: z.string().nullable().meta({ description: "The network's message id; null for a send that failed" }),
    text: z.string().nullable(),
    attachments: z.array(messageAttachmentSchema),
    status: messageStatusSchema,
    error: z.string().nullable().meta({ description: "The network's words when a send failed" }),
    automationKind: automationKindSchema.nullable().meta({ description: 'comment or leadAd when an automation sent it; null otherwise' }),
    automationId: digitId.nullable().meta({ description: 'The automation that sent it, when one did' }),
    seenAt: isoDateTime.nullable().meta({ description: 'When the contact read it (outgoing messages, from read receipts)' }),
    clickedAt: isoDateTime.nullable().meta({ description: 'When the contact first pressed one of its buttons (postback receipts)' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof messageSchema>;

// ---- GET /v1/contacts/{identifier}/messages ----

export const MAX_MESSAGE_LIMIT = 50;
export const DEFAULT_MESSAGE_LIMIT = 20;

const limitText = cursorLimitText(MAX_MESSAGE_LIMIT);

/** The list's filters, shared by REST (query text) and GraphQL (arguments). */
export const messageFilterPieces = {
  inboxId: digitId.meta({ description: "Only the messages of this inbox (one of the contact's)" }),
  direction: messageDirectionSchema.meta({ description: 'Only incoming or only outgoing messages' }),
};
export interface MessageFilters {
  inboxId?: string;
  direction?: MessageDirection;
}

export const messagesQuery = z.strictObject({
  cursor: z.string().max(500, 'cursor is not a cursor of this list').optional().meta({ description: 'nextCursor or prevCursor of a previous answer, with the same filters' }),
  limit: limitText.default(DEFAULT_MESSAGE_LIMIT).meta({ description: `Items per page, 1 to ${MAX_MESSAGE_LIMIT} (default ${DEFAULT_MESSAGE_LIMIT})` }),
  inboxId: messageFilterPieces.inboxId.optional(),
  direction: messageFilterPieces.direction.optional(),
});
export type MessagesQuery = z.output<typeof messagesQuery>;

export const messagePageSchema = z
  .object({
    data: z.array(messageSchema),
    nextCursor: z.string().nullable().meta({ description: 'Cursor of the next (older) page; null on the last page' }),
    prevCursor: z.string().nullable().meta({ description: 'Cursor of the previous (newer) page; null on the first page' }),
  })
  .meta({ id: 'MessagePage' });

export const messageParams = identifierParams.extend({ messageId: digitId.meta({ description: "The message's digit-string id" }) });

// ---- Sends ----

export const MAX_MESSAGE_TEXT = 2000;

const inboxIdField = digitId
  .optional()
  .meta({ description: "One of the contact's inboxes to send through; left out: the inbox of the contact's most recent conversation activity" });

export const sendMessageFields = {
  text: z
    .string()
    .trim()
    .min(1, 'text must not be empty')
    .max(MAX_MESSAGE_TEXT, `text must be at most ${MAX_MESSAGE_TEXT} characters`)
    .meta({ description: `The message, 1 to ${MAX_MESSAGE_TEXT} characters (trimmed)` }),
  inboxId: inboxIdField,
};
export const sendMessageInput = z.strictObject(sendMessageFields).meta({ id: 'SendMessageInput' });
export type SendMessageInput = z.output<typeof sendMessageInput>;

/** The body of POST .../auto-replies: optional (no body and `{}` both mean "the usual inbox"). */
export const triggerAutoReplyInput = z.strictObject({ inboxId: inboxIdField }).optional().meta({ id: 'TriggerAutoReplyInput' });
export type TriggerAutoReplyInput = z.output<typeof triggerAutoReplyInput>;

/** The messaging window of both networks: a message may go out within this long after the contact's last message. */
export const MESSAGING_WINDOW_HOURS = 24;
