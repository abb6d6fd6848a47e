import { z } from 'zod';
import { workspaceTokenSchemes } from '../../domain/auth/principal.js';
import {
  contactSchema,
  createContactInput,
  customFieldValueSchema,
  identifierParams,
} from '../../domain/contacts/contact.schema.js';
import { createContact, getContactCustomFields } from '../../domain/contacts/contact.service.js';
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
    examples: {
      body: { email: 'ada.lovelace@mail.example', phoneNumber: '+14155550123', firstName: 'Ada', lastName: 'Lovelace' },
      response: {
        id: '41',
        avatar: null,
        phoneNumber: '+14155550123',
        email: 'ada.lovelace@mail.example',
        firstName: 'Ada',
        lastName: 'Lovelace',
        fullName: 'Ada Lovelace',
        ref: null,
        country: null,
        state: null,
        city: null,
        location: null,
        locale: null,
        timezone: null,
        workspaceId: '1',
        gender: 'unknown',
        emailVerified: false,
        emailOptIn: false,
        createdAt: '2026-11-23T10:15:00.000Z',
        updatedAt: '2026-11-23T10:15:00.000Z',
        lastReadAt: null,
        subscribedAt: null,
        broadcastSubscribedAt: null,
        blockedAt: null,
        contactCustomFields: [],
        tags: [],
        contactNotes: [],
        contactInboxes: [],
      },
    },
    handler: ({ db, who, body }) => createContact(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/custom-fields',
    operationId: 'contacts.listCustomFields',
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
    examples: {
      params: { identifier: 'ava.garcia0@mail.example' },
      response: {
        data: [
          { id: '1', name: 'Company', description: 'Where the contact works', value: 'Northwind Traders', type: 'shortText' },
          { id: '2', name: 'Order count', description: 'Orders placed so far', value: '3', type: 'number' },
          { id: '3', name: 'Birthday', description: 'For the birthday coupon', value: '1991-02-11', type: 'date' },
          { id: '4', name: 'Wants SMS', description: 'Opted in to SMS updates', value: 'true', type: 'boolean' },
          { id: '5', name: 'Last question', description: 'Most recent question asked in chat', value: '', type: 'longText' },
        ],
      },
    },
    handler: async ({ db, who, params }) => ({ data: await getContactCustomFields(db, who.workspaceId, params.identifier) }),
  }),
];
