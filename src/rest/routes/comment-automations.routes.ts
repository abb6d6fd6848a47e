import {
  commentAutomationPageSchema,
  commentAutomationSchema,
  commentAutomationsQuery,
  createNetCommentInput,
  createPhotoCommentInput,
  updateNetCommentInput,
  updatePhotoCommentInput,
} from '../../domain/automations/comment-automation.schema.js';
import {
  createNetCommentAutomation,
  createPhotoCommentAutomation,
  deleteCommentAutomation,
  getCommentAutomation,
  listCommentAutomationsPage,
  updateCommentAutomation,
} from '../../domain/automations/comment-automation.service.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
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

/** A new net automation that answers comments on two page posts (the demo page's). */
const netCreateBody = {
  name: 'Promo post replies',
  post: { type: 'postIds' as const, value: ['102030405060708_9002', '9003'] },
  privateReply: { type: 'text' as const, value: 'Thanks for your comment! Here is the link: https://shop.example.com', values: [{ value: 'Check your inbox 📬' }] },
  publicReply: { type: 'text' as const, value: 'Sent you a DM!' },
  includeKeywords: { type: 'contain' as const, value: ['price', 'link'] },
  excludeKeywords: ['spam', 'scam'],
  options,
  hideComments,
  replyAfter: { type: 'randomWithin5Minutes' as const, value: 5 },
};
const netCreated = {
  ...netCommentExample,
  ...netCreateBody,
  id: '12',
  createdAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
  repliesCount: 0,
  sentCount: 0,
  deliveredCount: 0,
  seenCount: 0,
  clickedCount: 0,
  failedCount: 0,
  missedCount: 0,
};
const photoPatched = { ...photoCommentExample.response, isActive: false, publicReply: { type: 'none' as const, value: null }, updatedAt: '2026-11-24T08:00:00.000Z' };
const netPatched = { ...netCommentExample, name: 'Page post FAQ (weekdays)', startTime: '09:00', endTime: '18:00', updatedAt: '2026-11-24T08:00:00.000Z' };

const tag = 'Comment automations';
const read = { action: 'read', scope: 'automations' } as const;
const write = { action: 'write', scope: 'automations' } as const;
const remove = { action: 'delete', scope: 'automations' } as const;
const listDescription = 'A page of automations, newest first (createdAt, ties by the newest id); `pageCount` is ceil(total / perPage)';
const patchSummary = (network: string) =>
  `Change a ${network} comment automation: any subset of the create fields and isActive; nested objects are replaced whole, the result must pass the create rules`;

export const commentAutomationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/photo-comments',
    operationId: 'photoComments.list',
    summary: "The workspace's photo-network comment automations, filtered by name, isActive and folder",
    tag,
    access: read,
    query: commentAutomationsQuery,
    response: { status: 200, description: listDescription, schema: commentAutomationPageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: {
      query: { page: '1', perPage: '20', name: 'price', isActive: 'true', folderId: '12' },
      response: { data: [{ ...photoCommentExample.response, folderId: '12' }], pageCount: 1 },
    },
    handler: ({ db, who, query }) => listCommentAutomationsPage(db, who.workspaceId, 'photo', query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/net-comments',
    operationId: 'netComments.list',
    summary: "The workspace's social-network comment automations, filtered by name, isActive and folder",
    tag,
    access: read,
    query: commentAutomationsQuery,
    response: { status: 200, description: listDescription, schema: commentAutomationPageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: {
      query: { page: '1', perPage: '20', name: 'faq', isActive: 'true', folderId: '11' },
      response: { data: [{ ...netCommentExample, folderId: '11' }], pageCount: 1 },
    },
    handler: ({ db, who, query }) => listCommentAutomationsPage(db, who.workspaceId, 'net', query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/net-comments',
    operationId: 'netComments.create',
    summary: 'Create an automation that replies to or hides comments on social-network posts (type chat, the default)',
    tag,
    access: write,
    body: createNetCommentInput,
    response: { status: 201, description: 'The new automation; `Location` is its address', schema: commentAutomationSchema, location: (a) => `/v1/net-comments/${a.id}` },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    examples: { body: netCreateBody, response: netCreated },
    handler: ({ db, who, body }) => createNetCommentAutomation(db, who.workspaceId, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/photo-comments/{id}',
    operationId: 'photoComments.update',
    summary: patchSummary('photo-network'),
    tag,
    access: write,
    params: idParams,
    body: updatePhotoCommentInput,
    response: { status: 200, description: 'The automation as changed', schema: commentAutomationSchema },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: { params: { id: '9' }, body: { isActive: false, publicReply: { type: 'none', value: null } }, response: photoPatched },
    handler: ({ db, who, params, body }) => updateCommentAutomation(db, who.workspaceId, 'photo', params.id, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/net-comments/{id}',
    operationId: 'netComments.update',
    summary: patchSummary('social-network'),
    tag,
    access: write,
    params: idParams,
    body: updateNetCommentInput,
    response: { status: 200, description: 'The automation as changed', schema: commentAutomationSchema },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: { params: { id: '4' }, body: { name: 'Page post FAQ (weekdays)', startTime: '09:00', endTime: '18:00' }, response: netPatched },
    handler: ({ db, who, params, body }) => updateCommentAutomation(db, who.workspaceId, 'net', params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/photo-comments/{id}',
    operationId: 'photoComments.delete',
    summary: 'Delete a photo-network comment automation permanently',
    tag,
    access: remove,
    params: idParams,
    response: { status: 200, description: 'Deleted; the automation is 404 afterwards', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '9' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteCommentAutomation(db, who.workspaceId, 'photo', params.id),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/net-comments/{id}',
    operationId: 'netComments.delete',
    summary: 'Delete a social-network comment automation permanently',
    tag,
    access: remove,
    params: idParams,
    response: { status: 200, description: 'Deleted; the automation is 404 afterwards', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '4' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteCommentAutomation(db, who.workspaceId, 'net', params.id),
  }),
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
