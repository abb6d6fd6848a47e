import { conversationOperations as conversations } from '../../domain/conversations/conversation.operations.js';
import { threadControlOperations as threadControl } from '../../domain/thread-control/thread-control.operations.js';
import { get, post } from '../route.js';

/** Conversations: the cursor-paged list, one conversation, its actions, and thread control of its contact inbox. */
export const conversationRoutes = [
  get('/v1/conversations', conversations.list),
  get('/v1/conversations/{id}', conversations.get),
  post('/v1/conversations/{id}/follow', conversations.follow),
  post('/v1/conversations/{id}/unfollow', conversations.unfollow),
  post('/v1/conversations/{id}/archive', conversations.archive),
  post('/v1/conversations/{id}/unarchive', conversations.unarchive),
  post('/v1/conversations/{id}/assign', conversations.assign),
  post('/v1/conversations/{id}/enable-bot', conversations.enableBot),
  post('/v1/conversations/{id}/disable-bot', conversations.disableBot),
  post('/v1/conversations/{id}/read', conversations.read),
  post('/v1/conversations/{id}/unread', conversations.unread),
  post('/v1/conversations/{id}/thread-control', threadControl.control),
  post('/v1/conversations/{id}/thread-control/sync', threadControl.syncOwner),
];
