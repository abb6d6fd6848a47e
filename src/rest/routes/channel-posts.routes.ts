import { channelPostPageSchema, channelPostsQuery } from '../../domain/channel-posts/channel-post.schema.js';
import { listChannelPostsPage } from '../../domain/channel-posts/channel-post.service.js';
import { defineRoute } from '../route.js';

/** Two of the demo workspace's photo media and one of its page posts. */
const photoMedia = [
  {
    id: '178920001',
    caption: 'How we pack your orders',
    mediaType: 'VIDEO',
    kind: 'reels' as const,
    permalink: 'https://photo.example.com/p/178920001/',
    thumbnailUrl: 'https://cdn.example.com/media/178920001.jpg',
    timestamp: '2026-11-03T09:00:00.000Z',
    inboxId: '1',
  },
  {
    id: '178900002',
    caption: 'Behind the scenes at the studio',
    mediaType: 'VIDEO',
    kind: 'reels' as const,
    permalink: 'https://photo.example.com/p/178900002/',
    thumbnailUrl: 'https://cdn.example.com/media/178900002.jpg',
    timestamp: '2026-10-30T09:00:00.000Z',
    inboxId: '1',
  },
];
const netPost = {
  id: '102030405060708_9003',
  caption: 'Sponsored: free shipping over $50',
  mediaType: 'photo',
  kind: 'ads' as const,
  permalink: 'https://net.example.com/102030405060708/posts/9003',
  thumbnailUrl: 'https://cdn.example.com/posts/102030405060708_9003.jpg',
  timestamp: '2026-11-01T09:00:00.000Z',
  inboxId: '2',
};

const tag = 'Comment automations';
const read = { action: 'read', scope: 'automations' } as const;
const description = 'A page of posts, newest first (timestamp, ties by the newest row); `id` is the network\'s own id, what `post.value` names';

/** The media and posts of the connected accounts (GET /v1/photo-comments/photo-media, /v1/net-comments/net-posts). */
export const channelPostRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/photo-comments/photo-media',
    operationId: 'photoComments.listMedia',
    summary: 'The media of the connected photo-network accounts: the ids a photo automation watches',
    tag,
    access: read,
    query: channelPostsQuery,
    response: { status: 200, description, schema: channelPostPageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: { query: { page: '1', perPage: '2', inboxId: '1', kind: 'reels' }, response: { data: photoMedia, pageCount: 1 } },
    handler: ({ db, who, query }) => listChannelPostsPage(db, who.workspaceId, 'photo', query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/net-comments/net-posts',
    operationId: 'netComments.listPosts',
    summary: 'The posts of the connected social-network pages: the ids a net automation watches',
    tag,
    access: read,
    query: channelPostsQuery,
    response: { status: 200, description, schema: channelPostPageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: { query: { page: '1', perPage: '20', inboxId: '2', kind: 'ads' }, response: { data: [netPost], pageCount: 1 } },
    handler: ({ db, who, query }) => listChannelPostsPage(db, who.workspaceId, 'net', query),
  }),
];
