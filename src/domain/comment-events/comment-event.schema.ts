import { z } from 'zod';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * What a comment automation did with each comment it saw (docs/engine.md, "Comment automations at work"): one
 * record per automation and comment, newest first in GET /v1/{photo,net}-comments/{id}/events and
 * GraphQL `commentAutomationEvents`. A declined comment says why (`reason`); a matched one lists its
 * actions, each with its state as the engine's jobs move it on.
 */
export const commentActionNameSchema = z.enum(['like', 'hide', 'unhide', 'privateReply', 'publicReply']).meta({ id: 'CommentActionName' });
export type CommentActionName = z.infer<typeof commentActionNameSchema>;

export const commentActionStatusSchema = z
  .enum(['scheduled', 'done', 'skipped', 'failed'])
  .meta({ id: 'CommentActionStatus', description: 'scheduled: waiting for its time or running; done; skipped (a rule said no, see error); failed (the network refused, see error)' });
export type CommentActionStatus = z.infer<typeof commentActionStatusSchema>;

export const commentEventOutcomeSchema = z
  .enum(['pending', 'acted', 'declined', 'failed'])
  .meta({ id: 'CommentEventOutcome', description: 'pending: matched, actions waiting; acted: at least one action done; declined: not acted on (see reason); failed: every action failed or was skipped after a failure' });
export type CommentEventOutcome = z.infer<typeof commentEventOutcomeSchema>;

export const commentActionSchema = z
  .object({
    action: commentActionNameSchema,
    status: commentActionStatusSchema,
    at: isoDateTime.meta({ description: 'When it is due (scheduled) or when it ended' }),
    error: z.string().optional().meta({ description: "Why it was skipped, or the network's message when it failed" }),
  })
  .meta({ id: 'CommentAction' });
export type CommentAction = z.infer<typeof commentActionSchema>;

export const commentEventSchema = z
  .object({
    id: digitId,
    createdAt: isoDateTime,
    commentId: z.string().meta({ description: "The network's comment id" }),
    postId: z.string().nullable().meta({ description: "The network's id of the comment's post or medium, when the event named it" }),
    authorId: z.string().meta({ description: "The network's id of the comment's author" }),
    contactId: digitId.nullable().meta({ description: 'The contact the author became or matched; null when declined before a contact was needed' }),
    outcome: commentEventOutcomeSchema,
    reason: z.string().nullable().meta({ description: 'Why it was declined or failed (outsideSchedule, commentReply, excludedKeyword, blockedContact, macLimitReached, alreadyRepliedOnPost, answeredOnOtherPost, notNewContact, ...)' }),
    actions: z.array(commentActionSchema).meta({ description: 'What was done or scheduled, in order' }),
  })
  .meta({ id: 'CommentEvent' });
export type CommentEventRecord = z.infer<typeof commentEventSchema>;

export const commentEventPageSchema = z.object({ data: z.array(commentEventSchema), pageCount: z.number().int() }).meta({ id: 'CommentEventPage' });

export const commentEventsQuery = z.strictObject({ ...pageQueryFields });
