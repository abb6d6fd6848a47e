import { commentEventPageSchema, commentEventsQuery, type CommentEventRecord } from '../../domain/comment-events/comment-event.schema.js';
import { listCommentEventsPage } from '../../domain/comment-events/comment-event.service.js';
import { idParams } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

/** A comment answered with a like and a private reply, and one declined by the keywords. */
const acted: CommentEventRecord = {
  id: '31',
  createdAt: '2026-11-23T10:15:02.000Z',
  commentId: '17858893269000001',
  postId: '17895695668004550',
  authorId: '17841400000000777',
  contactId: '7',
  outcome: 'acted',
  reason: null,
  actions: [
    { action: 'like', status: 'done', at: '2026-11-23T10:15:02.000Z' },
    { action: 'privateReply', status: 'done', at: '2026-11-23T10:15:32.000Z' },
  ],
};
const declined: CommentEventRecord = {
  id: '30',
  createdAt: '2026-11-23T10:12:40.000Z',
  commentId: '17858893269000000',
  postId: '17895695668004550',
  authorId: '17841400000000778',
  contactId: null,
  outcome: 'declined',
  reason: 'outsideSchedule',
  actions: [],
};

const description =
  "A page of the comments the automation saw, newest first: what it did (each action with its state) or why it declined; `pageCount` is ceil(total / perPage). Another workspace's or another channel's automation is 404.";

/** GET /v1/{photo,net}-comments/{id}/events (issue engine): what an automation did with each comment it saw. */
export const commentEventRoutes = (['photo', 'net'] as const).map((channel) =>
  defineRoute({
    method: 'GET',
    path: `/v1/${channel}-comments/{id}/events`,
    operationId: `${channel}Comments.listEvents`,
    summary: `What a ${channel === 'photo' ? 'photo-network' : 'social-network'} comment automation did with the comments it saw, or why it did not act`,
    tag: 'Comment automations',
    access: { action: 'read', scope: 'automations' },
    params: idParams,
    query: commentEventsQuery,
    response: { status: 200, description, schema: commentEventPageSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: channel === 'photo' ? '9' : '4' }, query: { page: '1', perPage: '20' }, response: { data: [acted, declined], pageCount: 1 } },
    handler: ({ db, who, params, query }) => listCommentEventsPage(db, who.workspaceId, channel, params.id, query),
  }),
);
