import { photoCommentBody } from '../fixtures.js';
import type { CallTable } from './seed.js';

let leadAdIndex = 0;
let contactIndex = 0;

/** The contract's own eleven endpoints and the routes built with them. */
export const builtCalls: CallTable = {
  'photoComments.create': () => ({ method: 'POST', path: '/v1/photo-comments', body: photoCommentBody() }),
  'netComments.get': (s) => ({ method: 'GET', path: `/v1/net-comments/${s.netAutomation}` }),
  'photoComments.get': (s) => ({ method: 'GET', path: `/v1/photo-comments/${s.photoAutomation}` }),
  'netLeadAds.delete': (s) => ({ method: 'DELETE', path: `/v1/net-lead-ads/${s.leadAds[leadAdIndex++ % s.leadAds.length]}` }),
  'contacts.create': (s) => ({ method: 'POST', path: '/v1/contacts', body: { email: `new${++contactIndex}@example.com`, inboxId: String(s.inbox) } }),
  'contacts.listCustomFields': (s) => ({ method: 'GET', path: `/v1/contacts/${s.contact}/custom-fields` }),
  'contacts.listSequences': () => ({ method: 'GET', path: `/v1/contacts/email:ada@example.com/sequences` }),
  'tags.list': () => ({ method: 'GET', path: '/v1/tags' }),
  'dynamicImages.list': () => ({ method: 'GET', path: '/v1/dynamic-images?page=1&perPage=10&name=bad' }),
  'conversations.unfollow': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/unfollow` }),
  'workspaces.get': () => ({ method: 'GET', path: '/v1/workspaces' }),
  'errorLogs.list': () => ({ method: 'GET', path: '/v1/error-logs?keyword=expired' }),
};
