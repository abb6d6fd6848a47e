import { operation, operationsOf } from '../shared/operation.js';
import { idParams } from '../shared/schemas.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';
import { commentEventPageSchema, commentEventsQuery, type CommentEventRecord } from './comment-event.schema.js';
import { listCommentEventsPage } from './comment-event.service.js';

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

/** What an automation of either network did with each comment it saw: one declaration, by channel. */
const eventOperations = (channel: Channel) =>
  operationsOf('Comment automations', {
    list: operation({
      id: `${channel}Comments.listEvents`,
      summary: `List a ${channel} automation's comment events`,
      description: `What a ${channel === 'photo' ? 'photo-network' : 'social-network'} comment automation did with the comments it saw, or why it did not act.`,
      access: { action: 'read', scope: 'automations' },
      params: idParams,
      query: commentEventsQuery,
      output: commentEventPageSchema,
      outputDescription:
        "A page of the comments the automation saw, newest first: what it did (each action with its state) or why it declined; `pageCount` is ceil(total / perPage). Another workspace's or another channel's automation is 404.",
      examples: { params: { id: channel === 'photo' ? '9' : '4' }, query: { page: '1', perPage: '20' }, response: { data: [acted, declined], pageCount: 1 } },
      run: ({ db, who, params, query }) => listCommentEventsPage(db, who.workspaceId, channel, params.id, query),
    }),
  });

export const commentEventOperations = { photo: eventOperations('photo'), net: eventOperations('net') } as const;
