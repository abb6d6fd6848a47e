import { z } from 'zod';
import { workspaceTokenSchemes } from '../../domain/auth/principal.js';
import {
  contactSchema,
  contactSequenceSchema,
  createContactInput,
  customFieldValueSchema,
  identifierParams,
} from '../../domain/contacts/contact.schema.js';
import { createContact, getContactCustomFields, getContactSequences } from '../../domain/contacts/contact.service.js';
import { defineRoute } from '../route.js';

const lookupErrors = [400, 401, 403, 404, 422, 429, 500];

export const contactRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/contacts',
    operationId: 'contacts.create',
    summary: 'Create a contact',
    tag: 'Contacts',
    access: { action: 'write', scope: 'contacts', schemes: workspaceTokenSchemes },
    body: createContactInput,
    response: { status: 200, description: 'The new contact', schema: contactSchema },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    handler: ({ db, who, body }) => createContact(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/custom-fields',
    operationId: 'contacts.customFields',
    summary: "Every custom field of the workspace with this contact's value",
    tag: 'Contacts',
    access: { action: 'read', scope: 'contacts' },
    params: identifierParams,
    response: {
      status: 200,
      description: 'Custom fields with values ("" when unset)',
      schema: z.object({ data: z.array(customFieldValueSchema) }).meta({ id: 'ContactCustomFieldValueList' }),
    },
    errors: lookupErrors,
    handler: async ({ db, who, params }) => ({ data: await getContactCustomFields(db, who.workspaceId, params.identifier) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/sequences',
    operationId: 'contacts.sequences',
    summary: 'Sequences the contact is subscribed to',
    tag: 'Contacts',
    access: { action: 'read', scope: 'contacts' },
    params: identifierParams,
    response: {
      status: 200,
      description: 'Sequence subscriptions',
      schema: z.object({ data: z.array(contactSequenceSchema) }).meta({ id: 'ContactSequenceList' }),
    },
    errors: lookupErrors,
    handler: async ({ db, who, params }) => ({ data: await getContactSequences(db, who.workspaceId, params.identifier) }),
  }),
];
