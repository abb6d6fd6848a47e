import { identifierParams, contactSchema } from '../contacts/contact.schema.js';
import { exampleContact } from '../contacts/contact.examples.js';
import { operation, operationsOf } from '../shared/operation.js';
import { encodeMessageCursor, messageFiltersHash } from './message.cursor.js';
import {
  MESSAGING_WINDOW_HOURS,
  messagePageSchema,
  messageParams,
  messageSchema,
  messagesQuery,
  sendMessageInput,
  triggerAutoReplyInput,
  type Message,
} from './message.schema.js';
import { getContactMessage, listContactMessagesPage, refreshContactProfile, sendContactMessage, triggerContactAutoReply } from './message.service.js';

const read = { action: 'read', scope: 'contacts' } as const;
const write = { action: 'write', scope: 'contacts' } as const;

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
 * A contact's messages: the cursor-paged list, one message, sending one (and the
 * workspace's default reply) through the channel adapter, and refreshing the contact's profile.
 * Sends and refreshes run with the call's database handle, channel adapter and logger.
 */
export const contactMessageOperations = operationsOf('Contacts', {
  list: operation({
    id: 'contacts.listMessages',
    summary: "List a contact's messages",
    description: "The contact's messages, both ways, newest first, a cursor page at a time.",
    access: read,
    params: identifierParams,
    query: messagesQuery,
    output: messagePageSchema,
    outputDescription: 'A page of messages and the cursors around it',
    examples: {
      params: { identifier: '41' },
      query: { limit: '2', inboxId: '5', direction: 'outgoing', cursor: encodeMessageCursor(904, listExampleHash, 'next') },
      response: { data: [outgoing], nextCursor: null, prevCursor: encodeMessageCursor(903, listExampleHash, 'prev') },
    },
    run: ({ db, who, params, query }) => listContactMessagesPage(db, who.workspaceId, params.identifier, query),
  }),
  get: operation({
    id: 'contacts.getMessage',
    summary: 'Get a message',
    description: 'One message of the contact.',
    access: read,
    params: messageParams,
    output: messageSchema,
    outputDescription: 'The message',
    examples: { params: { identifier: '41', messageId: '903' }, response: outgoing },
    run: ({ db, who, params }) => getContactMessage(db, who.workspaceId, params.identifier, params.messageId),
  }),
  send: operation({
    id: 'contacts.sendMessage',
    summary: 'Send a message to a contact',
    description: `Sends a text message to the contact through one of its inboxes (inboxId, or the one of its latest conversation activity); only within ${MESSAGING_WINDOW_HOURS} hours of the contact's last message there, else 422 validation with reason windowClosed; while another app holds the contact's thread there (thread control), 422 validation with reason threadNotOwned.`,
    access: write,
    params: identifierParams,
    body: sendMessageInput,
    output: messageSchema,
    outputDescription: 'The message as sent; `Location` is its address',
    examples: { params: { identifier: '41' }, body: { text: 'We do! Delivery takes 3 to 5 days.', inboxId: '5' }, response: { ...outgoing, seenAt: null } },
    run: ({ db, adapter, logger, who, params, body }) => sendContactMessage({ db, adapter, logger }, who.workspaceId, params.identifier, body),
  }),
  triggerAutoReply: operation({
    id: 'contacts.triggerAutoReply',
    summary: 'Send the default reply to a contact',
    description:
      "Sends the workspace's default reply to the contact as POST .../messages sends a text, with the same inbox choice and messaging window. The body may be left out.",
    access: write,
    params: identifierParams,
    body: triggerAutoReplyInput,
    output: messageSchema,
    outputDescription: 'The message as sent; `Location` is its address',
    examples: { params: { identifier: '41' }, body: { inboxId: '5' }, response: autoReply },
    run: ({ db, adapter, logger, who, params, body }) => triggerContactAutoReply({ db, adapter, logger }, who.workspaceId, params.identifier, body),
  }),
  refreshProfile: operation({
    id: 'contacts.refreshProfile',
    summary: "Refresh a contact's profile",
    description: "Reads the contact's profile from the network and updates its first name, last name and avatar; fields the network leaves out are kept.",
    access: write,
    params: identifierParams,
    output: contactSchema,
    outputDescription: 'The contact as updated, as GET /v1/contacts/{identifier} answers it',
    examples: {
      params: { identifier: '41' },
      response: { ...exampleContact, avatar: 'https://cdn.photo.example/p/ada.jpg', updatedAt: '2026-11-24T08:00:00.000Z' },
    },
    run: ({ db, adapter, logger, who, params }) => refreshContactProfile({ db, adapter, logger }, who.workspaceId, params.identifier),
  }),
});
