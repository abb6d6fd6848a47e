import { z } from 'zod';
import { contactSequenceSchema, identifierParams } from '../../domain/contacts/contact.schema.js';
import { successSchema } from '../../domain/shared/schemas.js';
import {
  bulkSubscribeSequencesInput,
  contactSequenceIdsInput,
  MAX_SEQUENCES_PER_CALL,
  setContactSequencesInput,
} from '../../domain/sequences/sequence.schema.js';
import { bulkSubscribeSequences, changeContactSequences, listContactSequences } from '../../domain/sequences/sequence.service.js';
import { bulkResultSchema, MAX_BULK_CONTACTS } from '../../domain/tags/tag.schema.js';
import { defineRoute } from '../route.js';

const readErrors = [400, 401, 403, 404, 422, 429, 500];
const writeErrors = [400, 401, 403, 404, 413, 415, 422, 429, 500];

/** A contact's sequence subscriptions, and bulk subscribing (issue contacts-api). Changes answer `{success: true}`. */
export const contactSequenceRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/sequences',
    operationId: 'contacts.listSequences',
    summary: 'Sequences the contact is subscribed to',
    tag: 'Contacts',
    access: { action: 'read', scope: 'contacts' },
    params: identifierParams,
    response: {
      status: 200,
      description: 'Sequence subscriptions, in subscription order',
      schema: z.object({ data: z.array(contactSequenceSchema) }).meta({ id: 'ContactSequenceList' }),
    },
    errors: readErrors,
    examples: {
      params: { identifier: 'id:1' },
      response: {
        data: [
          { sequenceId: '1', sequenceName: 'Welcome series' },
          { sequenceId: '2', sequenceName: 'Abandoned cart follow-up' },
        ],
      },
    },
    handler: async ({ db, who, params }) => ({ data: await listContactSequences(db, who.workspaceId, params.identifier) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/{identifier}/sequences',
    operationId: 'contacts.subscribeSequences',
    summary: `Subscribe the contact to sequences (at most ${MAX_SEQUENCES_PER_CALL}; existing subscriptions are untouched)`,
    tag: 'Contacts',
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: contactSequenceIdsInput,
    response: { status: 200, description: 'Subscribed; unknown sequence ids are 404 with data.ids, and nothing changes', schema: successSchema },
    errors: writeErrors,
    examples: { params: { identifier: 'id:1' }, body: { sequenceIds: ['1', '2'] }, response: { success: true } },
    handler: ({ db, who, params, body }) => changeContactSequences(db, who.workspaceId, params.identifier, 'subscribe', body.sequenceIds),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/contacts/{identifier}/sequences',
    operationId: 'contacts.unsubscribeSequences',
    summary: `Unsubscribe the contact from sequences (at most ${MAX_SEQUENCES_PER_CALL})`,
    tag: 'Contacts',
    access: { action: 'delete', scope: 'contacts' },
    params: identifierParams,
    body: contactSequenceIdsInput,
    response: { status: 200, description: 'Unsubscribed; unknown sequence ids are 404 with data.ids, and nothing changes', schema: successSchema },
    errors: writeErrors,
    examples: { params: { identifier: 'id:1' }, body: { sequenceIds: ['2'] }, response: { success: true } },
    handler: ({ db, who, params, body }) => changeContactSequences(db, who.workspaceId, params.identifier, 'unsubscribe', body.sequenceIds),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/contacts/{identifier}/sequences',
    operationId: 'contacts.setSequences',
    summary: `Set the contact's subscriptions to exactly these sequences (0 to ${MAX_SEQUENCES_PER_CALL})`,
    tag: 'Contacts',
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: setContactSequencesInput,
    response: { status: 200, description: 'The contact is subscribed to exactly these now (existing subscriptions kept as they were)', schema: successSchema },
    errors: writeErrors,
    examples: { params: { identifier: 'id:1' }, body: { sequenceIds: ['1'] }, response: { success: true } },
    handler: ({ db, who, params, body }) => changeContactSequences(db, who.workspaceId, params.identifier, 'set', body.sequenceIds),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/bulk/sequences',
    operationId: 'contacts.bulkSubscribeSequences',
    summary: `Subscribe up to ${MAX_BULK_CONTACTS} contacts to the same sequences, in one transaction`,
    tag: 'Contacts',
    access: { action: 'write', scope: 'contacts' },
    body: bulkSubscribeSequencesInput,
    response: {
      status: 200,
      description:
        'Subscribed; `affected` counts the contacts that gained at least one subscription. Unknown contact or sequence ids are 404 with data.ids, and nothing changes.',
      schema: bulkResultSchema,
    },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: { body: { contactIds: ['1', '2', '5'], sequenceIds: ['1'] }, response: { success: true, affected: 3 } },
    handler: ({ db, who, body }) => bulkSubscribeSequences(db, who.workspaceId, body),
  }),
];
