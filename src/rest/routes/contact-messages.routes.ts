import { contactMessageOperations as messages } from '../../domain/messages/message.operations.js';
import type { Message } from '../../domain/messages/message.schema.js';
import { get, post } from '../route.js';

/** Where a sent message can be read. */
const messageLocation = (m: Message) => `/v1/contacts/${m.contactId}/messages/${m.id}`;

/** A contact's messages: the list, one message, sends, and the profile refresh. */
export const contactMessageRoutes = [
  get('/v1/contacts/{identifier}/messages', messages.list),
  get('/v1/contacts/{identifier}/messages/{messageId}', messages.get),
  post('/v1/contacts/{identifier}/messages', messages.send, { status: 201, location: messageLocation }),
  post('/v1/contacts/{identifier}/auto-replies', messages.triggerAutoReply, { status: 201, location: messageLocation }),
  post('/v1/contacts/{identifier}/refresh-profile', messages.refreshProfile),
];
