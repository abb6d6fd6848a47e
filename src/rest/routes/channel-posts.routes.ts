import { channelPostOperations as posts } from '../../domain/channel-posts/channel-post.operations.js';
import { get } from '../route.js';

/** The media and posts of the connected accounts. */
export const channelPostRoutes = [get('/v1/photo-comments/photo-media', posts.listMedia), get('/v1/net-comments/net-posts', posts.listPosts)];
