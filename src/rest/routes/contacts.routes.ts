import { z } from 'zod';
import { workspaceTokenSchemes } from '../../domain/auth/principal.js';
import {
  contactSchema,
  createContactInput,
  identifierParams,
} from '../../domain/contacts/contact.schema.js';
import { createContact } from '../../domain/contacts/contact.service.js';
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
];
