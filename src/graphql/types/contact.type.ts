import { z } from 'zod';
import { workspaceTokenSchemes } from '../../domain/auth/principal.js';
import { createContactInput, genderSchema, identifierParams } from '../../domain/contacts/contact.schema.js';
import { createContact, resolveContact } from '../../domain/contacts/contact.service.js';
import { builder } from '../builder.js';
import { contractEnum } from '../enums.js';
import { decodeNodeId, nodeOptions, rawIdField } from '../node.js';
import { ContactCustomFieldValueType } from './custom-field.type.js';
import { ContactNoteType } from './contact-note.type.js';
import { ContactInboxType } from './inbox.type.js';
import { SequenceSubscriptionType } from './sequence.type.js';
import { ContactRef, ConversationRef } from './refs.js';
import { TagType } from './tag.type.js';

const GenderEnum = contractEnum('Gender', genderSchema.options);

const read = { action: 'read', scope: 'contacts' } as const;

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
