import { z } from 'zod';
import { channelSchema } from '../comment-automations/comment-automation.schema.js';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * The outbox: what the sandbox channel adapter recorded instead of calling a network, one entry per
 * outgoing action, so a user sees exactly what would have been sent (GET /v1/outbox, GraphQL
 * `outbox`). Entries are written by the adapter only; the API reads them.
 */
export const outboxActionSchema = z.enum(['privateReply', 'publicReply', 'message', 'like', 'hide', 'unhide', 'threadControl']).meta({ id: 'OutboxAction' });
export type OutboxAction = z.infer<typeof outboxActionSchema>;

/** Which table an automation id names: comment automations and lead-ad automations number their ids apart. */
export const automationKindSchema = z.enum(['comment', 'leadAd']).meta({ id: 'AutomationKind' });
export type AutomationKind = z.infer<typeof automationKindSchema>;

/** What a reply or message carries: a text, or the hand-off of the conversation to a flow or an AI agent by id. */
export const outgoingContentSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('flow'), flowId: z.string() }),
    z.object({ type: z.literal('AIAgent'), agentId: z.string() }),
    z.object({ type: z.literal('image'), url: z.string() }),
    z.object({ type: z.literal('quickReplies'), text: z.string(), replies: z.array(z.object({ title: z.string(), payload: z.string() })) }),
  ])
  .meta({ id: 'OutgoingContent', description: 'A text, an image (by URL), a text with quick replies, or a flow or AI agent the conversation is handed to, by id' });
export type OutgoingContent = z.infer<typeof outgoingContentSchema>;

/**
 * A thread-control (handover) call, as asked: `take` makes our app the owner of the person's thread;
 * `pass` hands it to `targetAppId`; `release` gives it up to the other app. `metadata` goes to the
 * app that receives the thread.
 */
export const threadControlRequestSchema = z
  .object({
    action: z.enum(['take', 'pass', 'release']),
    targetAppId: z.string().nullable().meta({ description: 'The app a pass hands the thread to; null for take and release' }),
    metadata: z.string().nullable().meta({ description: 'Passed on to the app that receives the thread' }),
  })
  .meta({ id: 'ThreadControlRequest', description: 'A thread-control (handover) call as it was asked' });
export type ThreadControlRequest = z.infer<typeof threadControlRequestSchema>;

export const outboxEntrySchema = z
  .object({
    id: digitId,
    createdAt: isoDateTime,
    channel: channelSchema,
    inboxId: digitId.meta({ description: 'The inbox (connected account) it would have gone out from' }),
    action: outboxActionSchema,
    commentId: z.string().nullable().meta({ description: "The network's id of the comment replied to, liked, hidden or unhidden; null for a message" }),
    postId: z.string().nullable().meta({ description: "The network's id of the comment's post or medium, when known" }),
    recipientId: z.string().nullable().meta({ description: "The network's id of the person a message goes to; null for comment actions" }),
    contactId: digitId.nullable().meta({ description: 'The contact it concerns, when known (kept after the contact is deleted)' }),
    automationKind: automationKindSchema.nullable().meta({ description: 'comment or leadAd: which kind of automation acted; null when none did' }),
    automationId: digitId.nullable().meta({ description: 'The automation that acted, when one did (kept after it is deleted)' }),
    payload: outgoingContentSchema.nullable().meta({ description: 'What was sent; null for like, hide, unhide and threadControl' }),
    threadControl: threadControlRequestSchema.optional().meta({ description: 'A threadControl entry only: the handover call as asked' }),
  })
  .meta({ id: 'OutboxEntry' });
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

export const outboxPageSchema = z.object({ data: z.array(outboxEntrySchema), pageCount: z.number().int() }).meta({ id: 'OutboxPage' });

export const outboxQuery = z.strictObject({
  ...pageQueryFields,
  contactId: digitId.optional().meta({ description: "Only this contact's entries" }),
  automationId: digitId.optional().meta({ description: "Only this automation's entries (of either kind unless automationKind says which)" }),
  automationKind: automationKindSchema.optional().meta({ description: 'Only entries of comment automations or of lead-ad automations' }),
  action: outboxActionSchema.optional(),
  channel: channelSchema.optional(),
});
export type OutboxFilter = Partial<Pick<z.infer<typeof outboxQuery>, 'contactId' | 'automationId' | 'automationKind' | 'action' | 'channel'>>;

/** An entry to record: the adapter call's workspace, inbox, ids and what it sent. */
export interface NewOutboxEntry {
  inboxId: number;
  channel: z.infer<typeof channelSchema>;
  action: OutboxAction;
  commentId?: string | null;
  postId?: string | null;
  recipientId?: string | null;
  contactId?: number | null;
  automation?: { kind: AutomationKind; id: number } | null;
  payload?: OutgoingContent | null;
  /** A threadControl entry's call (stored in the payload column: an entry has one or the other). */
  threadControl?: ThreadControlRequest | null;
  /** A retried action's key: an entry with the same key in the workspace is answered instead of a new one. */
  dedupeKey?: string | null;
}
