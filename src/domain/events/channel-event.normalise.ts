import type { z } from 'zod';
import { toIssues, invalidRequestData, type Issue } from '../../errors/validation.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import { leadgenValue, netFeedValue, photoCommentValue, type AccountEvent, type ChannelEvent, type EventAttachment, type WebhookEntry } from './channel-event.schema.js';

/**
 * Webhook entries -> normalised events, one per comment, lead, message, receipt, handover event
 * (`messaging[]` items of `messaging_handovers`) or `standby[]` item. A change of a
 * field the engine does not handle (mentions, story insights, a deleted comment...), a feed item
 * that is not a new comment, and the echo of a message the account sent itself are counted as
 * ignored: the webhook is still acknowledged, or the network would redeliver them for days.
 */
export function normaliseEntries(channel: Channel, entries: WebhookEntry[], now = new Date(), o: { strict: boolean } = { strict: true }): { events: AccountEvent[]; ignored: number; invalid: Issue[] } {
  const events: AccountEvent[] = [];
  let ignored = 0;
  const push = (accountId: string, event: ChannelEvent | null) => {
    if (event) events.push({ accountId, event });
    else ignored++;
  };
  const issues: Issue[] = [];
  entries.forEach((entry, i) => {
    const entryTime = entry.time === undefined ? now : fromUnix(entry.time);
    (entry.changes ?? []).forEach((c, j) => {
      const schema = valueSchema(channel, c.field);
      if (!schema) return push(entry.id, null);
      const parsed = schema.safeParse(c.value);
      if (!parsed.success) {
        issues.push(...toIssues(parsed.error).map((issue) => ({ ...issue, path: ['entry', i, 'changes', j, 'value', ...issue.path] })));
        return;
      }
      push(entry.id, changeEvent(channel, entry.id, c.field, parsed.data, entryTime));
    });
    for (const m of entry.messaging ?? []) push(entry.id, messagingEvent(m, entryTime));
    for (const m of entry.standby ?? []) push(entry.id, standbyEvent(m, entryTime));
  });
  // Dev events are a person's input: refused whole, naming the paths. A network's delivery mixes
  // many accounts (other workspaces'): one bad change must not make it redeliver, and lose, the rest.
  if (issues.length > 0 && o.strict) throw invalidRequestData(issues.slice(0, 100));
  return { events, ignored, invalid: issues };
}

/** The schema of a change's value, for the fields the engine handles on this channel. */
function valueSchema(channel: Channel, field: string): z.ZodType | null {
  if (field === 'leadgen') return leadgenValue;
  if (channel === 'photo' && (field === 'comments' || field === 'live_comments')) return photoCommentValue;
  if (channel === 'net' && field === 'feed') return netFeedValue;
  return null;
}

/** How far ahead of our clock an event's time may be (clock skew); later times are taken as this. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Unix seconds (the networks' `time`), or milliseconds where a network sends those. A time in the
 * future is capped at now plus the skew: a far-future `timestamp` would otherwise be stored as the
 * contact's last message and hold the messaging window open for ever (or, past year 275760, not
 * be a date at all).
 */
const fromUnix = (t: number): Date => new Date(Math.min(t > 1e11 ? t : t * 1000, Date.now() + MAX_CLOCK_SKEW_MS));

const attachmentsOf = (list: { type: string; payload?: { url?: string } }[] | undefined): EventAttachment[] =>
  (list ?? []).map((a) => ({ type: a.type, url: a.payload?.url ?? null }));

function changeEvent(channel: Channel, accountId: string, field: string, raw: unknown, entryTime: Date): ChannelEvent | null {
  const value = (raw ?? {}) as Record<string, any>;
  if (field === 'leadgen') {
    return {
      kind: 'lead',
      leadId: String(value.leadgen_id),
      pageId: value.page_id === undefined ? accountId : String(value.page_id),
      formId: value.form_id === undefined ? null : String(value.form_id),
      adId: value.ad_id === undefined ? null : String(value.ad_id),
      createdAt: (value.created_time === undefined ? entryTime : fromUnix(value.created_time)).toISOString(),
    };
  }
  if (channel === 'photo' && (field === 'comments' || field === 'live_comments')) {
    return {
      kind: 'comment',
      commentId: String(value.id),
      text: value.text ?? '',
      authorId: String(value.from.id),
      authorName: value.from.name ?? value.from.username ?? null,
      postId: value.media?.id === undefined ? null : String(value.media.id),
      postProductType: value.media?.media_product_type ?? null,
      parentId: value.parent_id === undefined ? null : String(value.parent_id),
      attachments: attachmentsOf(value.attachments),
      createdAt: (value.created_time === undefined ? entryTime : fromUnix(value.created_time)).toISOString(),
    };
  }
  if (channel === 'net' && field === 'feed' && value.item === 'comment' && (value.verb ?? 'add') === 'add' && value.comment_id !== undefined && value.from) {
    const attachments: EventAttachment[] = [];
    if (value.photo) attachments.push({ type: 'image', url: value.photo });
    if (value.video) attachments.push({ type: 'video', url: value.video });
    if (value.link) attachments.push({ type: 'link', url: value.link });
    // A net comment answering another comment names that comment as parent; a top-level one names the post.
    const parentId = value.parent_id !== undefined && value.parent_id !== value.post_id ? String(value.parent_id) : null;
    return {
      kind: 'comment',
      commentId: String(value.comment_id),
      text: value.message ?? '',
      authorId: String(value.from.id),
      authorName: value.from.name ?? null,
      postId: value.post_id === undefined ? null : String(value.post_id),
      postProductType: null,
      parentId,
      attachments,
      createdAt: (value.created_time === undefined ? entryTime : fromUnix(value.created_time)).toISOString(),
    };
  }
  return null;
}

type MessagingItem = NonNullable<WebhookEntry['messaging']>[number];

function messagingEvent(m: MessagingItem, entryTime: Date): ChannelEvent | null {
  const at = (m.timestamp === undefined ? entryTime : fromUnix(m.timestamp)).toISOString();
  const handover = handoverEvent(m, at);
  if (handover !== undefined) return handover;
  // Only app_roles items may leave the person out (the schema checks).
  if (!m.sender) return null;
  if (m.message) {
    if (m.message.is_echo) return null;
    return { kind: 'message', messageId: m.message.mid, senderId: m.sender.id, recipientId: m.recipient.id, text: m.message.text ?? null, attachments: attachmentsOf(m.message.attachments), createdAt: at };
  }
  if (m.read) {
    const watermark = m.read.watermark === undefined ? at : fromUnix(m.read.watermark).toISOString();
    return { kind: 'read', senderId: m.sender.id, recipientId: m.recipient.id, watermark, messageId: m.read.mid ?? null };
  }
  if (m.postback) {
    return { kind: 'postback', senderId: m.sender.id, recipientId: m.recipient.id, messageId: m.postback.mid ?? null, title: m.postback.title ?? null, payload: m.postback.payload ?? null, createdAt: at };
  }
  return null;
}

/** A handover item (`messaging_handovers`), null for one we cannot place, undefined when the item is not one. */
function handoverEvent(m: MessagingItem, at: string): ChannelEvent | null | undefined {
  const base = { kind: 'handover' as const, senderId: m.sender?.id ?? null, recipientId: m.recipient.id, newOwnerAppId: null, previousOwnerAppId: null, requestedOwnerAppId: null, metadata: null, appRoles: null, createdAt: at };
  if (m.pass_thread_control) {
    const p = m.pass_thread_control;
    if (base.senderId === null) return null;
    return { ...base, action: 'pass', newOwnerAppId: p.new_owner_app_id, previousOwnerAppId: p.previous_owner_app_id ?? null, metadata: p.metadata ?? null };
  }
  if (m.take_thread_control) {
    const p = m.take_thread_control;
    if (base.senderId === null) return null;
    return { ...base, action: 'take', newOwnerAppId: p.new_owner_app_id ?? null, previousOwnerAppId: p.previous_owner_app_id ?? null, metadata: p.metadata ?? null };
  }
  if (m.request_thread_control) {
    const p = m.request_thread_control;
    if (base.senderId === null) return null;
    return { ...base, action: 'request', requestedOwnerAppId: p.requested_owner_app_id ?? null, metadata: p.metadata ?? null };
  }
  if (m.app_roles) return { ...base, action: 'appRoles', appRoles: m.app_roles };
  return undefined;
}

/**
 * An item of `standby[]`: the person's thread is held by another app. A message or postback is the
 * person's doing; a receipt or the holder's echo only shows who holds it. Anything else is ignored.
 */
function standbyEvent(m: MessagingItem, entryTime: Date): ChannelEvent | null {
  if (!m.sender) return null;
  const createdAt = (m.timestamp === undefined ? entryTime : fromUnix(m.timestamp)).toISOString();
  const echo = m.message?.is_echo === true;
  const person = echo ? m.recipient.id : m.sender.id;
  const account = echo ? m.sender.id : m.recipient.id;
  if (m.message) return { kind: 'standby', senderId: person, recipientId: account, messageId: m.message.mid, userMessage: !echo, createdAt };
  if (m.postback) return { kind: 'standby', senderId: person, recipientId: account, messageId: m.postback.mid ?? null, userMessage: true, createdAt };
  if (m.read) return { kind: 'standby', senderId: person, recipientId: account, messageId: null, userMessage: false, createdAt };
  return null;
}
