import { photoCommentBody } from '../fixtures.js';
import type { CallTable } from './seed.js';

/**
 * Comment automations of both channels and the channels' posts. Deletes take the automations
 * seeded for them, so every other call still finds the rows it names.
 */
export const commentAutomationCalls: CallTable = {
  'photoComments.list': () => ({ method: 'GET', path: '/v1/photo-comments?page=1&perPage=10&name=rule&isActive=true' }),
  'netComments.list': () => ({ method: 'GET', path: '/v1/net-comments?page=1&perPage=10&name=rule' }),
  'netComments.create': () => ({ method: 'POST', path: '/v1/net-comments', body: { ...photoCommentBody(), type: 'chat', post: { type: 'postIds', value: ['1001_2002', '2002'] } } }),
  'photoComments.update': (s) => ({ method: 'PATCH', path: `/v1/photo-comments/${s.photoAutomation}`, body: { name: 'Photo rule', isActive: true } }),
  'netComments.update': (s) => ({ method: 'PATCH', path: `/v1/net-comments/${s.netAutomation}`, body: { excludeKeywords: ['spam'] } }),
  'photoComments.delete': (s) => ({ method: 'DELETE', path: `/v1/photo-comments/${s.disposableAutomations.photo}` }),
  'netComments.delete': (s) => ({ method: 'DELETE', path: `/v1/net-comments/${s.disposableAutomations.net}` }),
  'photoComments.listMedia': (s) => ({ method: 'GET', path: `/v1/photo-comments/photo-media?page=1&perPage=10&inboxId=${s.inbox}&kind=published` }),
  'netComments.listPosts': (s) => ({ method: 'GET', path: `/v1/net-comments/net-posts?inboxId=${s.inbox}` }),
};
