import {
  commentActionNameSchema,
  commentActionStatusSchema,
  commentEventOutcomeSchema,
  type CommentAction,
  type CommentEventRecord,
} from '../../domain/comment-events/comment-event.schema.js';
import { commentEventOperations } from '../../domain/comment-events/comment-event.operations.js';
import { listCommentEventsPage } from '../../domain/comment-events/comment-event.service.js';
import { channelSchema } from '../../domain/comment-automations/comment-automation.schema.js';
import { builder } from '../builder.js';
import { contractEnum } from '../enums.js';
import { recordIdArg } from '../node.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { ChannelEnum } from './comment-automation.type.js';

const CommentActionNameEnum = contractEnum('CommentActionName', commentActionNameSchema.options);
const CommentActionStatusEnum = contractEnum('CommentActionStatus', commentActionStatusSchema.options, 'scheduled: waiting or running; done; skipped (see error); failed (see error)');
const CommentEventOutcomeEnum = contractEnum('CommentEventOutcome', commentEventOutcomeSchema.options, 'pending: actions waiting; acted; declined (see reason); failed (see reason)');

const CommentActionType = builder.objectRef<CommentAction>('CommentAction').implement({
  description: 'One action of a matched comment and its state.',
  fields: (t) => ({
    action: t.expose('action', { type: CommentActionNameEnum }),
    status: t.expose('status', { type: CommentActionStatusEnum }),
    at: t.expose('at', { type: 'DateTime', description: 'When it is due (scheduled) or when it ended' }),
    error: t.string({ nullable: true, description: "Why it was skipped, or the network's message when it failed", resolve: (a) => a.error ?? null }),
  }),
});

const CommentEventType = builder.objectRef<CommentEventRecord>('CommentEvent').implement({
  description: 'What a comment automation did with one comment it saw, or why it did not act, as GET /v1/{photo,net}-comments/{id}/events lists it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    commentId: t.exposeString('commentId'),
    postId: t.exposeString('postId', { nullable: true }),
    authorId: t.exposeString('authorId'),
    contactId: t.exposeID('contactId', { nullable: true }),
    outcome: t.expose('outcome', { type: CommentEventOutcomeEnum }),
    reason: t.exposeString('reason', { nullable: true }),
    actions: t.field({ type: [CommentActionType], resolve: (e) => e.actions }),
  }),
});

builder.queryField('commentAutomationEvents', (t) =>
  t.field({
    type: pageOf('CommentEventPage', CommentEventType),
    description:
      "Like GET /v1/photo-comments/{id}/events and /v1/net-comments/{id}/events: the comments an automation saw, newest first, with what it did or why not. With `channel`, another channel's automation is not found.",
    // The REST lists of both channels in one field: their rule; without a channel, any channel's automation.
    access: commentEventOperations.photo.list.access,
    args: {
      id: t.arg.id({ required: true, description: "The automation's global id, or its plain digit id (rawId)" }),
      channel: t.arg({ type: ChannelEnum }),
      ...pageArgs(t.arg),
    },
    validate: pageArgsSchema.extend({ id: recordIdArg('CommentAutomation'), channel: channelSchema.nullish() }),
    complexity: pageComplexity,
    resolve: (_r, args, { db, who }) => listCommentEventsPage(db, who.workspaceId, args.channel ?? null, args.id, { page: args.page, perPage: args.perPage }),
  }),
);
