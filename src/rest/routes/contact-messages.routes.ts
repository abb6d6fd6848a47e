import { identifierParams, contactSchema } from '../../domain/contacts/contact.schema.js';
import { encodeMessageCursor, messageFiltersHash } from '../../domain/messages/message.cursor.js';
import {
  messagePageSchema,
  messageParams,
  messageSchema,
  messagesQuery,
  sendMessageInput,
  triggerAutoReplyInput,
  type Message,
} from '../../domain/messages/message.schema.js';
import {
  getContactMessage,
  listContactMessagesPage,
  refreshContactProfile,
  sendContactMessage,
  triggerContactAutoReply,
  type MessageDeps,
} from '../../domain/messages/message.service.js';
import type { AppDeps } from '../../http/app-deps.js';
import { defineRoute } from '../route.js';
import { exampleContact } from '../../domain/contacts/contact.examples.js';

const read = { action: 'read', scope: 'contacts' } as const;
const write = { action: 'write', scope: 'contacts' } as const;
const lookupErrors = [400, 401, 403, 404, 422, 429, 500];
const writeErrors = [400, 401, 403, 404, 413, 415, 422, 429, 500];

/** The services' dependencies: the request's database handle and logger, the process's adapter. */
const messageDeps = ({ db, deps, logger }: { db: MessageDeps['db']; deps: AppDeps; logger: MessageDeps['logger'] }): MessageDeps => ({ db, adapter: deps.adapter, logger });

/** A photo inbox's conversation with the contact of the other examples (41): their question, and the answer. */
const incoming: Message = {
  id: '902',
  contactId: '41',
  conversationId: '4',
  inboxId: '5',
  direction: 'incoming',
  externalId: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDAw',
  text: 'Do you ship to Lisbon?',
  attachments: [],
  status: 'received',
  error: null,
  automationKind: null,
  automationId: null,
  seenAt: null,
  clickedAt: null,
  createdAt: '2026-11-23T10:14:00.000Z',
};
const outgoing: Message = {
  ...incoming,
  id: '903',
  direction: 'outgoing',
  externalId: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDAx',
  text: 'We do! Delivery takes 3 to 5 days.',
  status: 'sent',
  seenAt: '2026-11-23T10:16:30.000Z',
  createdAt: '2026-11-23T10:15:00.000Z',
};
const autoReply: Message = { ...outgoing, id: '904', text: 'Thanks for your message! We will get back to you shortly.', seenAt: null, createdAt: '2026-11-23T10:20:00.000Z' };

const listExampleHash = messageFiltersHash({ inboxId: '5', direction: 'outgoing' });

/**
 * A contact's messages (issue engine): the cursor-paged list, one message, sending one (and the
 * workspace's default reply) through the channel adapter, and refreshing the contact's profile.
 */
export const contactMessageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/messages',
    operationId: 'contacts.listMessages',
    summary: "The contact's messages, both ways, newest first, a cursor page at a time",
    tag: 'Contacts',
    access: read,
    params: identifierParams,
    query: messagesQuery,
    response: { status: 200, description: 'A page of messages and the cursors around it', schema: messagePageSchema },
    errors: lookupErrors,
    examples: {
      params: { identifier: '41' },
      query: { limit: '2', inboxId: '5', direction: 'outgoing', cursor: encodeMessageCursor(904, listExampleHash, 'next') },
      response: { data: [outgoing], nextCursor: null, prevCursor: encodeMessageCursor(903, listExampleHash, 'prev') },
    },
    handler: ({ db, who, params, query }) => listContactMessagesPage(db, who.workspaceId, params.identifier, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/contacts/{identifier}/messages/{messageId}',
    operationId: 'contacts.getMessage',
    summary: 'One message of the contact',
    tag: 'Contacts',
    access: read,
    params: messageParams,
    response: { status: 200, description: 'The message', schema: messageSchema },
    errors: lookupErrors,
    examples: { params: { identifier: '41', messageId: '903' }, response: outgoing },
    handler: ({ db, who, params }) => getContactMessage(db, who.workspaceId, params.identifier, params.messageId),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/{identifier}/messages',
    operationId: 'contacts.sendMessage',
    summary:
      "Send a text message to the contact through one of its inboxes (inboxId, or the one of its latest conversation activity); only within 24 hours of the contact's last message there (else 422 validation, reason windowClosed)",
    tag: 'Contacts',
    access: write,
    params: identifierParams,
    body: sendMessageInput,
    response: { status: 201, description: 'The message as sent; `Location` is its address', schema: messageSchema, location: (m) => `/v1/contacts/${m.contactId}/messages/${m.id}` },
    errors: writeErrors,
    examples: { params: { identifier: '41' }, body: { text: 'We do! Delivery takes 3 to 5 days.', inboxId: '5' }, response: { ...outgoing, seenAt: null } },
    handler: ({ db, who, params, body, deps, logger }) => sendContactMessage(messageDeps({ db, deps, logger }), who.workspaceId, params.identifier, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/{identifier}/auto-replies',
    operationId: 'contacts.triggerAutoReply',
    summary: "Send the workspace's default reply to the contact, as POST .../messages sends a text (same inbox choice and messaging window); the body may be left out",
    tag: 'Contacts',
    access: write,
    params: identifierParams,
    body: triggerAutoReplyInput,
    response: { status: 201, description: 'The message as sent; `Location` is its address', schema: messageSchema, location: (m) => `/v1/contacts/${m.contactId}/messages/${m.id}` },
    errors: writeErrors,
    examples: { params: { identifier: '41' }, body: { inboxId: '5' }, response: autoReply },
    handler: ({ db, who, params, body, deps, logger }) => triggerContactAutoReply(messageDeps({ db, deps, logger }), who.workspaceId, params.identifier, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/contacts/{identifier}/refresh-profile',
    operationId: 'contacts.refreshProfile',
    summary: "Read the contact's profile from the network and update its first name, last name and avatar (fields the network leaves out are kept)",
    tag: 'Contacts',
    access: write,
    params: identifierParams,
    response: { status: 200, description: 'The contact as updated, as GET /v1/contacts/{identifier} answers it', schema: contactSchema },
    errors: lookupErrors,
    examples: {
      params: { identifier: '41' },
      response: { ...exampleContact, avatar: 'https://cdn.photo.example/p/ada.jpg', updatedAt: '2026-11-24T08:00:00.000Z' },
    },
    handler: ({ db, who, params, deps, logger }) => refreshContactProfile(messageDeps({ db, deps, logger }), who.workspaceId, params.identifier),
  }),
];
