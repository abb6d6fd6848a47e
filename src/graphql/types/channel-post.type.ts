import { channelSchema, type Channel } from '../../domain/comment-automations/comment-automation.schema.js';
import { channelPostOperations as posts } from '../../domain/channel-posts/channel-post.operations.js';
import { postKindSchema, type ChannelPost } from '../../domain/channel-posts/channel-post.schema.js';
import { digitId } from '../../domain/shared/schemas.js';
import { builder } from '../builder.js';
import { contractEnum } from '../enums.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { ChannelEnum, CommentAutomationType } from './comment-automation.type.js';
import { InboxType } from './inbox.type.js';

const KindEnum = contractEnum('ChannelPostKind', postKindSchema.options);

type Post = ChannelPost & { channel: Channel };

/**
 * A medium (photo) or post (net) of a connected account. Not a Node: its id is the network's own,
 * the id automations name in `post.value`.
 */
export const ChannelPostType = builder.objectRef<Post>('ChannelPost').implement({
  description: 'A medium of a photo-network account or a post of a social-network page, as GET /v1/photo-comments/photo-media and /v1/net-comments/net-posts list them.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The network's own id (a net post's is pageId_postId): what post.value names" }),
    channel: t.expose('channel', { type: ChannelEnum }),
    caption: t.exposeString('caption', { nullable: true, description: "The medium's caption or the post's message" }),
    mediaType: t.exposeString('mediaType'),
    kind: t.expose('kind', { type: KindEnum }),
    permalink: t.exposeString('permalink', { nullable: true }),
    thumbnailUrl: t.exposeString('thumbnailUrl', { nullable: true }),
    timestamp: t.expose('timestamp', { type: 'DateTime', description: 'When it was posted' }),
    inboxId: t.exposeID('inboxId'),
    inbox: t.field({ type: InboxType, nullable: true, resolve: (p, _a, { loaders }) => loaders.channelPostInbox.load(Number(p.inboxId)) }),
    automations: t.field({
      type: [CommentAutomationType],
      description: "The channel's automations whose post selector takes this post (all posts, its kind, or its id among postIds), newest first",
      resolve: (p, _a, { loaders }) => loaders.channelPostAutomations.load(p),
    }),
  }),
});

builder.queryField('channelPosts', (t) =>
  t.field({
    type: pageOf('ChannelPostPage', ChannelPostType),
    description: 'Like GET /v1/photo-comments/photo-media (channel photo) and GET /v1/net-comments/net-posts (channel net): newest first.',
    // Both channels' lists in one field: their rule (the channel is an argument).
    access: posts.listMedia.access,
    args: {
      channel: t.arg({ type: ChannelEnum, required: true }),
      inboxId: t.arg.id({ description: "Only this inbox's posts (digits)" }),
      kind: t.arg({ type: KindEnum }),
      ...pageArgs(t.arg),
    },
    validate: pageArgsSchema.extend({ channel: channelSchema, inboxId: digitId.nullish(), kind: posts.listMedia.query.shape.kind.nullish() }),
    complexity: pageComplexity,
    resolve: async (_r, { channel, inboxId, kind, page, perPage }, ctx) => {
      const query = { page, perPage, inboxId: inboxId ?? undefined, kind: kind ?? undefined };
      const found = await runOperation(channel === 'photo' ? posts.listMedia : posts.listPosts, ctx, { query });
      return { ...found, data: found.data.map((p) => ({ ...p, channel })) };
    },
  }),
);

