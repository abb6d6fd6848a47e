import type { ContactScalars } from '../../domain/contacts/contact.schema.js';
import type { ConversationScalars } from '../../domain/conversations/conversation.schema.js';
import { builder } from '../builder.js';

/** Types that point at each other (Contact.conversations, Conversation.contact) share refs here. */
export const ContactRef = builder.objectRef<ContactScalars>('Contact');
export const ConversationRef = builder.objectRef<ConversationScalars>('Conversation');
