import { z } from 'zod';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * The media (photo network) and posts (social network) of the workspace's connected accounts, as
 * `photoComments.listMedia` and `netComments.listPosts` list them: the ids an automation's
 * `post.value` names when its type is `postIds`. One shape for both channels (`caption` is a
 * medium's caption or a post's message).
 */
export const postKindSchema = z.enum(['published', 'ads', 'reels']).meta({ id: 'ChannelPostKind' });
export type PostKind = z.infer<typeof postKindSchema>;

export const channelPostSchema = z
  .object({
    id: z.string().meta({ description: "The network's own id (a net post's is `pageId_postId`)" }),
    caption: z.string().nullable().meta({ description: "The medium's caption or the post's message; null when it has none" }),
    mediaType: z.string().meta({ description: "The network's media type (IMAGE, VIDEO, CAROUSEL_ALBUM; status, photo, video, link)" }),
    kind: postKindSchema,
    permalink: z.string().nullable(),
    thumbnailUrl: z.string().nullable(),
    timestamp: isoDateTime.meta({ description: 'When it was posted' }),
    inboxId: digitId.meta({ description: 'The inbox (connected account) it belongs to' }),
  })
  .meta({ id: 'ChannelPost' });
export type ChannelPost = z.infer<typeof channelPostSchema>;

export const channelPostPageSchema = z.object({ data: z.array(channelPostSchema), pageCount: z.number().int() }).meta({ id: 'ChannelPostPage' });

export const channelPostsQuery = z.strictObject({
  ...pageQueryFields,
  inboxId: digitId.optional().meta({ description: "Only this inbox's (another workspace's inbox lists nothing)" }),
  kind: postKindSchema.optional().meta({ description: 'Only published posts, ads or reels' }),
});
export type ChannelPostsFilter = { inboxId?: string; kind?: PostKind };
