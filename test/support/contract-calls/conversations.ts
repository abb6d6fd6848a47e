import type { CallTable } from './seed.js';

/** The conversation operations (conversations.unfollow is in built.ts). */
export const conversationCalls: CallTable = {
  'conversations.list': (s) => ({ method: 'GET', path: `/v1/conversations?limit=10&followed=true&archived=false&assignedUserId=${s.agent}&inboxId=${s.inbox}` }),
  'conversations.get': (s) => ({ method: 'GET', path: `/v1/conversations/${s.conversation}` }),
  'conversations.follow': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/follow` }),
  'conversations.archive': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/archive` }),
  'conversations.unarchive': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/unarchive` }),
  'conversations.assign': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/assign`, body: { userId: String(s.agent), inboxTeamId: String(s.team) } }),
  'conversations.enableBot': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/enable-bot` }),
  'conversations.disableBot': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/disable-bot`, body: { resumeAt: '2099-01-01T00:00:00.000Z' } }),
  'conversations.read': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/read` }),
  'conversations.unread': (s) => ({ method: 'POST', path: `/v1/conversations/${s.conversation}/unread` }),
};
