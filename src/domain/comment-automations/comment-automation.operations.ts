import type { z } from 'zod';
import type { Executor } from '../../db/database.js';
import { idParams, successSchema } from '../shared/schemas.js';
import { operation, operationsOf, type OperationExamples } from '../shared/operation.js';
import type { StoredCommentAutomation } from './comment-automation.repository.js';
import {
  commentAutomationPageSchema,
  commentAutomationSchema,
  commentAutomationsQuery,
  createNetCommentInput,
  createPhotoCommentInput,
  updateNetCommentInput,
  updatePhotoCommentInput,
  type Channel,
  type UpdateCommentInput,
} from './comment-automation.schema.js';
import {
  createNetCommentAutomation,
  createPhotoCommentAutomation,
  deleteCommentAutomation,
  getCommentAutomation,
  listCommentAutomationsPage,
  publicAutomation,
  publicPage,
  updateCommentAutomation,
} from './comment-automation.service.js';

/**
 * Comment automations of both networks: the photo network's (`/v1/photo-comments`) and the social
 * network's (`/v1/net-comments`) are the same operations, declared once and parameterised by
 * channel; only their create and update inputs, their wording and their examples differ.
 */

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


/** What differs between the two networks' automations. */
interface Network<Create extends z.ZodType, Update extends z.ZodType<UpdateCommentInput>> {
  channel: Channel;
  /** The operation ids' prefix. */
  prefix: string;
  /** Its name in a summary, and in a sentence. */
  short: string;
  network: string;
  create: {
    body: Create;
    run: (db: Executor, workspaceId: number, input: z.output<Create>) => Promise<StoredCommentAutomation>;
    description: string;
    example: OperationExamples<z.ZodUnknown, z.ZodUnknown, Create, typeof commentAutomationSchema>;
  };
  update: { body: Update; example: OperationExamples<typeof idParams, z.ZodUnknown, Update, typeof commentAutomationSchema> };
  listExample: OperationExamples<z.ZodUnknown, typeof commentAutomationsQuery, z.ZodUnknown, typeof commentAutomationPageSchema>;
  record: { id: string; response: z.output<typeof commentAutomationSchema> };
}

const photo: Network<typeof createPhotoCommentInput, typeof updatePhotoCommentInput> = {
    channel: 'photo',
    prefix: 'photoComments',
    short: 'photo',
    network: 'photo-network',
    create: {
      body: createPhotoCommentInput,
      run: createPhotoCommentAutomation,
      description: 'An automation that replies to or hides comments on photo-network media.',
      example: photoCommentExample,
    },
    update: { body: updatePhotoCommentInput, example: { params: { id: '9' }, body: { isActive: false, publicReply: { type: 'none' as const, value: null } }, response: photoPatched } },
    listExample: { query: { page: '1', perPage: '20', name: 'price', isActive: 'true', folderId: '12' }, response: { data: [{ ...photoCommentExample.response, folderId: '12' }], pageCount: 1 } },
    record: { id: '9', response: photoCommentExample.response },
};

const net: Network<typeof createNetCommentInput, typeof updateNetCommentInput> = {
    channel: 'net',
    prefix: 'netComments',
    short: 'net',
    network: 'social-network',
    create: {
      body: createNetCommentInput,
      run: createNetCommentAutomation,
      description: 'An automation that replies to or hides comments on social-network posts (type chat, the default).',
      example: { body: netCreateBody, response: netCreated },
    },
    update: { body: updateNetCommentInput, example: { params: { id: '4' }, body: { name: 'Page post FAQ (weekdays)', startTime: '09:00', endTime: '18:00' }, response: netPatched } },
    listExample: { query: { page: '1', perPage: '20', name: 'faq', isActive: 'true', folderId: '11' }, response: { data: [{ ...netCommentExample, folderId: '11' }], pageCount: 1 } },
    record: { id: '4', response: netCommentExample },
};

const read = { action: 'read', scope: 'automations' } as const;
const write = { action: 'write', scope: 'automations' } as const;

/** The operations of one network's comment automations. */
function channelOperations<Create extends z.ZodType, Update extends z.ZodType<UpdateCommentInput>>(n: Network<Create, Update>) {
  const { channel } = n;
  return operationsOf('Comment automations', {
    list: operation({
      id: `${n.prefix}.list`,
      summary: `List ${n.short} comment automations`,
      description: `The workspace's ${n.network} comment automations, filtered by name, isActive and folder.`,
      access: read,
      query: commentAutomationsQuery,
      output: commentAutomationPageSchema,
      outputDescription: 'A page of automations, newest first (createdAt, ties by the newest id); `pageCount` is ceil(total / perPage)',
      examples: n.listExample,
      run: ({ db, who, query }) => listCommentAutomationsPage(db, who.workspaceId, channel, query),
      present: publicPage,
    }),
    create: operation({
      id: `${n.prefix}.create`,
      summary: `Create a ${n.short} comment automation`,
      description: n.create.description,
      access: write,
      body: n.create.body,
      output: commentAutomationSchema,
      outputDescription: 'The new automation; `Location` is its address',
      examples: n.create.example,
      run: ({ db, who, body }) => n.create.run(db, who.workspaceId, body),
      present: publicAutomation,
    }),
    get: operation({
      id: `${n.prefix}.get`,
      summary: `Get a ${n.short} comment automation`,
      description: `A ${n.network} comment automation.`,
      access: read,
      params: idParams,
      output: commentAutomationSchema,
      outputDescription: 'The automation, with folderId (null at root)',
      examples: { params: { id: n.record.id }, response: n.record.response },
      run: ({ db, who, params }) => getCommentAutomation(db, who.workspaceId, channel, params.id),
      present: publicAutomation,
    }),
    update: operation({
      id: `${n.prefix}.update`,
      summary: `Change a ${n.short} comment automation`,
      description: 'Any subset of the create fields and isActive; nested objects are replaced whole, and the result must pass the create rules.',
      access: write,
      params: idParams,
      body: n.update.body,
      output: commentAutomationSchema,
      outputDescription: 'The automation as changed',
      examples: n.update.example,
      run: ({ db, who, params, body, at }) => updateCommentAutomation(db, who.workspaceId, channel, params.id, body, at.body),
      present: publicAutomation,
    }),
    delete: operation({
      id: `${n.prefix}.delete`,
      summary: `Delete a ${n.short} comment automation`,
      description: `Deletes a ${n.network} comment automation permanently.`,
      access: { action: 'delete', scope: 'automations' },
      params: idParams,
      output: successSchema,
      outputDescription: 'Deleted; the automation is 404 afterwards',
      examples: { params: { id: n.record.id }, response: { success: true } },
      run: ({ db, who, params }) => deleteCommentAutomation(db, who.workspaceId, channel, params.id),
    }),
  });
}

export const photoCommentOperations = channelOperations(photo);
export const netCommentOperations = channelOperations(net);
/** Each network's operations, by channel (GraphQL names the channel in an argument). */
export const commentOperationsOf = { photo: photoCommentOperations, net: netCommentOperations } as const;
