import { z } from 'zod';
import { workspaceTokenSchemes } from '../../domain/auth/principal.js';
import {
  bulkDeleteContactsInput,
  createContactInput,
  genderSchema,
  identifierParams,
  replaceContactInput,
  updateContactInput,
  upsertContactInput,
  type ContactScalars,
} from '../../domain/contacts/contact.schema.js';
import {
  bulkDeleteContacts,
  createContact,
  deleteContact,
  replaceContact,
  resolveContact,
  setContactBlockedState,
  updateContact,
  upsertContact,
} from '../../domain/contacts/contact.service.js';
import { contactIdentifier, identifierArg, plainIds, withoutNulls } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { contractEnum } from '../enums.js';
import { nodeOptions, rawIdField } from '../node.js';
import { ContactCustomFieldValueType } from './custom-field.type.js';
import { ContactNoteType } from './contact-note.type.js';
import { ContactInboxType } from './inbox.type.js';
import { SequenceSubscriptionType } from './sequence.type.js';
import { contactListings, ContactRef, conversationListings, ConversationRef } from './refs.js';
import { tagListings, TagType } from './tag.type.js';

const GenderEnum = contractEnum('Gender', genderSchema.options);

const read = { action: 'read', scope: 'contacts' } as const;

const beyondListing = contactListings.beyond;
type BeyondListing = Parameters<typeof beyondListing>[0];
const text = (t: any, key: BeyondListing) => t.string({ nullable: true, resolve: beyondListing(key) });
const when = (t: any, key: BeyondListing) => t.field({ type: 'DateTime', nullable: true, resolve: beyondListing(key) });

builder.node(ContactRef, {
  ...nodeOptions('Contact', read, ({ loaders }) => loaders.contact),
  description: 'A person who messages the workspace, with every relation a frontend walks.',
  fields: (t) => ({
    rawId: rawIdField(t),
    avatar: t.exposeString('avatar', { nullable: true }),
    phoneNumber: t.exposeString('phoneNumber', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    fullName: t.exposeString('fullName'),
    ref: text(t, 'ref'),
    country: text(t, 'country'),
    state: text(t, 'state'),
    city: text(t, 'city'),
    location: text(t, 'location'),
    locale: text(t, 'locale'),
    timezone: text(t, 'timezone'),
    workspaceId: t.exposeID('workspaceId'),
    gender: t.field({ type: GenderEnum, resolve: beyondListing('gender') }),
    emailVerified: t.boolean({ resolve: beyondListing('emailVerified') }),
    emailOptIn: t.boolean({ resolve: beyondListing('emailOptIn') }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    lastReadAt: when(t, 'lastReadAt'),
    subscribedAt: when(t, 'subscribedAt'),
    broadcastSubscribedAt: when(t, 'broadcastSubscribedAt'),
    blockedAt: when(t, 'blockedAt'),
    customFields: t.field({ type: [ContactCustomFieldValueType], resolve: (c, _a, { loaders }) => loaders.customFieldValues.load(Number(c.id)) }),
    sequences: t.field({ type: [SequenceSubscriptionType], resolve: (c, _a, { loaders }) => loaders.sequences.load(Number(c.id)) }),
    // A contact's tags and conversations as listings when the query asks for nothing more of them.
    tags: t.field({
      type: [TagType],
      resolve: (c, _a, { loaders }, info) => (tagListings.selectsBeyond(info) ? loaders.tags : loaders.tagListings).load(Number(c.id)),
    }),
    notes: t.field({ type: [ContactNoteType], resolve: (c, _a, { loaders }) => loaders.notes.load(Number(c.id)) }),
    inboxes: t.field({ type: [ContactInboxType], resolve: (c, _a, { loaders }) => loaders.contactInboxes.load(Number(c.id)) }),
    conversations: t.field({
      type: [ConversationRef],
      resolve: (c, _a, { loaders }, info) => (conversationListings.selectsBeyond(info) ? loaders.conversations : loaders.conversationListings).load(Number(c.id)),
    }),
  }),
});

builder.queryField('contact', (t) =>
  t.field({
    type: ContactRef,
    description: 'One contact by identifier: id, email or phone, or prefixed id:/email:/phone: (as REST); or its global id.',
    access: read,
    args: { identifier: t.arg.string({ required: true, validate: identifierParams.shape.identifier }) },
    resolve: (_r, { identifier }, { db, who }) => resolveContact(db, who.workspaceId, contactIdentifier(identifier)),
  }),
);

const CreateContactInputType = builder.inputType('CreateContactInput', {
  description:
    'The body of POST /v1/contacts: at least one of email or phoneNumber (empty strings count as not given); phoneNumber is an optional + and 7 to 20 digits. With inboxId the contact joins that inbox; channel, when given, must be its channel.',
  fields: (t) => ({
    phoneNumber: t.string(),
    email: t.string(),
    firstName: t.string(),
    lastName: t.string(),
    gender: t.field({ type: GenderEnum }),
    channel: t.string(),
    inboxId: t.id({ description: 'An inbox of the workspace: its global id or plain digit id' }),
  }),
});


/** createContact's input: nulls are not given, and inboxId may be an Inbox's global id. */
const createFromGraphQL = (o: unknown) => {
  const input = withoutNulls(o);
  if (!input || typeof input !== 'object' || !('inboxId' in input)) return input;
  return { ...input, inboxId: plainIds('Inbox')(input.inboxId) };
};

builder.mutationField('createContact', (t) =>
  t.field({
    type: ContactRef,
    description: 'Like POST /v1/contacts: workspace API tokens only; the trial and MAC gates apply.',
    access: { action: 'write', scope: 'contacts', schemes: workspaceTokenSchemes },
    args: { input: t.arg({ type: CreateContactInputType, required: true }).validate(z.preprocess(createFromGraphQL, createContactInput)) },
    resolve: (_r, { input }, { db, who }) => createContact(db, who.workspaceId, input),
  }),
);

const ContactFieldsInputType = builder.inputType('ContactFieldsInput', {
  description:
    'The editable fields of a contact, as the bodies of PATCH and PUT /v1/contacts/{identifier}. updateContact and upsertContact: an absent field is unchanged, null clears it. replaceContact: an absent or null field is cleared. An empty (or blank) text field counts as not given.',
  fields: (t) => ({
    email: t.string(),
    phoneNumber: t.string({ description: 'An optional + and 7 to 20 digits' }),
    firstName: t.string(),
    lastName: t.string(),
    gender: t.field({ type: GenderEnum }),
    avatar: t.string({ description: 'An http or https URL' }),
    locale: t.string({ description: 'A language tag such as en, pt-BR or zh_Hant_TW' }),
    timezone: t.string({ description: 'An IANA time zone (Europe/Berlin); stored under its canonical name' }),
    country: t.string({ description: 'ISO 3166-1 alpha-2 code, either case; stored upper-case' }),
    state: t.string(),
    city: t.string(),
    location: t.string(),
    ref: t.string(),
    emailOptIn: t.boolean(),
  }),
});

const write = { action: 'write', scope: 'contacts' } as const;

builder.mutationField('updateContact', (t) =>
  t.field({
    type: ContactRef,
    description:
      'Like PATCH /v1/contacts/{identifier}: only the fields given change (null clears one). Email and phone number stay unique (422 validation, data.field); a contact keeps one of them (422 validation emailOrPhoneRequired).',
    access: write,
    args: { identifier: identifierArg(t.arg), input: t.arg({ type: ContactFieldsInputType, required: true }).validate(updateContactInput) },
    resolve: (_r, { identifier, input }, { db, who }) => updateContact(db, who.workspaceId, contactIdentifier(identifier), input),
  }),
);

builder.mutationField('replaceContact', (t) =>
  t.field({
    type: ContactRef,
    description: 'Like PUT /v1/contacts/{identifier}: every editable field; one absent or null is cleared (gender unknown, emailOptIn false).',
    access: write,
    args: {
      identifier: identifierArg(t.arg),
      input: t.arg({ type: ContactFieldsInputType, required: true }).validate(z.preprocess(withoutNulls, replaceContactInput)),
    },
    resolve: (_r, { identifier, input }, { db, who }) => replaceContact(db, who.workspaceId, contactIdentifier(identifier), input),
  }),
);

const UpsertContactResultType = builder.objectRef<{ created: boolean; contact: ContactScalars }>('UpsertContactResult').implement({
  description: 'The answer of upsertContact: the contact, and whether it was created.',
  fields: (t) => ({
    created: t.exposeBoolean('created', { description: 'true when no contact matched and this one was created' }),
    contact: t.field({ type: ContactRef, resolve: (r) => r.contact }),
  }),
});

builder.mutationField('upsertContact', (t) =>
  t.field({
    type: UpsertContactResultType,
    description:
      'Like POST /v1/contacts/{identifier}/upsert: updates the contact the identifier finds (as updateContact), or creates one with the email or phone number the identifier gives. An id identifier that finds nothing is 404.',
    access: write,
    args: { identifier: identifierArg(t.arg), input: t.arg({ type: ContactFieldsInputType, required: true }).validate(upsertContactInput) },
    resolve: (_r, { identifier, input }, { db, who }) => upsertContact(db, who.workspaceId, contactIdentifier(identifier), input),
  }),
);

builder.mutationField('deleteContact', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/contacts/{identifier}: the contact with its values, tags, notes, inboxes, subscriptions and conversations.',
    access: { action: 'delete', scope: 'contacts' },
    args: { identifier: identifierArg(t.arg) },
    resolve: async (_r, { identifier }, { db, who }) => deleteContact(db, who.workspaceId, contactIdentifier(identifier)),
  }),
);

for (const [name, blocked] of [['blockContact', true], ['unblockContact', false]] as const) {
  builder.mutationField(name, (t) =>
    t.field({
      type: ContactRef,
      description: blocked
        ? 'Like POST /v1/contacts/{identifier}/block: sets blockedAt; blocking again keeps the first blockedAt.'
        : 'Like POST /v1/contacts/{identifier}/unblock: clears blockedAt.',
      access: write,
      args: { identifier: identifierArg(t.arg) },
      resolve: (_r, { identifier }, { db, who }) => setContactBlockedState(db, who.workspaceId, contactIdentifier(identifier), blocked),
    }),
  );
}

const BulkDeleteContactsResultType = builder.objectRef<{ success: boolean; affected: number }>('BulkDeleteContactsResult').implement({
  description: 'The answer of bulkDeleteContacts: `affected` counts the contacts deleted.',
  fields: (t) => ({ success: t.exposeBoolean('success'), affected: t.exposeInt('affected') }),
});

builder.mutationField('bulkDeleteContacts', (t) =>
  t.field({
    type: BulkDeleteContactsResultType,
    description: 'Like POST /v1/contacts/bulk/delete: 1 to 1,000 contacts in one transaction; unknown ids are 404 with data.ids, and nothing is deleted.',
    access: { action: 'delete', scope: 'contacts' },
    args: {
      contactIds: t.arg
        .idList({ required: true, description: 'Contact ids: global or plain digit ids' })
        .validate(z.preprocess(plainIds('Contact'), bulkDeleteContactsInput.shape.contactIds)),
    },
    resolve: (_r, { contactIds }, { db, who }) => bulkDeleteContacts(db, who.workspaceId, { contactIds }),
  }),
);
