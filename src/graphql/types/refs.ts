import type { ContactListing, ContactScalars } from '../../domain/contacts/contact.schema.js';
import type { ConversationScalars } from '../../domain/conversations/conversation.schema.js';
import { builder } from '../builder.js';

/** Types that point at each other (Contact.conversations, Conversation.contact) share refs here. */
// A Contact is a whole contact, or a listing from a page that selected only a listing's fields.
export const ContactRef = builder.objectRef<ContactScalars | ContactListing>('Contact');
export const ConversationRef = builder.objectRef<ConversationScalars>('Conversation');
