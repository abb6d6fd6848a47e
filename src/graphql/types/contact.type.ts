import { z } from 'zod';
import { workspaceTokenSchemes } from '../../domain/auth/principal.js';
import type { ContactNoteRow } from '../../domain/contacts/contact-note.repository.js';
import { listContacts } from '../../domain/contacts/contact.repository.js';
import { createContactInput, genderSchema, identifierParams } from '../../domain/contacts/contact.schema.js';
import { createContact, resolveContact } from '../../domain/contacts/contact.service.js';
import type { CustomFieldRow, CustomFieldValueRow } from '../../domain/custom-fields/custom-field.repository.js';
import type { ContactInboxRow } from '../../domain/inboxes/inbox.repository.js';
import type { SubscriptionRow } from '../../domain/sequences/sequence.repository.js';
import { builder } from '../builder.js';
import { connectionArgs, connectionComplexity, DEFAULT_FIRST, keysetConnection, MAX_FIRST } from '../connection.js';
import { byCreatedAt } from '../cursor.js';
import { contractEnum } from '../enums.js';
import { decodeNodeId, nodeOptions, rawIdField } from '../node.js';
import { InboxType } from './inbox.type.js';
import { ContactRef, ConversationRef } from './refs.js';
import { TagType } from './tag.type.js';

const GenderEnum = contractEnum('Gender', genderSchema.options);

const read = { action: 'read', scope: 'contacts' } as const;

export const CustomFieldType = builder.node(builder.objectRef<CustomFieldRow>('CustomField'), {
  ...nodeOptions('CustomField', read, ({ loaders }) => loaders.customField),
  description: 'A custom field defined in the workspace (its definition, without any contact\'s value).',
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    type: t.exposeString('type'),
  }),
});

export const ContactCustomFieldValueType = builder.objectRef<CustomFieldValueRow>('ContactCustomFieldValue').implement({
  description:
    'A custom field of the workspace with this contact\'s value ("" when unset). Not a Node (a field and a contact, not a record of its own): it has no `id`, so caches keep it inside its contact; `customField` is the Node.',
  fields: (t) => ({
    rawId: t.exposeString('id', { description: "The custom field's plain digit id, as the `id` of REST's /custom-fields items" }),
    customField: t.field({ type: CustomFieldType, resolve: (v) => ({ id: v.id, name: v.name, description: v.description, type: v.type }) }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    value: t.exposeString('value'),
    type: t.exposeString('type'),
  }),
});

export const SequenceSubscriptionType = builder.objectRef<SubscriptionRow>('SequenceSubscription').implement({
  fields: (t) => ({ sequenceId: t.exposeID('sequenceId'), sequenceName: t.exposeString('sequenceName') }),
});

export const ContactNoteType = builder.node(builder.objectRef<ContactNoteRow>('ContactNote'), {
  ...nodeOptions('ContactNote', read, ({ loaders }) => loaders.note),
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    text: t.exposeString('text'),
    contactId: t.exposeID('contactId'),
    createdById: t.exposeID('createdById', { nullable: true }),
  }),
});

export const ContactInboxType = builder.node(builder.objectRef<ContactInboxRow>('ContactInbox'), {
  ...nodeOptions('ContactInbox', read, ({ loaders }) => loaders.contactInbox),
  fields: (t) => ({
    rawId: rawIdField(t),
    contactId: t.exposeID('contactId'),
    inboxId: t.exposeID('inboxId'),
    channel: t.exposeString('channel'),
    inbox: t.field({ type: InboxType, nullable: true, resolve: (m, _a, { loaders }) => loaders.inbox.load(Number(m.inboxId)) }),
  }),
});

const text = (t: any, name: string) => t.exposeString(name, { nullable: true });
const when = (t: any, name: string) => t.expose(name, { type: 'DateTime', nullable: true });

builder.node(ContactRef, {
  ...nodeOptions('Contact', read, ({ loaders }) => loaders.contact),
  description: 'A person who messages the workspace, with every relation a frontend walks.',
  fields: (t) => ({
    rawId: rawIdField(t),
    avatar: text(t, 'avatar'),
    phoneNumber: text(t, 'phoneNumber'),
    email: text(t, 'email'),
    firstName: text(t, 'firstName'),
    lastName: text(t, 'lastName'),
    fullName: t.exposeString('fullName'),
    ref: text(t, 'ref'),
    country: text(t, 'country'),
    state: text(t, 'state'),
    city: text(t, 'city'),
    location: text(t, 'location'),
    locale: text(t, 'locale'),
    timezone: text(t, 'timezone'),
    workspaceId: t.exposeID('workspaceId'),
    gender: t.expose('gender', { type: GenderEnum }),
    emailVerified: t.exposeBoolean('emailVerified'),
    emailOptIn: t.exposeBoolean('emailOptIn'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    lastReadAt: when(t, 'lastReadAt'),
    subscribedAt: when(t, 'subscribedAt'),
    broadcastSubscribedAt: when(t, 'broadcastSubscribedAt'),
    blockedAt: when(t, 'blockedAt'),
    customFields: t.field({ type: [ContactCustomFieldValueType], resolve: (c, _a, { loaders }) => loaders.customFieldValues.load(Number(c.id)) }),
    sequences: t.field({ type: [SequenceSubscriptionType], resolve: (c, _a, { loaders }) => loaders.sequences.load(Number(c.id)) }),
    tags: t.field({ type: [TagType], resolve: (c, _a, { loaders }) => loaders.tags.load(Number(c.id)) }),
    notes: t.field({ type: [ContactNoteType], resolve: (c, _a, { loaders }) => loaders.notes.load(Number(c.id)) }),
    inboxes: t.field({ type: [ContactInboxType], resolve: (c, _a, { loaders }) => loaders.contactInboxes.load(Number(c.id)) }),
    conversations: t.field({ type: [ConversationRef], resolve: (c, _a, { loaders }) => loaders.conversations.load(Number(c.id)) }),
  }),
});

const contactCursor = byCreatedAt('contact');

/** A Contact's global id as `id:<digits>`; anything else is REST's identifier. */
const contactIdentifier = (identifier: string) => {
  const node = /^\d+$/.test(identifier) ? null : decodeNodeId(identifier);
  return node?.typename === 'Contact' ? `id:${node.id}` : identifier;
};

builder.queryField('contact', (t) =>
  t.field({
    type: ContactRef,
    description: 'One contact by identifier: id, email or phone, or prefixed id:/email:/phone: (as REST); or its global id.',
    access: read,
    args: { identifier: t.arg.string({ required: true, validate: identifierParams.shape.identifier }) },
    resolve: (_r, { identifier }, { db, who }) => resolveContact(db, who.workspaceId, contactIdentifier(identifier)),
  }),
);

builder.queryField('contacts', (t) =>
  t.connection(
    {
      type: ContactRef,
      description: `Contacts, newest first (creation time, then id). \`first\` defaults to ${DEFAULT_FIRST}, at most ${MAX_FIRST}. \`keyword\`: case-insensitive substring of name, email or phone.`,
      access: read,
      args: { keyword: t.arg.string() },
      validate: connectionArgs.extend({ keyword: z.string().max(255).nullish() }),
      complexity: connectionComplexity,
      resolve: (_r, args, { db, who }) =>
        keysetConnection(contactCursor, args, (window) => listContacts(db, who.workspaceId, { ...window, keyword: args.keyword ?? undefined })),
    },
    { name: 'ContactConnection' },
    { name: 'ContactEdge' },
  ),
);

const CreateContactInputType = builder.inputType('CreateContactInput', {
  description: 'The body of POST /v1/contacts: at least one of email or phoneNumber; phoneNumber is an optional + and 7 to 20 digits.',
  fields: (t) => ({ phoneNumber: t.string(), email: t.string(), firstName: t.string(), lastName: t.string() }),
});

/** GraphQL sends absent optional fields as undefined but explicit nulls as null: both mean "not given". */
const withoutNulls = (o: unknown) => (o && typeof o === 'object' ? Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) : o);

builder.mutationField('createContact', (t) =>
  t.field({
    type: ContactRef,
    description: 'Like POST /v1/contacts: workspace API tokens only; the trial and MAC gates apply.',
    access: { action: 'write', scope: 'contacts', schemes: workspaceTokenSchemes },
    args: { input: t.arg({ type: CreateContactInputType, required: true }).validate(z.preprocess(withoutNulls, createContactInput)) },
    resolve: (_r, { input }, { db, who }) => createContact(db, who.workspaceId, input),
  }),
);
