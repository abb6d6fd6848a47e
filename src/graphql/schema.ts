import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import { resolveGlobalIdsSynchronously } from './node.js';
import './types/workspace.type.js';
import './types/tag.type.js';
import './types/inbox.type.js';
import './types/custom-field.type.js';
import './types/sequence.type.js';
import './types/contact-note.type.js';
import './types/contact.type.js';
import './types/contact-list.type.js';
import './types/token.type.js';
import './types/conversation.type.js';
import './types/comment-automation.type.js';
import './types/comment-event.type.js';
import './types/lead-ad.type.js';
import './types/channel-post.type.js';
import './types/lead-page.type.js';
import './types/dynamic-image.type.js';
import './types/error-log.type.js';
import './types/workspace-event.type.js';
import './types/webhook.type.js';
import './types/outbox.type.js';
import './types/message.type.js';
import './types/dev-event.type.js';
import './types/node.type.js';

/** Imports every type module (each registers itself on the builder) and builds the schema, sorted. */
export const schema = resolveGlobalIdsSynchronously(lexicographicSortSchema(builder.toSchema()));
