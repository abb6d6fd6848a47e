import { z } from 'zod';
import { outboxOperations as outbox } from '../../domain/outbox/outbox.operations.js';
import { automationKindSchema, outboxActionSchema, type OutboxEntry, type OutgoingContent, type ThreadControlRequest } from '../../domain/outbox/outbox.schema.js';
import { builder } from '../builder.js';
import { contractEnum } from '../enums.js';
import { decodeNodeId, nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { ChannelEnum } from './comment-automation.type.js';
import { ContactRef } from './refs.js';

const OutboxActionEnum = contractEnum('OutboxAction', outboxActionSchema.options);
export const AutomationKindEnum = contractEnum('AutomationKind', automationKindSchema.options, 'comment: a comment automation (photo or net); leadAd: a lead-ad automation');
const OutgoingContentTypeEnum = contractEnum('OutgoingContentType', ['text', 'flow', 'AIAgent', 'image', 'quickReplies'] as const);

const QuickReplyType = builder.objectRef<{ title: string; payload: string }>('QuickReply').implement({
  description: 'A button under a message: its title, and the payload the network sends back when it is tapped.',
  fields: (t) => ({ title: t.exposeString('title'), payload: t.exposeString('payload') }),
});

/** What a reply or message carried: flat, the fields of other types null. */
const OutgoingContentType = builder.objectRef<OutgoingContent>('OutgoingContent').implement({
  description: 'A text, an image, a text with quick replies, or the hand-off of the conversation to a flow or an AI agent by id.',
  fields: (t) => ({
    type: t.expose('type', { type: OutgoingContentTypeEnum }),
    text: t.string({ nullable: true, resolve: (c) => (c.type === 'text' || c.type === 'quickReplies' ? c.text : null) }),
    url: t.string({ nullable: true, description: "An image's URL", resolve: (c) => (c.type === 'image' ? c.url : null) }),
    replies: t.field({ type: [QuickReplyType], nullable: true, description: 'The quick replies under the text', resolve: (c) => (c.type === 'quickReplies' ? c.replies : null) }),
    flowId: t.string({ nullable: true, resolve: (c) => (c.type === 'flow' ? c.flowId : null) }),
    agentId: t.string({ nullable: true, resolve: (c) => (c.type === 'AIAgent' ? c.agentId : null) }),
  }),
});

const ThreadControlCallEnum = contractEnum('ThreadControlCall', ['take', 'pass', 'release'] as const);

const ThreadControlRequestType = builder.objectRef<ThreadControlRequest>('ThreadControlRequest').implement({
  description: 'A thread-control (handover) call as it was asked: take the thread, pass it to targetAppId, or release it.',
  fields: (t) => ({
    action: t.expose('action', { type: ThreadControlCallEnum }),
    targetAppId: t.exposeString('targetAppId', { nullable: true, description: 'The app a pass hands the thread to' }),
    metadata: t.exposeString('metadata', { nullable: true }),
  }),
});

export const OutboxEntryType = builder.node(builder.objectRef<OutboxEntry>('OutboxEntry'), {
  ...nodeOptions('OutboxEntry', outbox.list.access, ({ loaders }) => loaders.outboxEntry),
  description: 'An action the sandbox channel adapter recorded instead of sending it to the network, as GET /v1/outbox lists it.',
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    channel: t.expose('channel', { type: ChannelEnum }),
    inboxId: t.exposeID('inboxId'),
    action: t.expose('action', { type: OutboxActionEnum }),
    commentId: t.exposeString('commentId', { nullable: true, description: "The network's comment id; null for a message" }),
    postId: t.exposeString('postId', { nullable: true, description: "The network's id of the comment's post, when known" }),
    recipientId: t.exposeString('recipientId', { nullable: true, description: "The network's id of a message's recipient" }),
    contactId: t.exposeID('contactId', { nullable: true }),
    contact: t.field({
      type: ContactRef,
      nullable: true,
      description: 'The contact it concerns; null when none is known or it has been deleted',
      resolve: (e, _a, { loaders }) => (e.contactId === null ? null : loaders.contact.load(Number(e.contactId))),
    }),
    automationKind: t.expose('automationKind', { type: AutomationKindEnum, nullable: true }),
    automationId: t.exposeID('automationId', { nullable: true, description: 'Plain id of the automation that acted (of automationKind)' }),
    payload: t.field({ type: OutgoingContentType, nullable: true, description: 'What was sent; null for like, hide, unhide and threadControl', resolve: (e) => e.payload }),
    threadControl: t.field({ type: ThreadControlRequestType, nullable: true, description: 'A threadControl entry: the handover call as asked', resolve: (e) => e.threadControl ?? null }),
  }),
});

/** A comment or lead-ad automation's global id (which tells its kind), or a plain digit id. */
const automationIdArg = z.string().transform((value, ctx): { id: string; kind?: z.infer<typeof automationKindSchema> } => {
  if (/^\d+$/.test(value)) return { id: value };
  const decoded = decodeNodeId(value);
  if (decoded?.typename === 'CommentAutomation') return { id: decoded.id, kind: 'comment' };
  if (decoded?.typename === 'LeadAdAutomation') return { id: decoded.id, kind: 'leadAd' };
  ctx.addIssue({ code: 'custom', message: 'must be a CommentAutomation or LeadAdAutomation global id, or a digit string' });
  return z.NEVER;
});

builder.queryField('outbox', (t) =>
  t.field({
    type: pageOf('OutboxPage', OutboxEntryType),
    description:
      'Like GET /v1/outbox: what the sandbox adapter recorded, newest first. automationId takes a CommentAutomation or LeadAdAutomation global id (which says its kind) or a plain id (of either kind unless automationKind says which).',
    access: outbox.list.access,
    args: {
      ...pageArgs(t.arg),
      contactId: t.arg.id({ description: "A Contact's global id or plain id" }),
      automationId: t.arg.id(),
      automationKind: t.arg({ type: AutomationKindEnum }),
      action: t.arg({ type: OutboxActionEnum }),
      channel: t.arg({ type: ChannelEnum }),
    },
    validate: pageArgsSchema
      .extend({
        contactId: recordIdArg('Contact').nullish(),
        automationId: automationIdArg.nullish(),
        automationKind: outbox.list.query.shape.automationKind.nullable(),
        action: outbox.list.query.shape.action.nullable(),
        channel: outbox.list.query.shape.channel.nullable(),
      })
      .superRefine((a, ctx) => {
        if (a.automationId?.kind && a.automationKind && a.automationId.kind !== a.automationKind) {
          ctx.addIssue({ code: 'custom', path: ['automationKind'], message: `is ${a.automationKind}, but automationId is the global id of a ${a.automationId.kind} automation` });
        }
      }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => {
      // `validate` has parsed the ids (Pothos types args from the GraphQL input).
      const automation = args.automationId as unknown as { id: string; kind?: 'comment' | 'leadAd' } | null | undefined;
      return runOperation(outbox.list, ctx, {
        query: {
          page: args.page,
          perPage: args.perPage,
          contactId: args.contactId ?? undefined,
          automationId: automation?.id,
          automationKind: automation?.kind ?? args.automationKind ?? undefined,
          action: args.action ?? undefined,
          channel: args.channel ?? undefined,
        },
      });
    },
  }),
);
