import { z } from 'zod';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, int32, isoDateTime } from '../shared/schemas.js';

/**
 * The contract's comment automation and its nested objects. The nested schemas are strict: they
 * validate input (unknown keys are 422) and shape output alike.
 */
const keyword = z.string().max(500);
const keywordList = z.array(keyword).max(200);

export const automationTypeSchema = z.enum(['chat', 'photo', 'photoNet', 'microblog']).meta({ id: 'CommentAutomationType' });
export const postSelectorTypeSchema = z.enum(['published', 'ads', 'reels', 'postIds', 'all']).meta({ id: 'PostSelectorType' });
export const replyTypeSchema = z.enum(['AIAgent', 'text', 'flow', 'none']).meta({ id: 'ReplyType' });
export const includeKeywordsTypeSchema = z.enum(['all', 'equal', 'contain']).meta({ id: 'IncludeKeywordsType' });
export const showCommentsAfterSchema = z
  .enum(['none', '6h', '12h', '1d', '2d', '3d', '4d', '5d', '6d', '7d', '8d', '9d', '10d'])
  .meta({ id: 'ShowCommentsAfter' });
export const delayTypeSchema = z
  .enum([
    'immediately',
    'seconds',
    'minutes',
    'hours',
    'randomWithin3Minutes',
    'randomWithin5Minutes',
    'randomWithin10Minutes',
    'randomWithin20Minutes',
    'randomWithin30Minutes',
    'randomWithin60Minutes',
  ])
  .meta({ id: 'DelayType' });

export const postSelectorSchema = z.strictObject({ type: postSelectorTypeSchema, value: z.array(z.string().max(200)).max(500) }).meta({ id: 'PostSelector' });

export const replySchema = z
  .strictObject({
    type: replyTypeSchema,
    value: z.string().max(5000).nullable(),
    values: z.array(z.strictObject({ value: z.string().max(5000) })).max(10, 'at most 10 values').optional(),
  })
  .meta({ id: 'Reply' });

export const includeKeywordsSchema = z.strictObject({ type: includeKeywordsTypeSchema, value: keywordList }).meta({ id: 'IncludeKeywords' });

export const optionsSchema = z
  .strictObject({
    replyToNewContactsOnly: z.boolean(),
    replyOncePerUserPerPost: z.boolean(),
    likeUserComment: z.boolean(),
    replyToUsersWhoCommentedOnOtherPosts: z.boolean(),
    ignoreCommentReplies: z.boolean(),
    trackUserTags: z.boolean(),
  })
  .meta({ id: 'CommentAutomationOptions' });

export const hideCommentsSchema = z
  .strictObject({
    all: z.boolean(),
    hasPhoneNumber: z.boolean(),
    hasImage: z.boolean(),
    hasVideo: z.boolean(),
    hasLink: z.boolean(),
    hasKeywords: z.boolean(),
    keywords: keywordList,
    showCommentsAfter: showCommentsAfterSchema,
  })
  .meta({ id: 'HideComments' });

/** The longest replyAfter: a reply waiting longer answers a conversation nobody remembers (and 3e9 hours is no date at all). */
export const MAX_REPLY_DELAY_DAYS = 30;
const delayUnitMs: Partial<Record<string, number>> = { seconds: 1_000, minutes: 60_000, hours: 3_600_000 };

export const delaySchema = z
  .strictObject({ type: delayTypeSchema, value: z.number().finite().min(0, 'value must not be negative') })
  .refine((d) => d.value * (delayUnitMs[d.type] ?? 0) <= MAX_REPLY_DELAY_DAYS * 86_400_000, {
    message: `replyAfter may wait at most ${MAX_REPLY_DELAY_DAYS} days`,
    path: ['value'],
  })
  .meta({ id: 'Delay' });

/** `HH:mm`, 00:00 to 23:59. */
export const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:mm');

/** What an automation does: the same nested objects on input and output. */
const behaviourShape = {
  post: postSelectorSchema,
  privateReply: replySchema,
  publicReply: replySchema,
  includeKeywords: includeKeywordsSchema,
  excludeKeywords: keywordList,
  options: optionsSchema,
  hideComments: hideCommentsSchema,
  replyAfter: delaySchema,
};

export const commentAutomationSchema = z
  .object({
    id: digitId,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    name: z.string(),
    folderId: digitId.nullable(),
    type: automationTypeSchema,
    isActive: z.boolean(),
    startTime: timeOfDay.nullable(),
    endTime: timeOfDay.nullable(),
    repliesCount: int32,
    sentCount: int32,
    deliveredCount: int32,
    seenCount: int32,
    clickedCount: int32,
    failedCount: int32,
    missedCount: int32,
    ...behaviourShape,
  })
  .meta({ id: 'CommentAutomation' });
export type CommentAutomation = z.infer<typeof commentAutomationSchema>;

/** The fields of a create body; `type` is the channel's own enumeration. */
const createFields = <T extends z.ZodType>(type: T) => ({
  name: z.string().min(1, 'name must not be empty').max(255, 'name must be at most 255 characters'),
  type,
  folderId: digitId.nullable().optional(),
  ...behaviourShape,
  startTime: timeOfDay.nullable().optional(),
  endTime: timeOfDay.nullable().optional(),
});

/** Photo network: `photo` (native login) or `photoNet` (linked via a page of the social network). */
export const photoTypeSchema = z.enum(['photo', 'photoNet']);
/** Social network: only `chat`, its messaging product, sends the private reply to a post comment. */
export const netTypeSchema = z.enum(['chat']);

export const createPhotoCommentInput = z.strictObject(createFields(photoTypeSchema)).meta({ id: 'CreatePhotoCommentInput' });
export type CreatePhotoCommentInput = z.infer<typeof createPhotoCommentInput>;

export const createNetCommentInput = z
  .strictObject(createFields(netTypeSchema.default('chat').meta({ description: 'Only chat (the default): the private reply goes through the chat product' })))
  .meta({ id: 'CreateNetCommentInput' });
export type CreateNetCommentInput = z.infer<typeof createNetCommentInput>;

/** A create body of either channel, as validated. */
export type CreateCommentInput = CreatePhotoCommentInput | CreateNetCommentInput;

const notEmpty = [(o: object) => Object.keys(o).length > 0, { message: 'Provide at least one field to change' }] as const;
const patchDescription = 'Any subset of the create fields, plus isActive; nested objects are replaced whole; fields left out keep their value.';

/**
 * PATCH bodies: the channel's create schema with every field optional (`type` without the net
 * default, so leaving it out keeps the stored one), plus `isActive`. Counters, id and timestamps
 * are unknown keys (422). At least one field.
 */
export const updatePhotoCommentInput = createPhotoCommentInput
  .partial()
  .extend({ isActive: z.boolean().optional() })
  .refine(...notEmpty)
  .meta({ id: 'UpdatePhotoCommentInput', description: patchDescription, minProperties: 1 });
export type UpdatePhotoCommentInput = z.infer<typeof updatePhotoCommentInput>;

export const updateNetCommentInput = createNetCommentInput
  .extend({ type: netTypeSchema })
  .partial()
  .extend({ isActive: z.boolean().optional() })
  .refine(...notEmpty)
  .meta({ id: 'UpdateNetCommentInput', description: patchDescription, minProperties: 1 });
export type UpdateNetCommentInput = z.infer<typeof updateNetCommentInput>;

export type UpdateCommentInput = UpdatePhotoCommentInput | UpdateNetCommentInput;

export const channelSchema = z.enum(['photo', 'net']).meta({ id: 'CommentChannel' });
export type Channel = z.infer<typeof channelSchema>;

/** The create and update schemas of each channel. */
export const channelInputs = {
  photo: { create: createPhotoCommentInput, update: updatePhotoCommentInput },
  net: { create: createNetCommentInput, update: updateNetCommentInput },
} as const;

export const commentAutomationPageSchema = z
  .object({ data: z.array(commentAutomationSchema), pageCount: z.number().int() })
  .meta({ id: 'CommentAutomationPage' });

export const commentAutomationsQuery = z.strictObject({
  ...pageQueryFields,
  name: z.string().max(255).optional().meta({ description: 'Case-insensitive substring of the automation name (empty: no filter)' }),
  isActive: z
    .enum(['true', 'false'], { error: 'isActive must be true or false' })
    .transform((v) => v === 'true')
    .optional()
    .meta({ description: 'true: only active automations; false: only inactive ones' }),
  folderId: digitId.optional().meta({ description: 'Only the automations of this folder' }),
});
export type CommentAutomationsFilter = { name?: string; isActive?: boolean; folderId?: string };
