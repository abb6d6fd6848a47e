import { workspaceTokenSchemes } from '../auth/principal.js';
import { operation, operationsOf } from '../shared/operation.js';
import { successSchema } from '../shared/schemas.js';
import { exampleContact, exampleInbox } from './contact.examples.js';
import {
  bulkDeleteContactsInput,
  bulkDeleteResultSchema,
  contactInboxListSchema,
  contactSchema,
  createContactInput,
  identifierParams,
  MAX_BULK_CONTACTS,
  replaceContactInput,
  updateContactInput,
  upsertContactInput,
  upsertContactResultSchema,
  type Contact,
} from './contact.schema.js';
import {
  bulkDeleteContacts,
  createContact,
  deleteContact,
  getContactInboxes,
  loadFullContacts,
  replaceContact,
  resolveContact,
  setContactBlockedState,
  updateContact,
  upsertContact,
} from './contact.service.js';

/** A contact someone has worked with: a value, a tag, a note, an inbox. */
const exampleRichContact: Contact = {
  ...exampleContact,
  gender: 'female',
  locale: 'en-GB',
  timezone: 'Europe/London',
  country: 'GB',
  city: 'London',
  updatedAt: '2026-11-23T11:02:00.000Z',
  contactCustomFields: [
    { id: '7', createdAt: '2026-11-23T10:20:00.000Z', updatedAt: '2026-11-23T10:20:00.000Z', value: 'Analytical Engines Ltd', contactId: '41', customFieldId: '1' },
  ],
  tags: [{ id: '2', createdAt: '2026-10-01T08:00:00.000Z', updatedAt: '2026-10-01T08:00:00.000Z', name: 'vip', deletedAt: null, folderId: null, workspaceId: '1' }],
  contactNotes: [
    { id: '12', createdAt: '2026-11-23T10:40:00.000Z', updatedAt: '2026-11-23T10:40:00.000Z', text: 'Asked about volume pricing', contactId: '41', createdById: '5' },
  ],
  contactInboxes: [{ id: '30', contactId: '41', inboxId: '3', channel: 'chat', inbox: exampleInbox }],
};

const read = { action: 'read', scope: 'contacts' } as const;
const write = { action: 'write', scope: 'contacts' } as const;

/** Contacts one at a time: creating, reading, changing, blocking and deleting them, and bulk deletion. */
export const contactOperations = operationsOf('Contacts', {
  create: operation({
    id: 'contacts.create',
    summary: 'Create a contact',
    description: 'An inboxId that is no inbox of the workspace is 404.',
    access: { action: 'write', scope: 'contacts', schemes: workspaceTokenSchemes },
    body: createContactInput,
    output: contactSchema,
    outputDescription: 'The new contact',
    examples: {
      body: { email: 'ada.lovelace@mail.example', phoneNumber: '+14155550123', firstName: 'Ada', lastName: 'Lovelace', gender: 'unknown' },
      response: exampleContact,
    },
    run: ({ db, who, body }) => createContact(db, who.workspaceId, body),
  }),
  /**
   * The contact's own fields, which GraphQL's `contact` resolves (its relations are read per field,
   * when a query asks for them); REST embeds every relation.
   */
  get: operation({
    id: 'contacts.get',
    summary: 'Get a contact',
    description: 'One contact with its custom-field values, tags, notes and inboxes.',
    access: read,
    params: identifierParams,
    output: contactSchema,
    outputDescription: 'The contact (as the create response)',
    examples: { params: { identifier: 'email:ada.lovelace@mail.example' }, response: exampleRichContact },
    run: ({ db, who, params }) => resolveContact(db, who.workspaceId, params.identifier),
    present: async (contact, { db, who }) => (await loadFullContacts(db, who.workspaceId, [contact]))[0],
  }),
  update: operation({
    id: 'contacts.update',
    summary: 'Change a contact',
    description: 'Changes some fields of a contact: those given; the others keep their values.',
    access: write,
    params: identifierParams,
    body: updateContactInput,
    output: contactSchema,
    outputDescription: 'The contact as changed',
    examples: {
      params: { identifier: '41' },
      body: { gender: 'female', locale: 'en-GB', timezone: 'Europe/London', country: 'gb', city: 'London' },
      response: { ...exampleContact, gender: 'female', locale: 'en-GB', timezone: 'Europe/London', country: 'GB', city: 'London', updatedAt: '2026-11-23T11:02:00.000Z' },
    },
    run: ({ db, who, params, body }) => updateContact(db, who.workspaceId, params.identifier, body),
  }),
  replace: operation({
    id: 'contacts.updateLegacy',
    summary: 'Replace a contact',
    description: 'Replaces every editable field of a contact: the older form of the update, in which absent fields are cleared.',
    access: write,
    params: identifierParams,
    body: replaceContactInput,
    output: contactSchema,
    outputDescription: 'The contact as replaced',
    examples: {
      params: { identifier: 'id:41' },
      body: { email: 'ada.lovelace@mail.example', firstName: 'Ada', lastName: 'King', emailOptIn: true },
      response: { ...exampleContact, phoneNumber: null, lastName: 'King', fullName: 'Ada King', emailOptIn: true, updatedAt: '2026-11-23T11:02:00.000Z' },
    },
    run: ({ db, who, params, body }) => replaceContact(db, who.workspaceId, params.identifier, body),
  }),
  upsert: operation({
    id: 'contacts.upsert',
    summary: 'Update or create a contact',
    description: 'Updates the contact the identifier finds, or creates it from the email or phone number.',
    access: write,
    params: identifierParams,
    body: upsertContactInput,
    output: upsertContactResultSchema,
    outputDescription: '`created` says whether the contact is new',
    examples: {
      params: { identifier: 'email:ada.lovelace@mail.example' },
      body: { firstName: 'Ada', lastName: 'Lovelace', phoneNumber: '+14155550123' },
      response: { created: true, contact: exampleContact },
    },
    run: ({ db, who, params, body }) => upsertContact(db, who.workspaceId, params.identifier, body),
  }),
  delete: operation({
    id: 'contacts.delete',
    summary: 'Delete a contact',
    description: 'Deletes the contact with its values, tags, notes, inboxes, subscriptions and conversations.',
    access: { action: 'delete', scope: 'contacts' },
    params: identifierParams,
    output: successSchema,
    outputDescription: 'Deleted',
    examples: { params: { identifier: '41' }, response: { success: true } },
    run: ({ db, who, params }) => deleteContact(db, who.workspaceId, params.identifier),
  }),
  block: operation({
    id: 'contacts.block',
    summary: 'Block a contact',
    description: 'Sets blockedAt; blocking again keeps the first time.',
    access: write,
    params: identifierParams,
    output: contactSchema,
    outputDescription: 'The contact, blocked',
    examples: {
      params: { identifier: '41' },
      response: { ...exampleContact, blockedAt: '2026-11-23T11:02:00.000Z', updatedAt: '2026-11-23T11:02:00.000Z' },
    },
    run: ({ db, who, params }) => setContactBlockedState(db, who.workspaceId, params.identifier, true),
  }),
  unblock: operation({
    id: 'contacts.unblock',
    summary: 'Unblock a contact',
    description: 'Clears blockedAt.',
    access: write,
    params: identifierParams,
    output: contactSchema,
    outputDescription: 'The contact, not blocked',
    examples: { params: { identifier: '41' }, response: { ...exampleContact, updatedAt: '2026-11-23T11:05:00.000Z' } },
    run: ({ db, who, params }) => setContactBlockedState(db, who.workspaceId, params.identifier, false),
  }),
  bulkDelete: operation({
    id: 'contacts.bulkDelete',
    summary: 'Delete many contacts',
    description: `Deletes up to ${MAX_BULK_CONTACTS.toLocaleString('en')} contacts at once, all or none: ids that are no contact of the workspace are 404, named in data.ids, and nothing is deleted then.`,
    access: { action: 'delete', scope: 'contacts' },
    body: bulkDeleteContactsInput,
    output: bulkDeleteResultSchema,
    outputDescription: 'How many contacts were deleted',
    examples: { body: { contactIds: ['41', '42', '57'] }, response: { success: true, affected: 3 } },
    run: ({ db, who, body }) => bulkDeleteContacts(db, who.workspaceId, body),
  }),
  listInboxes: operation({
    id: 'contacts.listInboxes',
    summary: "List a contact's inboxes",
    description: "The inboxes the contact belongs to: the contact object's contactInboxes.",
    access: read,
    params: identifierParams,
    output: contactInboxListSchema,
    outputDescription: 'Inbox memberships, each with its inbox',
    examples: { params: { identifier: '41' }, response: { data: exampleRichContact.contactInboxes } },
    run: ({ db, who, params }) => getContactInboxes(db, who.workspaceId, params.identifier),
    present: (inboxes) => ({ data: inboxes }),
  }),
});
