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

/** Types nothing records (this service has no referrals): accepted as conditions, so the automation tool can register them. */
export const unsentTypes = ['contactReferredANewContact', 'contactReferredExistingContact'] as const satisfies readonly EventType[];

/** Types whose condition may name a source: the tag or the sequence (`sourceId`). */
export const sourcedTypes = ['tagApplied', 'tagRemoved', 'subscribedToSequence', 'unsubscribedFromSequence'] as const satisfies readonly EventType[];
/** Types whose condition must name one: a sequence. */
export const sourceRequiredTypes = ['subscribedToSequence', 'unsubscribedFromSequence'] as const satisfies readonly EventType[];

/** `info_type` of contactInfoUpdated: the contact's own fields a change reports, by their body names. */
export const contactInfoTypes = ['first_name', 'last_name', 'email', 'phone', 'gender', 'avatar', 'locale', 'timezone', 'country', 'state', 'city', 'location'] as const;
export type ContactInfoType = (typeof contactInfoTypes)[number];

const text = z.string();
const maybeText = z.string().nullable();
const actor = digitId.nullable().meta({ description: "The acting user's id when a user access token made the change; null for a workspace API token or the engine" });
const messageFields = {
  message_id: digitId,
  conversation_id: digitId,
  inbox_id: digitId,
  text: maybeText.meta({ description: 'null for a message of attachments only' }),
  attachments: z.array(z.strictObject({ type: text, url: maybeText })),
};

/**
 * The fields of each type's body beside `event`, `contact_id` and `timestamp`. The builders of the
 * services that record events are typed by these (NewEvent), and the OpenAPI document publishes
 * them, so what is documented is what a change can write.
 */
export const eventFields = {
  archived: { conversation_id: digitId, archived_by: actor },
  contactInfoUpdated: { info_type: z.enum(contactInfoTypes), old_value: maybeText, new_value: maybeText },
  contactReferredANewContact: {},
  contactReferredExistingContact: {},
  contactUnsubscribedFormBroadcast: {},
  conversationAssigned: { conversation_id: digitId, assigned_to: digitId, assigned_by: actor },
  conversationTransferredToBot: { conversation_id: digitId, transferred_by: actor },
  conversationTransferredToHuman: { conversation_id: digitId, transferred_by: actor },
  conversationUnassigned: { conversation_id: digitId, assigned_to: digitId.meta({ description: 'The user it was assigned to' }), unassigned_by: actor },
  customFieldValueChanged: { custom_field: z.strictObject({ name: text, old_value: maybeText, new_value: maybeText }).meta({ description: 'The field by name; values as stored, null when unset' }) },
  followUp: { conversation_id: digitId, marked_by: actor },
  messageReceived: messageFields,
  messageSent: { ...messageFields, automation_kind: z.enum(['comment', 'leadAd']).optional(), automation_id: digitId.optional() },
  newContact: {
    name: text.meta({ description: 'The full name, "" when it has none' }),
    first_name: maybeText,
    last_name: maybeText,
    phone: maybeText,
    email: maybeText,
    custom_fields: z.record(text, text).meta({ description: 'Its custom-field values when it was created, by field name (usually none)' }),
  },
  subscribedToSequence: { sequence_id: digitId, sequence_name: text },
  tagApplied: { tag: text.meta({ description: "The tag's name" }) },
  tagRemoved: { tag: text.meta({ description: "The tag's name" }) },
  unsubscribedFromSequence: { sequence_id: digitId, sequence_name: text },
} satisfies Record<EventType, z.ZodRawShape>;

/** The fields of a type's body beside `event`, `contact_id` and `timestamp`, as a builder writes them. */
export type EventData<T extends EventType> = [keyof (typeof eventFields)[T]] extends [never] ? Record<never, never> : z.infer<z.ZodObject<(typeof eventFields)[T]>>;
/** A whole body of a type, as a receiver reads it. */
export type EventBody<T extends EventType> = { event: string; contact_id: string; timestamp: string } & EventData<T>;

/** When each type is sent: the description of its body in the OpenAPI document. */
const eventDescriptions: Record<EventType, string> = {
  archived: 'A conversation of the contact was archived.',
  contactInfoUpdated: "One of the contact's own fields changed: one event per field, values as stored (null when unset).",
  contactReferredANewContact: 'Never sent: this service has no referrals. Shown with the fields every body has.',
  contactReferredExistingContact: 'Never sent: this service has no referrals. Shown with the fields every body has.',
  contactUnsubscribedFormBroadcast: "The contact's emailOptIn went from true to false.",
  conversationAssigned: 'A conversation of the contact was assigned to a user it was not assigned to.',
  conversationTransferredToBot: 'The bot was switched on in a conversation of the contact where it was off.',
  conversationTransferredToHuman: 'The bot was switched off in a conversation of the contact where it was on.',
  conversationUnassigned: 'A conversation of the contact lost its assigned user.',
  customFieldValueChanged: 'A custom-field value of the contact changed.',
  followUp: 'A conversation of the contact was marked for follow-up.',
  messageReceived: 'A message from the contact was stored (ours: the automation tool never asks for it).',
  messageSent: 'A message to the contact reached the network; `automation_kind` and `automation_id` say which automation sent it, when one did (ours).',
  newContact: 'A contact was created: through the API, an upsert, a person who writes or comments, a lead, an import.',
  subscribedToSequence: 'The contact was subscribed to a sequence.',
  tagApplied: 'The contact gained a tag.',
  tagRemoved: 'The contact lost a tag (deleting a tag sends none).',
  unsubscribedFromSequence: 'The contact left a sequence (deleting a sequence sends none).',
};

const componentName = (type: EventType) => `${type[0]!.toUpperCase()}${type.slice(1)}Event`;

/** Each type's whole body, exactly: no other field is sent. */
export const eventBodySchemas = Object.fromEntries(
  eventTypes.map((type) => [
    type,
    z
      .strictObject({ event: z.literal(eventNames[type]), contact_id: digitId, timestamp: isoDateTime, ...eventFields[type] })
      .meta({ id: componentName(type), description: eventDescriptions[type] }),
  ]),
) as unknown as Record<EventType, z.ZodObject>;

/**
 * An event as a service records it: its type, the contact it is about, the tag or sequence it
 * names (for the sourced types), and the fields of its body beside `event`, `contact_id` and
 * `timestamp` (snake_case, values as the receiver reads them).
 */
export type NewEvent = {
  [T in EventType]: { type: T; contactId: number | null; sourceId?: number | null; data: EventData<T> };
}[EventType];

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
