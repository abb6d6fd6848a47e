import { z } from 'zod';
import { listCommentAutomations, type StoredCommentAutomation } from '../../domain/automations/comment-automation.repository.js';
import {
  automationTypeSchema,
  channelSchema,
  createPhotoCommentInput,
  delayTypeSchema,
  includeKeywordsTypeSchema,
  postSelectorTypeSchema,
  replyTypeSchema,
  showCommentsAfterSchema,
  type CommentAutomation,
} from '../../domain/automations/comment-automation.schema.js';
import { createPhotoCommentAutomation, getCommentAutomation } from '../../domain/automations/comment-automation.service.js';
import { digitId } from '../../domain/shared/schemas.js';
import { parseOrThrow } from '../../errors/validation.js';
import { authorized } from '../authorize.js';
import { builder } from '../builder.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { contractEnum } from '../enums.js';

const AutomationTypeEnum = contractEnum('CommentAutomationType', automationTypeSchema.options);
const ChannelEnum = contractEnum('CommentChannel', channelSchema.options, 'photo: photo-sharing network comments; net: social-network post comments');
const PostSelectorTypeEnum = contractEnum('PostSelectorType', postSelectorTypeSchema.options);
const ReplyTypeEnum = contractEnum('ReplyType', replyTypeSchema.options);
const IncludeKeywordsTypeEnum = contractEnum('IncludeKeywordsType', includeKeywordsTypeSchema.options);
const ShowCommentsAfterEnum = contractEnum('ShowCommentsAfter', showCommentsAfterSchema.options, 'Values that start with a digit are prefixed with _ (e.g. _6h for 6h).');
const DelayTypeEnum = contractEnum('DelayType', delayTypeSchema.options);

type A = CommentAutomation;

const PostSelector = builder.objectRef<A['post']>('PostSelector').implement({
  fields: (t) => ({ type: t.expose('type', { type: PostSelectorTypeEnum }), value: t.exposeStringList('value') }),
});
const ReplyValue = builder.objectRef<{ value: string }>('ReplyValue').implement({ fields: (t) => ({ value: t.exposeString('value') }) });
const Reply = builder.objectRef<A['privateReply']>('Reply').implement({
  fields: (t) => ({
    type: t.expose('type', { type: ReplyTypeEnum }),
    value: t.exposeString('value', { nullable: true }),
    values: t.field({ type: [ReplyValue], nullable: true, resolve: (r) => r.values ?? null }),
  }),
});
const IncludeKeywords = builder.objectRef<A['includeKeywords']>('IncludeKeywords').implement({
  fields: (t) => ({ type: t.expose('type', { type: IncludeKeywordsTypeEnum }), value: t.exposeStringList('value') }),
});
const Options = builder.objectRef<A['options']>('CommentAutomationOptions').implement({
  fields: (t) => ({
    replyToNewContactsOnly: t.exposeBoolean('replyToNewContactsOnly'),
    replyOncePerUserPerPost: t.exposeBoolean('replyOncePerUserPerPost'),
    likeUserComment: t.exposeBoolean('likeUserComment'),
    replyToUsersWhoCommentedOnOtherPosts: t.exposeBoolean('replyToUsersWhoCommentedOnOtherPosts'),
    ignoreCommentReplies: t.exposeBoolean('ignoreCommentReplies'),
    trackUserTags: t.exposeBoolean('trackUserTags'),
  }),
});
const HideComments = builder.objectRef<A['hideComments']>('HideComments').implement({
  fields: (t) => ({
    all: t.exposeBoolean('all'),
    hasPhoneNumber: t.exposeBoolean('hasPhoneNumber'),
    hasImage: t.exposeBoolean('hasImage'),
    hasVideo: t.exposeBoolean('hasVideo'),
    hasLink: t.exposeBoolean('hasLink'),
    hasKeywords: t.exposeBoolean('hasKeywords'),
    keywords: t.exposeStringList('keywords'),
    showCommentsAfter: t.expose('showCommentsAfter', { type: ShowCommentsAfterEnum }),
  }),
});
const Delay = builder.objectRef<A['replyAfter']>('Delay').implement({
  fields: (t) => ({ type: t.expose('type', { type: DelayTypeEnum }), value: t.exposeFloat('value') }),
});

export const CommentAutomationType = builder.objectRef<StoredCommentAutomation>('CommentAutomation').implement({
  description: 'Replies to, or hides, comments on photo-network media (channel photo) or social-network posts (channel net).',
  fields: (t) => ({
    id: t.exposeID('id'),
    channel: t.expose('channel', { type: ChannelEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    folderId: t.exposeID('folderId', { nullable: true }),
    type: t.expose('type', { type: AutomationTypeEnum }),
    isActive: t.exposeBoolean('isActive'),
    startTime: t.exposeString('startTime', { nullable: true }),
    endTime: t.exposeString('endTime', { nullable: true }),
    repliesCount: t.exposeInt('repliesCount'),
    sentCount: t.exposeInt('sentCount'),
    deliveredCount: t.exposeInt('deliveredCount'),
    seenCount: t.exposeInt('seenCount'),
    clickedCount: t.exposeInt('clickedCount'),
    failedCount: t.exposeInt('failedCount'),
    missedCount: t.exposeInt('missedCount'),
    post: t.expose('post', { type: PostSelector }),
    privateReply: t.expose('privateReply', { type: Reply }),
    publicReply: t.expose('publicReply', { type: Reply }),
    includeKeywords: t.expose('includeKeywords', { type: IncludeKeywords }),
    excludeKeywords: t.exposeStringList('excludeKeywords'),
    options: t.expose('options', { type: Options }),
    hideComments: t.expose('hideComments', { type: HideComments }),
    replyAfter: t.expose('replyAfter', { type: Delay }),
  }),
});

const read = { action: 'read', scope: 'automations' } as const;

builder.queryField('commentAutomation', (t) =>
  t.field({
    type: CommentAutomationType,
    description: 'One comment automation; with `channel`, only of that channel (GET /v1/net-comments/{id} is channel net).',
    args: { id: t.arg.id({ required: true, validate: digitId }), channel: t.arg({ type: ChannelEnum }) },
    resolve: authorized(read, (_r, { id, channel }, { db, who }) => getCommentAutomation(db, who.workspaceId, channel ?? null, String(id))),
  }),
);

const listArgs = z.object({ first: z.number().int().min(1).max(100, 'first must be at most 100 (list-argument cap)').default(20), after: z.string().nullish() });

builder.queryField('commentAutomations', (t) =>
  t.connection({
    type: CommentAutomationType,
    description: 'Comment automations, newest first, optionally of one channel. `first` at most 100.',
    args: { channel: t.arg({ type: ChannelEnum }) },
    resolve: authorized(read, async (_r, args, { db, who }) => {
      const { first, after } = parseOrThrow(listArgs, { first: args.first ?? undefined, after: args.after });
      const rows = await listCommentAutomations(db, who.workspaceId, { channel: args.channel ?? undefined, limit: first + 1, beforeId: after ? decodeCursor('automation', after) : undefined });
      const edges = rows.slice(0, first).map((node) => ({ cursor: encodeCursor('automation', node.id), node }));
      return { edges, pageInfo: { hasNextPage: rows.length > first, hasPreviousPage: Boolean(after), startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null } };
    }),
  }),
);

const PostSelectorInput = builder.inputType('PostSelectorInput', {
  fields: (t) => ({ type: t.field({ type: PostSelectorTypeEnum, required: true }), value: t.stringList({ required: true }) }),
});
const ReplyValueInput = builder.inputType('ReplyValueInput', { fields: (t) => ({ value: t.string({ required: true }) }) });
const ReplyInput = builder.inputType('ReplyInput', {
  fields: (t) => ({ type: t.field({ type: ReplyTypeEnum, required: true }), value: t.string(), values: t.field({ type: [ReplyValueInput] }) }),
});
const IncludeKeywordsInput = builder.inputType('IncludeKeywordsInput', {
  fields: (t) => ({ type: t.field({ type: IncludeKeywordsTypeEnum, required: true }), value: t.stringList({ required: true }) }),
});
const OptionsInput = builder.inputType('CommentAutomationOptionsInput', {
  fields: (t) => ({
    replyToNewContactsOnly: t.boolean({ required: true }),
    replyOncePerUserPerPost: t.boolean({ required: true }),
    likeUserComment: t.boolean({ required: true }),
    replyToUsersWhoCommentedOnOtherPosts: t.boolean({ required: true }),
    ignoreCommentReplies: t.boolean({ required: true }),
    trackUserTags: t.boolean({ required: true }),
  }),
});
const HideCommentsInput = builder.inputType('HideCommentsInput', {
  fields: (t) => ({
    all: t.boolean({ required: true }),
    hasPhoneNumber: t.boolean({ required: true }),
    hasImage: t.boolean({ required: true }),
    hasVideo: t.boolean({ required: true }),
    hasLink: t.boolean({ required: true }),
    hasKeywords: t.boolean({ required: true }),
    keywords: t.stringList({ required: true }),
    showCommentsAfter: t.field({ type: ShowCommentsAfterEnum, required: true }),
  }),
});
const DelayInput = builder.inputType('DelayInput', {
  fields: (t) => ({ type: t.field({ type: DelayTypeEnum, required: true }), value: t.float({ required: true }) }),
});
const PhotoTypeEnum = contractEnum('PhotoConnectionType', ['photo', 'photoNet'] as const, 'photo: native login; photoNet: linked via a page of the social network');
const CreatePhotoCommentInputType = builder.inputType('CreatePhotoCommentAutomationInput', {
  description: 'The body of POST /v1/photo-comments.',
  fields: (t) => ({
    name: t.string({ required: true }),
    type: t.field({ type: PhotoTypeEnum, required: true }),
    folderId: t.id(),
    post: t.field({ type: PostSelectorInput, required: true }),
    privateReply: t.field({ type: ReplyInput, required: true }),
    publicReply: t.field({ type: ReplyInput, required: true }),
    includeKeywords: t.field({ type: IncludeKeywordsInput, required: true }),
    excludeKeywords: t.stringList({ required: true }),
    options: t.field({ type: OptionsInput, required: true }),
    hideComments: t.field({ type: HideCommentsInput, required: true }),
    replyAfter: t.field({ type: DelayInput, required: true }),
    startTime: t.string({ description: 'HH:mm' }),
    endTime: t.string({ description: 'HH:mm' }),
  }),
});

/**
 * GraphQL input differs from JSON only in how absent values look: a nullable field left out of a
 * reply (`value`) is null in the contract, and absent optional fields are dropped.
 */
const fromGraphQL = (input: Record<string, any>) => {
  const reply = (r: Record<string, any>) => ({ type: r.type, value: r.value ?? null, ...(r.values != null ? { values: r.values } : {}) });
  const out: Record<string, unknown> = { ...input, privateReply: reply(input.privateReply), publicReply: reply(input.publicReply) };
  for (const k of ['folderId', 'startTime', 'endTime']) if (out[k] === undefined) delete out[k];
  return out;
};

builder.mutationField('createPhotoCommentAutomation', (t) =>
  t.field({
    type: CommentAutomationType,
    description: 'Like POST /v1/photo-comments: trial and MAC gates apply.',
    args: { input: t.arg({ type: CreatePhotoCommentInputType, required: true }) },
    resolve: authorized({ action: 'write', scope: 'automations' }, (_r, { input }, { db, who }) =>
      createPhotoCommentAutomation(db, who.workspaceId, parseOrThrow(createPhotoCommentInput, fromGraphQL(input as Record<string, any>), ['input'])),
    ),
  }),
);
