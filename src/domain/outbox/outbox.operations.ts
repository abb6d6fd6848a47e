import { operation, operationsOf } from '../shared/operation.js';
import { outboxPageSchema, outboxQuery } from './outbox.schema.js';
import { listOutboxPage } from './outbox.service.js';

/** A photo automation's private reply to a comment. */
const privateReply = {
  id: '12',
  createdAt: '2026-11-23T10:15:00.000Z',
  channel: 'photo' as const,
  inboxId: '1',
  action: 'privateReply' as const,
  commentId: '17858893269000001',
  postId: '178920001',
  recipientId: null,
  contactId: '7',
  automationKind: 'comment' as const,
  automationId: '3',
  payload: { type: 'text' as const, text: 'Thanks for asking! Prices: https://shop.example.com' },
};

/**
 * The outbox: what the sandbox channel adapter recorded instead of sending. Read
 * with the `automations` scope: the outbox is what automations (and the engine's sends) did.
 */
export const outboxOperations = operationsOf('Outbox', {
  list: operation({
    id: 'outbox.list',
    summary: 'List the outbox',
    description: 'What the sandbox channel adapter recorded instead of sending: replies, messages, likes, hides and unhides, newest first.',
    access: { action: 'read', scope: 'automations' },
    query: outboxQuery,
    output: outboxPageSchema,
    outputDescription:
      'A page of outbox entries, newest first (by id, the order they were recorded in); an unknown or deleted contact or automation id lists what was recorded for it, or nothing',
    examples: {
      query: { page: '1', perPage: '20', contactId: '7', automationId: '3', automationKind: 'comment', action: 'privateReply', channel: 'photo' },
      response: { data: [privateReply], pageCount: 1 },
    },
    run: ({ db, who, query }) => listOutboxPage(db, who.workspaceId, query),
  }),
});
