import { operation, operationsOf } from '../shared/operation.js';
import { channelPostPageSchema, channelPostsQuery } from './channel-post.schema.js';
import { listChannelPostsPage } from './channel-post.service.js';

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

const read = { action: 'read', scope: 'automations' } as const;
const outputDescription = "A page of posts, newest first (timestamp, ties by the newest row); `id` is the network's own id, what `post.value` names";

/** The media and posts of the connected accounts: what a comment automation's `post` selects. */
export const channelPostOperations = operationsOf('Comment automations', {
  listMedia: operation({
    id: 'photoComments.listMedia',
    summary: 'List photo-network media',
    description: 'The media of the connected photo-network accounts: the ids a photo automation watches.',
    access: read,
    query: channelPostsQuery,
    output: channelPostPageSchema,
    outputDescription,
    examples: { query: { page: '1', perPage: '2', inboxId: '1', kind: 'reels' }, response: { data: photoMedia, pageCount: 1 } },
    run: ({ db, who, query }) => listChannelPostsPage(db, who.workspaceId, 'photo', query),
  }),
  listPosts: operation({
    id: 'netComments.listPosts',
    summary: 'List social-network posts',
    description: 'The posts of the connected social-network pages: the ids a net automation watches.',
    access: read,
    query: channelPostsQuery,
    output: channelPostPageSchema,
    outputDescription,
    examples: { query: { page: '1', perPage: '20', inboxId: '2', kind: 'ads' }, response: { data: [netPost], pageCount: 1 } },
    run: ({ db, who, query }) => listChannelPostsPage(db, who.workspaceId, 'net', query),
  }),
});
