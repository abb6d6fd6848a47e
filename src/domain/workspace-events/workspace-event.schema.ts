import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * What changed in a workspace, as webhooks and subscriptions tell it. The types are the
 * automation tool's trigger conditions (its "Watch Events" node offers sixteen of them) and two
 * of ours, a message stored either way (the automation tool never asks for them); the body a
 * receiver gets is the product's flat JSON: `{event, contact_id, timestamp}` and the event's own
 * fields, snake_case, no envelope.
 */
export const eventTypes = [
  'archived',
  'contactInfoUpdated',
  'contactReferredANewContact',
  'contactReferredExistingContact',
  'contactUnsubscribedFormBroadcast',
  'conversationAssigned',
  'conversationTransferredToBot',
  'conversationTransferredToHuman',
  'conversationUnassigned',
  'customFieldValueChanged',
  'followUp',
  'messageReceived',
  'messageSent',
  'newContact',
  'subscribedToSequence',
  'tagApplied',
  'tagRemoved',
  'unsubscribedFromSequence',
] as const;
export type EventType = (typeof eventTypes)[number];
export const eventTypeSchema = z.enum(eventTypes).meta({
  id: 'EventType',
  description:
    'What changed. contactReferredANewContact and contactReferredExistingContact are accepted and never fire: this service has no referrals. messageReceived and messageSent are ours (a message from the contact stored; a message to the contact sent), beyond the sixteen the product offers.',
});

/** The `event` field of the body a receiver gets, by type. */
export const eventNames: Record<EventType, string> = {
  archived: 'conversation_archived',
  contactInfoUpdated: 'contact_info_updated',
  contactReferredANewContact: 'contact_referred_new_contact',
  contactReferredExistingContact: 'contact_referred_existing_contact',
  contactUnsubscribedFormBroadcast: 'contact_unsubscribed',
  conversationAssigned: 'conversation_assigned',
  conversationTransferredToBot: 'conversation_transferred_to_bot',
  conversationTransferredToHuman: 'conversation_transferred_to_human',
  conversationUnassigned: 'conversation_unassigned',
  customFieldValueChanged: 'custom_field_changed',
  followUp: 'marked_as_follow_up',
  newContact: 'new_contact',
  subscribedToSequence: 'subscribed_to_sequence',
  tagApplied: 'tag_applied',
  tagRemoved: 'tag_removed',
  unsubscribedFromSequence: 'unsubscribed_from_sequence',
  messageReceived: 'message_received',
  messageSent: 'message_sent',
};

/** Types whose condition may name a source: the tag or the sequence (`sourceId`). */
export const sourcedTypes = ['tagApplied', 'tagRemoved', 'subscribedToSequence', 'unsubscribedFromSequence'] as const satisfies readonly EventType[];
/** Types whose condition must name one: a sequence. */
export const sourceRequiredTypes = ['subscribedToSequence', 'unsubscribedFromSequence'] as const satisfies readonly EventType[];

/**
 * An event as a service records it: its type, the contact it is about, the tag or sequence it
 * names (for the sourced types), and the fields of its body beside `event`, `contact_id` and
 * `timestamp` (snake_case, values as the receiver reads them).
 */
export interface NewEvent {
  type: EventType;
  contactId: number | null;
  sourceId?: number | null;
  data: Record<string, unknown>;
}

/** A recorded event, as subscriptions and the delivery log show it. */
export const workspaceEventSchema = z
  .object({
    id: digitId,
    type: eventTypeSchema,
    contactId: digitId.nullable(),
    occurredAt: isoDateTime,
    body: z.record(z.string(), z.unknown()).meta({ description: 'The body a webhook receives: `{event, contact_id, timestamp, ...}`' }),
  })
  .meta({ id: 'WorkspaceEvent' });
export type WorkspaceEvent = z.infer<typeof workspaceEventSchema>;
