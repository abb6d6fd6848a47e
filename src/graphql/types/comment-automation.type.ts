import { z } from 'zod';
import {
  commentOperationsOf,
  netCommentOperations as net,
  photoCommentOperations as photo,
} from '../../domain/comment-automations/comment-automation.operations.js';
import type { StoredCommentAutomation } from '../../domain/comment-automations/comment-automation.repository.js';
import {
  automationTypeSchema,
  channelSchema,
  commentAutomationsQuery,
  delayTypeSchema,
  includeKeywordsTypeSchema,
  netTypeSchema,
  postSelectorTypeSchema,
  replySchema,
  replyTypeSchema,
  showCommentsAfterSchema,
  type CommentAutomation,
  type UpdateCommentInput,
} from '../../domain/comment-automations/comment-automation.schema.js';
import { getCommentAutomation, listCommentAutomationsKeyset } from '../../domain/comment-automations/comment-automation.service.js';
import { digitId } from '../../domain/shared/schemas.js';
import type { ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { connectionArgs, connectionComplexity, DEFAULT_FIRST, keysetConnection, MAX_FIRST } from '../connection.js';
import { byId } from '../cursor.js';
import { contractEnum } from '../enums.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { zodInputType } from '../zod-input.js';

const AutomationTypeEnum = contractEnum('CommentAutomationType', automationTypeSchema.options);
export const ChannelEnum = contractEnum('CommentChannel', channelSchema.options, 'photo: photo-sharing network comments; net: social-network post comments');
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
export const ReplyType = builder.objectRef<A['privateReply']>('Reply').implement({
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

export const CommentAutomationType = builder.node(builder.objectRef<StoredCommentAutomation>('CommentAutomation'), {
  ...nodeOptions('CommentAutomation', photo.get.access, ({ loaders }) => loaders.commentAutomation),
  description: 'Replies to, or hides, comments on photo-network media (channel photo) or social-network posts (channel net).',
  fields: (t) => ({
    rawId: rawIdField(t),
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
    privateReply: t.expose('privateReply', { type: ReplyType }),
    publicReply: t.expose('publicReply', { type: ReplyType }),
    includeKeywords: t.expose('includeKeywords', { type: IncludeKeywords }),
    excludeKeywords: t.exposeStringList('excludeKeywords'),
    options: t.expose('options', { type: Options }),
    hideComments: t.expose('hideComments', { type: HideComments }),
    replyAfter: t.expose('replyAfter', { type: Delay }),
  }),
});

const automationCursor = byId('automation');

builder.queryField('commentAutomation', (t) =>
  t.field({
    type: CommentAutomationType,
    description: 'One comment automation; with `channel`, only of that channel (GET /v1/net-comments/{id} is channel net).',
    // Either channel's automation, with their rule; `channel` narrows it to one.
    access: photo.get.access,
    args: {
      id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('CommentAutomation')),
      channel: t.arg({ type: ChannelEnum }),
    },
    resolve: (_r, { id, channel }, { db, who }) => getCommentAutomation(db, who.workspaceId, channel ?? null, id),
  }),
);

builder.queryField('commentAutomations', (t) =>
  t.connection(
    {
      type: CommentAutomationType,
      description: `Comment automations, newest first, optionally of one channel, filtered as GET /v1/photo-comments and /v1/net-comments. \`first\` defaults to ${DEFAULT_FIRST}, at most ${MAX_FIRST}.`,
      access: photo.list.access,
      args: {
        channel: t.arg({ type: ChannelEnum }),
        name: t.arg.string({ description: 'Case-insensitive substring of the name (empty: no filter)' }),
        isActive: t.arg.boolean({ description: 'Only active (true) or only inactive (false) automations' }),
        folderId: t.arg.id({ description: 'Only the automations of this folder (digits)' }),
      },
      validate: connectionArgs.extend({
        channel: channelSchema.nullish(),
        name: commentAutomationsQuery.shape.name.nullish(),
        isActive: z.boolean().nullish(),
        folderId: digitId.nullish(),
      }),
      complexity: connectionComplexity,
      resolve: (_r, args, { db, who }) =>
        keysetConnection(automationCursor, args, ({ limit, after }) =>
          listCommentAutomationsKeyset(db, who.workspaceId, {
            limit,
            beforeId: after,
            channel: args.channel ?? undefined,
            name: args.name ?? undefined,
            isActive: args.isActive ?? undefined,
            folderId: args.folderId ?? undefined,
          }),
        ),
    },
    { name: 'CommentAutomationConnection' },
    { name: 'CommentAutomationEdge' },
  ),
);

const PhotoTypeEnum = contractEnum('PhotoConnectionType', ['photo', 'photoNet'] as const, 'photo: native login; photoNet: linked via a page of the social network');
const NetTypeEnum = contractEnum('NetConnectionType', netTypeSchema.options, 'chat: the private reply goes through the chat product');

/** The create bodies' nested objects and enumerations, as GraphQL names them. */
const nestedTypes = {
  schemaTypes: new Map<z.ZodType, object>([
    [postSelectorTypeSchema, PostSelectorTypeEnum],
    [replyTypeSchema, ReplyTypeEnum],
    [includeKeywordsTypeSchema, IncludeKeywordsTypeEnum],
    [showCommentsAfterSchema, ShowCommentsAfterEnum],
    [delayTypeSchema, DelayTypeEnum],
  ]),
  schemaNames: new Map<z.ZodType, string>([[replySchema.shape.values.unwrap().element, 'ReplyValueInput']]),
};
const times = { startTime: 'HH:mm', endTime: 'HH:mm' };
export const ReplyInput = zodInputType('ReplyInput', replySchema, nestedTypes);
const CreatePhotoCommentInputType = zodInputType('CreatePhotoCommentAutomationInput', photo.create.body, {
  ...nestedTypes,
  description: 'The body of POST /v1/photo-comments.',
  types: { type: PhotoTypeEnum, folderId: 'ID' },
  descriptions: times,
});
const CreateNetCommentInputType = zodInputType('CreateNetCommentAutomationInput', net.create.body, {
  ...nestedTypes,
  description: 'The body of POST /v1/net-comments: the photo input, with type chat (the default).',
  types: { type: NetTypeEnum, folderId: 'ID' },
  descriptions: { ...times, type: 'chat (the default)' },
});
// One input for both channels: their PATCH bodies differ only in which `type` values they accept.
const UpdateCommentInputType = zodInputType('UpdateCommentAutomationInput', photo.update.body, {
  ...nestedTypes,
  description:
    "The body of PATCH /v1/photo-comments/{id} and /v1/net-comments/{id}: any of the create fields and isActive (at least one); nested objects are replaced whole, and the changed automation must pass its channel's create rules (type: photo or photoNet on photo, chat on net). null clears folderId, startTime and endTime.",
  types: { type: AutomationTypeEnum, folderId: 'ID' },
  descriptions: times,
});

/**
 * GraphQL input differs from JSON only in how absent values look: a reply's `value` left out is
 * null in the contract, `values: null` means no values, and fields left out are dropped (explicit
 * nulls stay, for the schema to judge: they clear folderId and the times). The result is then
 * checked by the very schema the REST route uses.
 */
const fromGraphQL = (input: unknown) => {
  if (!input || typeof input !== 'object') return input;
  const reply = (r: unknown) => {
    if (!r || typeof r !== 'object') return r;
    const { value, values, ...rest } = r as Record<string, unknown>;
    return { ...rest, value: value ?? null, ...(values != null ? { values } : {}) };
  };
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  for (const k of ['privateReply', 'publicReply']) if (k in out) out[k] = reply(out[k]);
  return out;
};

const automationIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' });
const channelArg = (arg: ArgBuilder) => arg({ type: ChannelEnum, required: true, description: 'The channel it belongs to: another channel\'s automation is not found' });

const createField = (name: string, op: typeof photo.create | typeof net.create, type: typeof CreatePhotoCommentInputType, description: string) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: CommentAutomationType,
      description,
      access: op.access,
      args: { input: t.arg({ type, required: true }).validate(z.preprocess(fromGraphQL, op.body)) },
      resolve: (_r, { input }, ctx) => runOperation(op, ctx, { body: input }),
    }),
  );
createField('createPhotoCommentAutomation', photo.create, CreatePhotoCommentInputType, 'Like POST /v1/photo-comments: a full token with the automations scope; the trial and MAC gates apply.');
createField(
  'createNetCommentAutomation',
  net.create,
  CreateNetCommentInputType,
  'Like POST /v1/net-comments: type chat (the default); postIds must be posts of the workspace (pageId_postId or the bare post id).',
);

/** The update input is checked by its channel's PATCH schema. */
const updateArgs = (channel: 'photo' | 'net') =>
  z.object({ id: recordIdArg('CommentAutomation'), channel: z.literal(channel), input: z.preprocess(fromGraphQL, commentOperationsOf[channel].update.body) });

// One field for both channels, whose operations share their access rules (channel is an argument).
builder.mutationField('updateCommentAutomation', (t) =>
  t.field({
    type: CommentAutomationType,
    description: 'Like PATCH /v1/photo-comments/{id} and /v1/net-comments/{id}: any subset of the create fields and isActive; nested objects replaced whole.',
    access: photo.update.access,
    args: { id: automationIdArg(t.arg), channel: channelArg(t.arg), input: t.arg({ type: UpdateCommentInputType, required: true }) },
    validate: z.discriminatedUnion('channel', [updateArgs('photo'), updateArgs('net')]),
    // `validate` has parsed input with the channel's schema (Pothos types args from the GraphQL input).
    resolve: (_r, { id, channel, input }, ctx) => runOperation(commentOperationsOf[channel].update, ctx, { params: { id }, body: input as UpdateCommentInput }),
  }),
);

builder.mutationField('deleteCommentAutomation', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/photo-comments/{id} and /v1/net-comments/{id}: permanent.',
    access: photo.delete.access,
    args: { id: automationIdArg(t.arg).validate(recordIdArg('CommentAutomation')), channel: channelArg(t.arg) },
    resolve: (_r, { id, channel }, ctx) => runOperation(commentOperationsOf[channel].delete, ctx, { params: { id } }),
  }),
);
