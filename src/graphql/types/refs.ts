import { contactKeysBeyondListing, type ContactListing, type ContactScalars } from '../../domain/contacts/contact.schema.js';
import { conversationKeysBeyondListing, type ConversationListing, type ConversationScalars } from '../../domain/conversations/conversation.schema.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { listingsOf } from '../listing.js';

/** Types that point at each other (Contact.conversations, Conversation.contact) share refs here. */
// A Contact is a whole contact, or a listing from a page that selected only a listing's fields.
export const ContactRef = builder.objectRef<ContactScalars | ContactListing>('Contact');
export const contactListings = listingsOf('contact', contactKeysBeyondListing, ({ loaders }: GraphQLContext) => loaders.contact);

// A Conversation is a whole one, or a listing among a contact's that selected only a listing's fields.
export const ConversationRef = builder.objectRef<ConversationScalars | ConversationListing>('Conversation');
export const conversationListings = listingsOf('conversation', conversationKeysBeyondListing, ({ loaders }: GraphQLContext) => loaders.conversation);
