import { z } from 'zod';
import { contactOperations as contacts } from '../../domain/contacts/contact.operations.js';
import { genderSchema, type ContactScalars } from '../../domain/contacts/contact.schema.js';
import { contactIdentifier, identifierArg, plainIds, withoutNulls } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { contractEnum } from '../enums.js';
import { nodeOptions, rawIdField } from '../node.js';
import { runOperation } from '../operations.js';
import { zodInputType } from '../zod-input.js';
import { ContactCustomFieldValueType } from './custom-field.type.js';
import { ContactNoteType } from './contact-note.type.js';
import { ContactInboxType } from './inbox.type.js';
import { SequenceSubscriptionType } from './sequence.type.js';
import { contactListings, ContactRef, conversationListings, ConversationRef } from './refs.js';
import { tagListings, TagType } from './tag.type.js';

const GenderEnum = contractEnum('Gender', genderSchema.options);

const beyondListing = contactListings.beyond;
type BeyondListing = Parameters<typeof beyondListing>[0];
const text = (t: any, key: BeyondListing) => t.string({ nullable: true, resolve: beyondListing(key) });
const when = (t: any, key: BeyondListing) => t.field({ type: 'DateTime', nullable: true, resolve: beyondListing(key) });

builder.node(ContactRef, {
  ...nodeOptions('Contact', contacts.get.access, ({ loaders }) => loaders.contact),
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
    // The operation's result is the contact's own fields; the type reads its relations per field.
    access: contacts.get.access,
    args: { identifier: t.arg.string({ required: true, validate: contacts.get.params.shape.identifier }) },
    resolve: (_r, { identifier }, ctx) => runOperation(contacts.get, ctx, { params: { identifier: contactIdentifier(identifier) } }),
  }),
);

const CreateContactInputType = zodInputType('CreateContactInput', contacts.create.body, {
  description:
    'The body of POST /v1/contacts: at least one of email or phoneNumber (empty strings count as not given); phoneNumber is an optional + and 7 to 20 digits. With inboxId the contact joins that inbox; channel, when given, must be its channel.',
  types: { gender: GenderEnum, inboxId: 'ID' },
  // channel: the type's description says what it takes; '' leaves the field without one of its own.
  descriptions: { inboxId: 'An inbox of the workspace: its global id or plain digit id', channel: null },
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
    access: contacts.create.access,
    args: { input: t.arg({ type: CreateContactInputType, required: true }).validate(z.preprocess(createFromGraphQL, contacts.create.body)) },
    resolve: (_r, { input }, ctx) => runOperation(contacts.create, ctx, { body: input }),
  }),
);

/** The one input type of updateContact, replaceContact and upsertContact: their bodies have the same fields. */
const ContactFieldsInputType = zodInputType('ContactFieldsInput', contacts.update.body, {
  description:
    'The editable fields of a contact, as the bodies of PATCH and PUT /v1/contacts/{identifier}. updateContact and upsertContact: an absent field is unchanged, null clears it. replaceContact: an absent or null field is cleared. An empty (or blank) text field counts as not given.',
  types: { gender: GenderEnum },
  descriptions: {
    phoneNumber: 'An optional + and 7 to 20 digits',
    avatar: 'An http or https URL',
    locale: 'A language tag such as en, pt-BR or zh_Hant_TW',
  },
});

builder.mutationField('updateContact', (t) =>
  t.field({
    type: ContactRef,
    description:
      'Like PATCH /v1/contacts/{identifier}: only the fields given change (null clears one). Email and phone number stay unique (422 validation, data.field); a contact keeps one of them (422 validation emailOrPhoneRequired).',
    access: contacts.update.access,
    args: { identifier: identifierArg(t.arg), input: t.arg({ type: ContactFieldsInputType, required: true }).validate(contacts.update.body) },
    resolve: (_r, { identifier, input }, ctx) => runOperation(contacts.update, ctx, { params: { identifier: contactIdentifier(identifier) }, body: input }),
  }),
);

builder.mutationField('replaceContact', (t) =>
  t.field({
    type: ContactRef,
    description: 'Like PUT /v1/contacts/{identifier}: every editable field; one absent or null is cleared (gender unknown, emailOptIn false).',
    access: contacts.replace.access,
    args: {
      identifier: identifierArg(t.arg),
      input: t.arg({ type: ContactFieldsInputType, required: true }).validate(z.preprocess(withoutNulls, contacts.replace.body)),
    },
    resolve: (_r, { identifier, input }, ctx) => runOperation(contacts.replace, ctx, { params: { identifier: contactIdentifier(identifier) }, body: input }),
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
    access: contacts.upsert.access,
    args: { identifier: identifierArg(t.arg), input: t.arg({ type: ContactFieldsInputType, required: true }).validate(contacts.upsert.body) },
    resolve: (_r, { identifier, input }, ctx) => runOperation(contacts.upsert, ctx, { params: { identifier: contactIdentifier(identifier) }, body: input }),
  }),
);

builder.mutationField('deleteContact', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/contacts/{identifier}: the contact with its values, tags, notes, inboxes, subscriptions and conversations.',
    access: contacts.delete.access,
    args: { identifier: identifierArg(t.arg) },
    resolve: (_r, { identifier }, ctx) => runOperation(contacts.delete, ctx, { params: { identifier: contactIdentifier(identifier) } }),
  }),
);

const blockMutations = [
  ['blockContact', contacts.block, 'Like POST /v1/contacts/{identifier}/block: sets blockedAt; blocking again keeps the first blockedAt.'],
  ['unblockContact', contacts.unblock, 'Like POST /v1/contacts/{identifier}/unblock: clears blockedAt.'],
] as const;
for (const [name, op, description] of blockMutations) {
  builder.mutationField(name, (t) =>
    t.field({
      type: ContactRef,
      description,
      access: op.access,
      args: { identifier: identifierArg(t.arg) },
      resolve: (_r, { identifier }, ctx) => runOperation(op, ctx, { params: { identifier: contactIdentifier(identifier) } }),
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
    access: contacts.bulkDelete.access,
    args: {
      contactIds: t.arg
        .idList({ required: true, description: 'Contact ids: global or plain digit ids' })
        .validate(z.preprocess(plainIds('Contact'), contacts.bulkDelete.body.shape.contactIds)),
    },
    resolve: (_r, { contactIds }, ctx) => runOperation(contacts.bulkDelete, ctx, { body: { contactIds } }),
  }),
);
