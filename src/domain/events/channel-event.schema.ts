import { z } from 'zod';
import type { Channel } from '../comment-automations/comment-automation.schema.js';

/**
 * Webhook bodies as the networks send them, and the one normalised event the engine works on.
 *
 * Both networks post `{object, entry[]}`; each entry names the connected account (`id`: the photo
 * account or the page) and carries `changes[]` (comments, lead-gen), `messaging[]` (messages, read
 * and postback receipts, handover events) and/or `standby[]` (the same, while another app holds the
 * person's thread). The schemas are loose where the networks are: unknown keys are
 * ignored (networks add fields without notice), and a change of a field we do not handle is
 * acknowledged and skipped. What we do read must have the right type: a malformed body is 400,
 * the network logs it and we lose nothing we could have used.
 */
const id = z.union([z.string().min(1).max(200), z.number().int().nonnegative()]).transform(String);
const text = z.string().max(20_000);
const unixTime = z.number().int().nonnegative();
const attachment = z.looseObject({ type: z.string().max(50), payload: z.looseObject({ url: z.string().max(4000).optional() }).optional() });

/** Photo network: `field: comments` (also `live_comments`). */
export const photoCommentValue = z.looseObject({
  id,
  text: text.default(''),
  from: z.looseObject({ id, username: z.string().max(500).optional(), name: z.string().max(500).optional() }),
  media: z.looseObject({ id, media_product_type: z.string().max(50).optional() }).optional(),
  parent_id: id.optional(),
  attachments: z.array(attachment).max(50).optional(),
  created_time: unixTime.optional(),
});

/** Social network: `field: feed` with `item: comment`; `field: leadgen`. */
export const netFeedValue = z.looseObject({
  item: z.string().max(50),
  verb: z.string().max(50).optional(),
  comment_id: id.optional(),
  post_id: id.optional(),
  parent_id: id.optional(),
  message: text.optional(),
  from: z.looseObject({ id, name: z.string().max(500).optional() }).optional(),
  photo: z.string().max(4000).optional(),
  video: z.string().max(4000).optional(),
  link: z.string().max(4000).optional(),
  created_time: unixTime.optional(),
});
export const leadgenValue = z.looseObject({
  leadgen_id: id,
  page_id: id.optional(),
  form_id: id.optional(),
  ad_id: id.optional(),
  created_time: unixTime.optional(),
});

const change = z.looseObject({ field: z.string().max(100), value: z.unknown() });

const appId = z.union([z.string().min(1).max(100), z.number().int().nonnegative()]).transform(String);
const metadata = z.string().max(5000).optional();

const messaging = z
  .looseObject({
    // Every item names its person, but for `app_roles` (the account's apps and their roles).
    sender: z.looseObject({ id }).optional(),
    recipient: z.looseObject({ id }),
    timestamp: unixTime.optional(),
    message: z
      .looseObject({ mid: id, text: text.optional(), attachments: z.array(attachment).max(50).optional(), is_echo: z.boolean().optional() })
      .optional(),
    read: z.looseObject({ watermark: unixTime.optional(), mid: id.optional() }).optional(),
    postback: z.looseObject({ mid: id.optional(), title: z.string().max(1000).optional(), payload: z.string().max(5000).optional() }).optional(),
    // The handover protocol (`messaging_handovers`): who holds the person's thread.
    pass_thread_control: z.looseObject({ new_owner_app_id: appId, previous_owner_app_id: appId.optional(), metadata }).optional(),
    take_thread_control: z.looseObject({ new_owner_app_id: appId.optional(), previous_owner_app_id: appId.optional(), metadata }).optional(),
    request_thread_control: z.looseObject({ requested_owner_app_id: appId.optional(), metadata }).optional(),
    app_roles: z.record(z.string().max(100), z.array(z.string().max(100)).max(10)).optional(),
  })
  .superRefine((m, ctx) => {
    if (m.sender === undefined && m.app_roles === undefined) ctx.addIssue({ code: 'custom', path: ['sender'], message: 'Invalid input: expected object, received undefined' });
  });

export const webhookEntrySchema = z.looseObject({
  id,
  time: unixTime.optional(),
  changes: z.array(change).max(1000).optional(),
  messaging: z.array(messaging).max(1000).optional(),
  // What the person did while another app held the thread (the handover protocol's standby channel).
  standby: z.array(messaging).max(1000).optional(),
});
export type WebhookEntry = z.infer<typeof webhookEntrySchema>;

export const webhookBodySchema = z.looseObject({
  object: z.string().max(100),
  entry: z.array(webhookEntrySchema).max(1000),
});
export type WebhookBody = z.infer<typeof webhookBodySchema>;

/** The object name each channel's webhook posts. */
export const webhookObject: Record<Channel, string> = { photo: 'instagram', net: 'page' };

export interface EventAttachment {
  type: string;
  url: string | null;
}

/** A comment on a medium (photo) or post (net) of the connected account. */
export interface CommentEvent {
  kind: 'comment';
  commentId: string;
  text: string;
  authorId: string;
  authorName: string | null;
  /** The medium's or post's id as the network names it (net: `pageId_postId`). */
  postId: string | null;
  /** The photo network says which product the medium is (FEED, REELS, AD...) when it knows. */
  postProductType: string | null;
  /** Set when the comment answers another comment. */
  parentId: string | null;
  attachments: EventAttachment[];
  createdAt: string;
}

export interface LeadEvent {
  kind: 'lead';
  leadId: string;
  pageId: string;
  formId: string | null;
  adId: string | null;
  createdAt: string;
}

export interface MessageEvent {
  kind: 'message';
  messageId: string;
  senderId: string;
  recipientId: string;
  text: string | null;
  attachments: EventAttachment[];
  createdAt: string;
}

/** The person read the conversation up to `watermark` (everything sent at or before it). */
export interface ReadEvent {
  kind: 'read';
  senderId: string;
  recipientId: string;
  watermark: string;
  /** The photo network names the message read instead of a watermark. */
  messageId: string | null;
}

/** The person pressed a button of the message `messageId`. */
export interface PostbackEvent {
  kind: 'postback';
  senderId: string;
  recipientId: string;
  messageId: string | null;
  title: string | null;
  payload: string | null;
  createdAt: string;
}

/**
 * A handover event (`messaging_handovers`): `pass` (an app passed the person's thread to
 * `newOwnerAppId`), `take` (`newOwnerAppId` took it, when the network names it), `request` (another app,
 * `requestedOwnerAppId`, asks for it) or `appRoles` (the account's apps and their roles; no person).
 */
export interface HandoverEvent {
  kind: 'handover';
  action: 'pass' | 'take' | 'request' | 'appRoles';
  senderId: string | null;
  recipientId: string;
  newOwnerAppId: string | null;
  previousOwnerAppId: string | null;
  requestedOwnerAppId: string | null;
  metadata: string | null;
  appRoles: Record<string, string[]> | null;
  createdAt: string;
}

/**
 * Something of the person's thread delivered on `standby`: another app holds the thread. `userMessage`
 * is true for what the person did (a message, a postback), false for receipts and the holder's echoes.
 */
export interface StandbyEvent {
  kind: 'standby';
  /** The person (for an echo, its recipient). */
  senderId: string;
  recipientId: string;
  messageId: string | null;
  userMessage: boolean;
  createdAt: string;
}

export type ChannelEvent = CommentEvent | LeadEvent | MessageEvent | ReadEvent | PostbackEvent | HandoverEvent | StandbyEvent;
export type ChannelEventKind = ChannelEvent['kind'];

/** An event with the account it arrived for (the entry's id, matched against inboxes' sourceId). */
export interface AccountEvent {
  accountId: string;
  event: ChannelEvent;
}

/** The network's id an event is de-duplicated by, per workspace, inbox and kind. */
export function eventExternalId(event: ChannelEvent): string {
  switch (event.kind) {
    case 'comment':
      return event.commentId;
    case 'lead':
      return event.leadId;
    case 'message':
      return event.messageId;
    case 'read':
      return `${event.senderId}:${event.messageId ?? event.watermark}`;
    case 'postback':
      return `${event.senderId}:${event.messageId ?? ''}:${event.createdAt}:${event.payload ?? ''}`;
    case 'handover':
      return `${event.action}:${event.senderId ?? ''}:${event.createdAt}:${event.newOwnerAppId ?? event.requestedOwnerAppId ?? ''}`;
    case 'standby':
      return event.messageId ?? `${event.senderId}:${event.createdAt}`;
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Dev events: the same entries, injected with a workspace token (developmentMode workspaces).      */

const leadRecord = z.strictObject({
  id: z.string().min(1).max(200),
  createdAt: z.iso.datetime({ offset: true }).optional(),
  formId: z.string().max(200).nullable().optional(),
  adId: z.string().max(200).nullable().optional(),
  fields: z.array(z.strictObject({ name: z.string().min(1).max(200), values: z.array(z.string().max(5000)).max(50) })).max(200),
});
const profileRecord = z.strictObject({
  id: z.string().min(1).max(200),
  firstName: z.string().max(500).nullable().optional(),
  lastName: z.string().max(500).nullable().optional(),
  name: z.string().max(1000).nullable().optional(),
  username: z.string().max(500).nullable().optional(),
  avatarUrl: z.string().max(4000).nullable().optional(),
});

export const devEventsInput = z
  .strictObject({
    channel: z.enum(['photo', 'net']),
    entry: z.array(webhookEntrySchema).min(1, 'entry must hold at least one entry').max(100, 'at most 100 entries'),
    leads: z.array(leadRecord).max(100).optional().meta({ description: 'Leads the sandbox adapter answers fetches with (by lead id)' }),
    profiles: z.array(profileRecord).max(100).optional().meta({ description: 'Profiles the sandbox adapter answers fetches with (by the network user id)' }),
  })
  .meta({ id: 'DevEventsInput' });
export type DevEventsInput = z.infer<typeof devEventsInput>;

export const ingestResultSchema = z
  .object({
    received: z.number().int().meta({ description: 'Events read from the body' }),
    stored: z.number().int().meta({ description: 'New events stored and queued for processing' }),
    duplicates: z.number().int().meta({ description: 'Events already received (redeliveries): not processed again' }),
    unknownAccounts: z.number().int().meta({ description: 'Events for accounts no inbox is connected to: acknowledged, not stored' }),
    ignored: z.number().int().meta({ description: 'Changes of fields the engine does not handle, and echoes of our own messages' }),
    invalid: z.number().int().meta({ description: 'Webhooks: changes whose values do not have the shape we read; acknowledged, not stored, logged and counted (dev events refuse them with 422)' }),
    eventIds: z.array(z.string()).meta({ description: 'Ids of the stored events' }),
  })
  .meta({ id: 'IngestResult' });
export type IngestResult = z.infer<typeof ingestResultSchema>;
