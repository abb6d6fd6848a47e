import type { Executor } from '../../src/db/database.js';
import { createPhotoCommentAutomation } from '../../src/domain/comment-automations/comment-automation.service.js';
import { sampleHideComments, sampleOptions, T0 } from './fixtures.js';

/**
 * A comment automation inserted by `fixtures().commentAutomation` as the API shows it (counters 0,
 * the fixture's behaviour), with the given changes.
 */
export const storedAutomation = (id: number | string, name: string, channel: 'photo' | 'net', extra: Record<string, unknown> = {}) => ({
  id: String(id),
  createdAt: T0,
  updatedAt: T0,
  name,
  folderId: null,
  type: channel === 'net' ? 'chat' : 'photo',
  isActive: true,
  startTime: null,
  endTime: null,
  repliesCount: 0,
  sentCount: 0,
  deliveredCount: 0,
  seenCount: 0,
  clickedCount: 0,
  failedCount: 0,
  missedCount: 0,
  post: { type: 'all', value: [] },
  privateReply: { type: 'text', value: 'Thanks!' },
  publicReply: { type: 'none', value: null },
  includeKeywords: { type: 'all', value: [] },
  excludeKeywords: [],
  options: sampleOptions,
  hideComments: sampleHideComments,
  replyAfter: { type: 'immediately', value: 0 },
  ...extra,
});

/** 2026-11-0<day>T10:00:00.000Z */
export const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T10:00:00.000Z`;

/**
 * A photo automation that answers every comment naming `keyword` with a private reply, on every
 * post and every comment (replies included), as the engine's process tests need it.
 */
export const keywordReplyAutomation = (
  db: Executor,
  workspaceId: number,
  keyword: string,
  extra: { replyAfter?: { type: 'immediately' | 'seconds'; value: number }; options?: Partial<typeof sampleOptions> } = {},
) =>
  createPhotoCommentAutomation(db, workspaceId, {
    name: `Answers ${keyword}`,
    type: 'photo',
    post: { type: 'all', value: [] },
    privateReply: { type: 'text', value: `About ${keyword}: see your DMs` },
    publicReply: { type: 'none', value: null },
    includeKeywords: { type: 'contain', value: [keyword] },
    excludeKeywords: [],
    options: { ...sampleOptions, replyOncePerUserPerPost: false, ignoreCommentReplies: false, ...extra.options },
    hideComments: { ...sampleHideComments, showCommentsAfter: 'none' as const },
    replyAfter: extra.replyAfter ?? { type: 'immediately', value: 0 },
  });
