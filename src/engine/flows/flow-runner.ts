import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import { isAppError } from '../../errors/catalogue.js';
import type { JobQueue } from '../../queue/enqueue.js';
import type { ChannelAdapter, OutgoingContent } from '../../domain/channels/channel-adapter.js';
import { isChannelError } from '../../domain/channels/channel-error.js';
import { touchContactActivity } from '../../domain/contacts/contact-link.service.js';
import { changeContactTags } from '../../domain/tags/tag.service.js';
import { setContactCustomField } from '../../domain/custom-fields/contact-custom-field.service.js';
import { changeContactSequences } from '../../domain/sequences/sequence.service.js';
import { findDynamicImageById } from '../../domain/dynamic-images/dynamic-image.repository.js';
import { signedLink, type ImageServices } from '../../domain/dynamic-images/dynamic-image-render.service.js';
import type { FlowDestination } from '../../domain/flows/flow-destination.repository.js';
import { fireCustomEvent } from '../../domain/flows/flow-events.service.js';
import { messageItemTypes, type Flow, type FlowItem } from '../../domain/flows/flow.schema.js';
import { noteOutgoingMessage } from '../../domain/messages/message.repository.js';
import { threadHeldByOther } from '../../domain/thread-control/thread-state.service.js';
import { fillPlaceholders, placeholderContext, type PlaceholderContext } from '../reply-content.js';
import { logChannelError } from '../leads/lead-error-log.js';
import { storeMessage } from '../../domain/messages/message-store.service.js';

/** What running a flow needs: the database (or the caller's transaction), the adapter to send with (joined to it when it can), the queue, images for links. */
export interface FlowRunDeps {
  db: Executor;
  adapter: ChannelAdapter;
  queue: JobQueue;
  images: ImageServices;
}

export interface FlowRecipient {
  workspaceId: number;
  contact: { id: number; firstName: string | null; lastName: string | null };
  destination: FlowDestination;
}

/** Sent (every message went out), or not, with the reason (nothing of the flow ran when it was a check that failed). */
export type FlowResult = { status: 'sent'; messages: number } | { status: 'failed'; reason: string; messages: number };

/** The networks let a page message a person only within 24 hours of the person's last message. */
export const MESSAGING_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Why a flow with messages cannot reach the contact now, or null: no person id in the inbox, the
 * 24-hour window closed, or another app holds the thread (standby).
 */
export async function flowBlocked(db: Executor, to: FlowRecipient, now: Date): Promise<string | null> {
  const d = to.destination;
  if (d.recipientId === null) return 'noRecipient';
  if (d.contactRepliedAt === null || now.getTime() - Date.parse(d.contactRepliedAt) > MESSAGING_WINDOW_MS) return 'messagingWindowClosed';
  if (await threadHeldByOther(db, to.workspaceId, to.contact.id, d.inbox.id, now)) return 'threadNotOwned';
  return null;
}

const imageVariable = /\{\{\s*image:(\d+)\s*\}\}/g;

/**
 * Runs the flow's items in order for one contact: messages through the adapter (each stored on the
 * conversation), actions through the same services as the API, so they record the same events.
 * The first message that fails ends the run (later items would be out of order); an action whose
 * tag, field or sequence has been deleted since is passed over. `runKey` makes each message's
 * idempotency key: a run retried sends each message once where the adapter honours keys.
 */
export async function runFlow(
  deps: FlowRunDeps,
  flow: Flow,
  to: FlowRecipient,
  runKey: string,
  now: Date,
  /** The automation that replied with the flow, when one did: the outbox and the messages name it. */
  automation: { kind: 'comment' | 'leadAd'; id: number } | null = null,
): Promise<FlowResult> {
  const { db, adapter } = deps;
  const { workspaceId, contact, destination } = to;
  if (flow.items.some((i) => messageItemTypes.has(i.type))) {
    const blocked = await flowBlocked(db, to, now);
    if (blocked) return { status: 'failed', reason: blocked, messages: 0 };
  }
  const identifier = `id:${contact.id}`;
  let who: PlaceholderContext | null = null;
  const namesCustomField = flow.items.some((i) => (i.type === 'text' || i.type === 'quickReplies') && /\{\{\s*custom\./.test(i.text));
  const fill = async (text: string) => {
    // Custom field values cost a statement: read only when a text of the flow names one.
    who ??= namesCustomField ? await placeholderContext(db, workspaceId, contact) : { ...contact, custom: new Map() };
    return (await withImageLinks(deps, workspaceId, contact.id, fillPlaceholders(text, who))).trim();
  };
  let messages = 0;
  for (const [index, item] of flow.items.entries()) {
    if (messageItemTypes.has(item.type)) {
      const content = await contentOf(deps, workspaceId, contact.id, item, fill);
      if (!content) continue;
      try {
        const sent = await adapter.sendMessage({ workspaceId, inbox: destination.inbox, recipientId: destination.recipientId!, content, contactId: contact.id, automation, idempotencyKey: `${runKey}:${index}` });
        await storeMessage(db, workspaceId, {
          conversationId: destination.conversationId,
          contactId: contact.id,
          inboxId: destination.inbox.id,
          direction: 'outgoing',
          externalId: sent.externalId,
          text: content.type === 'text' || content.type === 'quickReplies' ? content.text : null,
          attachments: content.type === 'image' ? [{ type: 'image', url: content.url }] : [],
          status: 'sent',
          automation,
        });
        messages++;
      } catch (err) {
        if (!isChannelError(err)) throw err;
        await logChannelError(db, workspaceId, destination.inbox.channel, err, contact.id);
        return { status: 'failed', reason: err.reason, messages };
      }
    } else {
      await runAction(deps, workspaceId, identifier, flow, item);
    }
  }
  if (messages > 0) {
    const at = nowIso();
    await noteOutgoingMessage(db, workspaceId, destination.conversationId, at);
    await touchContactActivity(db, workspaceId, contact.id, at);
  }
  return { status: 'sent', messages };
}

async function contentOf(deps: FlowRunDeps, workspaceId: number, contactId: number, item: FlowItem, fill: (text: string) => Promise<string>): Promise<OutgoingContent | null> {
  switch (item.type) {
    case 'text': {
      const text = await fill(item.text);
      return text ? { type: 'text', text } : null;
    }
    case 'image':
      return { type: 'image', url: item.url };
    case 'dynamicImage': {
      const url = await imageLink(deps, workspaceId, contactId, Number(item.imageId));
      return url ? { type: 'image', url } : null;
    }
    case 'quickReplies': {
      const text = await fill(item.text);
      return text ? { type: 'quickReplies', text, replies: item.replies.map((r) => ({ title: r.title, payload: r.payload ?? r.title })) } : null;
    }
    default:
      return null;
  }
}

/** The signed link of the image drawn for the contact; null when the image is gone or switched off. */
async function imageLink(deps: FlowRunDeps, workspaceId: number, contactId: number, imageId: number): Promise<string | null> {
  const image = await findDynamicImageById(deps.db, workspaceId, imageId);
  if (!image || !image.enabled) return null;
  return signedLink(deps.db, deps.images, workspaceId, image, `id:${contactId}`);
}

/** `{{image:<id>}}` in a text becomes that image's link for the contact ("" when it is gone). */
async function withImageLinks(deps: FlowRunDeps, workspaceId: number, contactId: number, text: string): Promise<string> {
  const ids = [...new Set([...text.matchAll(imageVariable)].map((m) => Number(m[1])))];
  if (ids.length === 0) return text;
  const links = new Map<number, string>();
  for (const id of ids) links.set(id, (await imageLink(deps, workspaceId, contactId, id)) ?? '');
  return text.replace(imageVariable, (_m, id: string) => links.get(Number(id)) ?? '');
}

async function runAction(deps: FlowRunDeps, workspaceId: number, identifier: string, flow: Flow, item: FlowItem): Promise<void> {
  try {
    switch (item.type) {
      case 'addTag':
      case 'removeTag':
        await changeContactTags(deps.db, workspaceId, identifier, item.type === 'addTag' ? 'add' : 'remove', [item.tagId]);
        return;
      case 'setCustomField':
        await setContactCustomField(deps.db, workspaceId, identifier, item.customFieldId, item.value, ['value']);
        return;
      case 'subscribeSequence':
        await changeContactSequences(deps.db, deps.queue, workspaceId, identifier, 'subscribe', [item.sequenceId]);
        return;
      case 'customEvent':
        await fireCustomEvent(deps.db, deps.queue, workspaceId, { name: item.name, contactId: Number(identifier.slice(3)), flowId: Number(flow.id), flowName: flow.name });
        return;
      default:
        return;
    }
  } catch (err) {
    // The tag, field or sequence was deleted (or the value no longer fits the field) since the flow was saved.
    if (isAppError(err) && (err.status === 404 || err.status === 422)) return;
    throw err;
  }
}
