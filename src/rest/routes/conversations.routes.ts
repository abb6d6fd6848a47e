import { setConversationFollowed } from '../../domain/conversations/conversation.service.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

export const conversationRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/conversations/{id}/unfollow',
    operationId: 'conversations.unfollow',
    summary: 'Stop following a conversation (idempotent)',
    tag: 'Conversations',
    access: { action: 'write', scope: 'conversations' },
    params: idParams,
    response: { status: 200, description: 'Unfollowed', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '4' }, response: { success: true } },
    handler: ({ db, who, params }) => setConversationFollowed(db, who.workspaceId, params.id, false),
  }),
];
