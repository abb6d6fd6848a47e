import { commentAutomationSchema, createPhotoCommentInput } from '../../domain/automations/comment-automation.schema.js';
import { createPhotoCommentAutomation, getCommentAutomation } from '../../domain/automations/comment-automation.service.js';
import { idParams } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

const options = {
  replyToNewContactsOnly: false,
  replyOncePerUserPerPost: true,
  likeUserComment: true,
  replyToUsersWhoCommentedOnOtherPosts: false,
  ignoreCommentReplies: true,
  trackUserTags: false,
};
const hideComments = {
  all: false,
  hasPhoneNumber: true,
  hasImage: false,
  hasVideo: false,
  hasLink: true,
  hasKeywords: false,
  keywords: [],
  showCommentsAfter: 'none' as const,
};
const counts = { repliesCount: 0, sentCount: 0, deliveredCount: 0, seenCount: 0, clickedCount: 0, failedCount: 0, missedCount: 0 };

/** A photo-network automation that answers "price" comments with a DM and a public reply. */
const photoCommentBehaviour = {
  post: { type: 'published' as const, value: ['17895695668004550'] },
  privateReply: { type: 'text' as const, value: 'Thanks for asking! Our spring prices: https://shop.example.com/spring', values: [{ value: 'Check your inbox 📬' }] },
  publicReply: { type: 'text' as const, value: 'Sent you a DM!' },
  includeKeywords: { type: 'contain' as const, value: ['price', 'how much'] },
  excludeKeywords: ['spam'],
  options,
  hideComments,
  replyAfter: { type: 'seconds' as const, value: 30 },
};
const photoCommentExample = {
  body: { name: 'Spring price replies', type: 'photo' as const, folderId: null, ...photoCommentBehaviour, startTime: '08:00', endTime: '20:00' },
  response: {
    id: '9',
    createdAt: '2026-11-23T10:15:00.000Z',
    updatedAt: '2026-11-23T10:15:00.000Z',
    name: 'Spring price replies',
    folderId: null,
    type: 'photo' as const,
    isActive: true,
    startTime: '08:00',
    endTime: '20:00',
    ...counts,
    ...photoCommentBehaviour,
  },
};

/** The demo workspace's "Page post FAQ" automation. */
const netCommentExample = {
  id: '4',
  createdAt: '2026-10-24T09:30:00.000Z',
  updatedAt: '2026-10-24T09:30:00.000Z',
  name: 'Page post FAQ',
  folderId: null,
  type: 'chat' as const,
  isActive: true,
  startTime: null,
  endTime: null,
  repliesCount: 120,
  sentCount: 110,
  deliveredCount: 100,
  seenCount: 80,
  clickedCount: 12,
  failedCount: 0,
  missedCount: 0,
  post: { type: 'all' as const, value: [] },
  privateReply: { type: 'text' as const, value: 'Thanks for your comment! Here is the link: https://shop.example.com', values: [{ value: 'Check your inbox 📬' }] },
  publicReply: { type: 'text' as const, value: 'Sent you a DM!' },
  includeKeywords: { type: 'all' as const, value: [] },
  excludeKeywords: ['spam', 'scam'],
  options,
  hideComments,
  replyAfter: { type: 'immediately' as const, value: 0 },
};

export const commentAutomationRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/photo-comments',
    operationId: 'photoComments.create',
    summary: 'Create an automation that replies to or hides comments on photo-network media',
    tag: 'Comment automations',
    access: { action: 'write', scope: 'automations' },
    body: createPhotoCommentInput,
    response: { status: 201, description: 'The new automation; `Location` is its address', schema: commentAutomationSchema, location: (a) => `/v1/photo-comments/${a.id}` },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    examples: { body: photoCommentExample.body, response: photoCommentExample.response },
    handler: ({ db, who, body }) => createPhotoCommentAutomation(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/photo-comments/{id}',
    operationId: 'photoComments.get',
    summary: 'A photo-network comment automation',
    tag: 'Comment automations',
    access: { action: 'read', scope: 'automations' },
    params: idParams,
    response: { status: 200, description: 'The automation, with folderId (null at root)', schema: commentAutomationSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '9' }, response: photoCommentExample.response },
    handler: ({ db, who, params }) => getCommentAutomation(db, who.workspaceId, 'photo', params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/net-comments/{id}',
    operationId: 'netComments.get',
    summary: 'A social-network comment automation',
    tag: 'Comment automations',
    access: { action: 'read', scope: 'automations' },
    params: idParams,
    response: { status: 200, description: 'The automation, with folderId (null at root)', schema: commentAutomationSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '4' }, response: netCommentExample },
    handler: ({ db, who, params }) => getCommentAutomation(db, who.workspaceId, 'net', params.id),
  }),
];
