import { identifierParams } from '../contacts/contact.schema.js';
import { operation, operationsOf } from '../shared/operation.js';
import { successSchema } from '../shared/schemas.js';
import { bulkResultSchema, MAX_BULK_CONTACTS } from '../tags/tag.schema.js';
import {
  bulkSubscribeSequencesInput,
  contactSequenceIdsInput,
  contactSequenceListSchema,
  MAX_SEQUENCES_PER_CALL,
  setContactSequencesInput,
} from './sequence.schema.js';
import { bulkSubscribeSequences, changeContactSequences, listContactSequences } from './sequence.service.js';

/** A contact's sequence subscriptions, and bulk subscribing. Changes answer `{success: true}`. */
export const contactSequenceOperations = operationsOf('Contacts', {
  list: operation({
    id: 'contacts.listSequences',
    summary: "List a contact's sequences",
    description: 'The sequences the contact is subscribed to.',
    access: { action: 'read', scope: 'contacts' },
    params: identifierParams,
    output: contactSequenceListSchema,
    outputDescription: 'Sequence subscriptions, in subscription order',
    examples: {
      params: { identifier: 'id:1' },
      response: {
        data: [
          { sequenceId: '1', sequenceName: 'Welcome series' },
          { sequenceId: '2', sequenceName: 'Abandoned cart follow-up' },
        ],
      },
    },
    run: ({ db, who, params }) => listContactSequences(db, who.workspaceId, params.identifier),
    present: (subscriptions) => ({ data: subscriptions }),
  }),
  subscribe: operation({
    id: 'contacts.subscribeSequences',
    summary: 'Subscribe a contact to sequences',
    description: `Subscribes the contact to at most ${MAX_SEQUENCES_PER_CALL} sequences; existing subscriptions are untouched.`,
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: contactSequenceIdsInput,
    output: successSchema,
    outputDescription: 'Subscribed; unknown sequence ids are 404 with data.ids, and nothing changes',
    examples: { params: { identifier: 'id:1' }, body: { sequenceIds: ['1', '2'] }, response: { success: true } },
    run: ({ db, who, queue, params, body }) => changeContactSequences(db, queue, who.workspaceId, params.identifier, 'subscribe', body.sequenceIds),
  }),
  unsubscribe: operation({
    id: 'contacts.unsubscribeSequences',
    summary: 'Unsubscribe a contact from sequences',
    description: `Unsubscribes the contact from at most ${MAX_SEQUENCES_PER_CALL} sequences.`,
    access: { action: 'delete', scope: 'contacts' },
    params: identifierParams,
    body: contactSequenceIdsInput,
    output: successSchema,
    outputDescription: 'Unsubscribed; unknown sequence ids are 404 with data.ids, and nothing changes',
    examples: { params: { identifier: 'id:1' }, body: { sequenceIds: ['2'] }, response: { success: true } },
    run: ({ db, who, queue, params, body }) => changeContactSequences(db, queue, who.workspaceId, params.identifier, 'unsubscribe', body.sequenceIds),
  }),
  set: operation({
    id: 'contacts.setSequences',
    summary: "Set a contact's sequences",
    description: `The contact is subscribed to exactly these sequences afterwards (0 to ${MAX_SEQUENCES_PER_CALL}).`,
    access: { action: 'write', scope: 'contacts' },
    params: identifierParams,
    body: setContactSequencesInput,
    output: successSchema,
    outputDescription: 'The contact is subscribed to exactly these now (existing subscriptions kept as they were)',
    examples: { params: { identifier: 'id:1' }, body: { sequenceIds: ['1'] }, response: { success: true } },
    run: ({ db, who, queue, params, body }) => changeContactSequences(db, queue, who.workspaceId, params.identifier, 'set', body.sequenceIds),
  }),
  bulkSubscribe: operation({
    id: 'contacts.bulkSubscribeSequences',
    summary: 'Subscribe many contacts to sequences',
    description: `Subscribes up to ${MAX_BULK_CONTACTS} contacts to the same sequences, in one transaction.`,
    access: { action: 'write', scope: 'contacts' },
    body: bulkSubscribeSequencesInput,
    output: bulkResultSchema,
    outputDescription:
      'Subscribed; `affected` counts the contacts that gained at least one subscription. Unknown contact or sequence ids are 404 with data.ids, and nothing changes.',
    examples: { body: { contactIds: ['1', '2', '5'], sequenceIds: ['1'] }, response: { success: true, affected: 3 } },
    run: ({ db, who, queue, body }) => bulkSubscribeSequences(db, queue, who.workspaceId, body),
  }),
});
