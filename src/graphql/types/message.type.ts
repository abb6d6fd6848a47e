import { idNumber } from '../../db/values.js';
import { z } from 'zod';
import { digitId } from '../../domain/shared/schemas.js';
import { contactMessageOperations as messages } from '../../domain/messages/message.operations.js';
import { MAX_MESSAGE_LIMIT, messageDirectionSchema, messageStatusSchema, type Message } from '../../domain/messages/message.schema.js';
import { contactIdentifier, identifierArg, plainIds, type ArgBuilder } from '../args.js';
import { builder } from '../builder.js';
import { connectionArgs, connectionComplexity, DEFAULT_FIRST, keysetConnection } from '../connection.js';
import { byId } from '../cursor.js';
import { contractEnum } from '../enums.js';
import { nodeOptions, rawIdField } from '../node.js';
import { runOperation } from '../operations.js';
import { AutomationKindEnum } from './outbox.type.js';
import { ContactRef, ConversationRef } from './refs.js';

const MessageDirectionEnum = contractEnum('MessageDirection', messageDirectionSchema.options);
const MessageStatusEnum = contractEnum('MessageStatus', messageStatusSchema.options, 'received: an incoming message; sent: the network accepted it; failed: the network refused it (see error)');

const MessageAttachmentType = builder.objectRef<Message['attachments'][number]>('MessageAttachment').implement({
  fields: (t) => ({ type: t.exposeString('type'), url: t.exposeString('url', { nullable: true }) }),
});

export const MessageType = builder.node(builder.objectRef<Message>('Message'), {
  ...nodeOptions('Message', messages.get.access, ({ loaders }) => loaders.message),
  description: 'A message of a contact\'s conversation, either way, as GET /v1/contacts/{identifier}/messages/{messageId} answers it.',
  fields: (t) => ({
    rawId: rawIdField(t),
    contactId: t.exposeID('contactId'),
    conversationId: t.exposeID('conversationId'),
    inboxId: t.exposeID('inboxId'),
    direction: t.expose('direction', { type: MessageDirectionEnum }),
    externalId: t.exposeString('externalId', { nullable: true, description: "The network's message id; null for a send that failed" }),
    text: t.exposeString('text', { nullable: true }),
    attachments: t.field({ type: [MessageAttachmentType], resolve: (m) => m.attachments }),
    status: t.expose('status', { type: MessageStatusEnum }),
    error: t.exposeString('error', { nullable: true, description: "The network's words when a send failed" }),
    automationKind: t.expose('automationKind', { type: AutomationKindEnum, nullable: true }),
    automationId: t.exposeID('automationId', { nullable: true }),
    seenAt: t.expose('seenAt', { type: 'DateTime', nullable: true }),
    clickedAt: t.expose('clickedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    contact: t.field({ type: ContactRef, resolve: async (m, _a, { loaders }) => (await loaders.contact.load(Number(m.contactId)))! }),
    conversation: t.field({ type: ConversationRef, nullable: true, resolve: (m, _a, { loaders }) => loaders.conversation.load(Number(m.conversationId)) }),
  }),
});

const messageCursor = byId('messages');

const messagesArgs = connectionArgs.extend({
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1')
    .max(MAX_MESSAGE_LIMIT, `first must be at most ${MAX_MESSAGE_LIMIT}`)
    .nullish()
    .transform((v) => v ?? DEFAULT_FIRST),
  inboxId: z.preprocess(plainIds('Inbox'), digitId).nullish(),
  direction: messageDirectionSchema.nullish(),
});

builder.objectField(ContactRef, 'messages', (t) =>
  t.connection(
    {
      type: MessageType,
      description: `The contact's messages, both ways, newest first (by id), as GET /v1/contacts/{identifier}/messages lists them: \`first\` (default ${DEFAULT_FIRST}, at most ${MAX_MESSAGE_LIMIT}) after the cursor \`after\`. On a list of contacts, the contacts asking for the same page are read in one statement.`,
      args: {
        inboxId: t.arg.id({ description: "Only the messages of this inbox (plain or global id)" }),
        direction: t.arg({ type: MessageDirectionEnum, description: 'Only incoming or only outgoing messages' }),
      },
      validate: messagesArgs,
      complexity: connectionComplexity,
      resolve: (contact, args, { loaders }) => {
        const a = args as unknown as z.output<typeof messagesArgs>;
        // An id past int4 names no inbox: nothing of it to list (PostgreSQL would refuse the number).
        const filters = { inboxId: a.inboxId ? (idNumber(a.inboxId) ?? 0) : undefined, direction: a.direction ?? undefined };
        return keysetConnection(messageCursor, a, (w) => loaders.contactMessages.load({ contactId: Number(contact.id), limit: w.limit, before: w.after, filters }));
      },
    },
    { name: 'MessageConnection' },
    { name: 'MessageEdge' },
  ),
);

/** The inbox to send through: GraphQL adds global ids and explicit nulls to the operation's rule. */
const inboxIdArg = (arg: ArgBuilder, rule: z.ZodType<string | undefined>) =>
  arg.id({ description: "One of the contact's inboxes (plain or global id); left out: the inbox of the contact's latest conversation activity" }).validate(
    z.preprocess(plainIds('Inbox'), rule).nullish().transform((v) => v ?? undefined),
  );

builder.mutationField('sendMessage', (t) =>
  t.field({
    type: MessageType,
    description:
      "Like POST /v1/contacts/{identifier}/messages: sends a text through the channel adapter and stores it. Only within 24 hours of the contact's last message in that inbox (422 validation, reason windowClosed); a network refusal is stored as a failed message with an error log (422 validation for a closed window, else 400 businessError with the provider's words). The trial and MAC gates apply.",
    access: messages.send.access,
    args: {
      identifier: identifierArg(t.arg),
      text: t.arg.string({ required: true, validate: messages.send.body.shape.text }),
      inboxId: inboxIdArg(t.arg, messages.send.body.shape.inboxId),
    },
    resolve: (_r, { identifier, text, inboxId }, ctx) =>
      runOperation(messages.send, ctx, { params: { identifier: contactIdentifier(identifier) }, body: { text, inboxId: inboxId ?? undefined } }),
  }),
);

builder.mutationField('triggerAutoReply', (t) =>
  t.field({
    type: MessageType,
    description: "Like POST /v1/contacts/{identifier}/auto-replies: sends the workspace's default reply as sendMessage sends a text (422 validation, reason notSet, when there is none). The trial and MAC gates apply.",
    access: messages.triggerAutoReply.access,
    args: { identifier: identifierArg(t.arg), inboxId: inboxIdArg(t.arg, messages.triggerAutoReply.body.unwrap().shape.inboxId) },
    resolve: (_r, { identifier, inboxId }, ctx) =>
      runOperation(messages.triggerAutoReply, ctx, { params: { identifier: contactIdentifier(identifier) }, body: { inboxId: inboxId ?? undefined } }),
  }),
);

builder.mutationField('refreshContactProfile', (t) =>
  t.field({
    type: ContactRef,
    description:
      "Like POST /v1/contacts/{identifier}/refresh-profile: the contact's first name, last name and avatar from the network's profile (fields it leaves out are kept). No profile there is 422 validation (reason profileNotFound); other failures leave an error log and are 400 businessError. The trial and MAC gates apply.",
    access: messages.refreshProfile.access,
    args: { identifier: identifierArg(t.arg) },
    resolve: (_r, { identifier }, ctx) => runOperation(messages.refreshProfile, ctx, { params: { identifier: contactIdentifier(identifier) } }),
  }),
);
