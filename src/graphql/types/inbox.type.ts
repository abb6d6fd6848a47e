import { z } from 'zod';
import { contactOperations } from '../../domain/contacts/contact.operations.js';
import { conversationOperations } from '../../domain/conversations/conversation.operations.js';
import { inboxOperations as inboxes } from '../../domain/inboxes/inbox.operations.js';
import type { ChannelSummaryRecord, ContactInboxRecord, InboxRecord, InboxTeamRecord } from '../../domain/inboxes/inbox.repository.js';
import { inboxStatuses } from '../../domain/inboxes/inbox.schema.js';
import type { UserRecord } from '../../domain/users/user.repository.js';
import { withoutNulls } from '../args.js';
import { builder } from '../builder.js';
import { contractEnum } from '../enums.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { zodInputType } from '../zod-input.js';

/**
 * Teams and users have no root field: they are reached from conversations. Inboxes are reached
 * from conversations, a contact's memberships, and the `inboxes` query. As Nodes they take the
 * rule of reading a conversation.
 */
const read = conversationOperations.get.access;

export const InboxType = builder.node(builder.objectRef<InboxRecord>('Inbox'), {
  ...nodeOptions('Inbox', read, ({ loaders }) => loaders.inbox),
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    channel: t.exposeString('channel'),
    sourceId: t.exposeString('sourceId'),
    workspaceId: t.exposeID('workspaceId'),
    status: t.exposeString('status'),
    contactsCount: t.int({
      description: "Contacts of the workspace in this inbox (one grouped count per batch of inboxes)",
      resolve: (inbox, _a, { loaders }) => loaders.inboxContactsCount.load(Number(inbox.id)),
    }),
  }),
});

export const InboxTeamType = builder.node(builder.objectRef<InboxTeamRecord>('InboxTeam'), {
  ...nodeOptions('InboxTeam', read, ({ loaders }) => loaders.team),
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    workspaceId: t.exposeID('workspaceId'),
    name: t.exposeString('name'),
  }),
});

export const UserType = builder.node(builder.objectRef<UserRecord>('User'), {
  ...nodeOptions('User', read, ({ loaders }) => loaders.user),
  description: 'A user (agent) of the workspace.',
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    emailVerified: t.exposeBoolean('emailVerified'),
    image: t.exposeString('image', { nullable: true }),
    isAnonymous: t.exposeBoolean('isAnonymous'),
  }),
});

/** A contact's membership of an inbox, as a Node: the rule of reading the contact. */
const readContacts = contactOperations.get.access;

export const ContactInboxType = builder.node(builder.objectRef<ContactInboxRecord>('ContactInbox'), {
  ...nodeOptions('ContactInbox', readContacts, ({ loaders }) => loaders.contactInbox),
  fields: (t) => ({
    rawId: rawIdField(t),
    contactId: t.exposeID('contactId'),
    inboxId: t.exposeID('inboxId'),
    channel: t.exposeString('channel'),
    inbox: t.field({ type: InboxType, nullable: true, resolve: (m, _a, { loaders }) => loaders.inbox.load(Number(m.inboxId)) }),
  }),
});

builder.queryField('inboxes', (t) =>
  t.field({
    type: pageOf('InboxPage', InboxType),
    description: "Like GET /v1/inboxes: the workspace's inboxes in creation order, optionally of one channel (exact match).",
    access: inboxes.list.access,
    args: { ...pageArgs(t.arg), channel: t.arg.string() },
    // GraphQL's page arguments are integers already (REST's query sends text).
    validate: pageArgsSchema.extend({ channel: inboxes.list.query.shape.channel.nullish() }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(inboxes.list, ctx, { query: { page: args.page, perPage: args.perPage, channel: args.channel ?? undefined } }),
  }),
);

const ChannelSummaryType = builder.objectRef<ChannelSummaryRecord>('ChannelSummary').implement({
  description: 'A channel the workspace has inboxes on.',
  fields: (t) => ({
    channel: t.exposeString('channel'),
    inboxCount: t.exposeInt('inboxCount', { description: "The workspace's inboxes on this channel" }),
    contactCount: t.exposeInt('contactCount', { description: 'Distinct contacts in at least one of those inboxes' }),
  }),
});

builder.queryField('channels', (t) =>
  t.field({
    type: [ChannelSummaryType],
    description: 'Like GET /v1/channels: the channels the workspace has inboxes on, by name, with counts.',
    access: inboxes.listChannels.access,
    resolve: (_r, _a, ctx) => runOperation(inboxes.listChannels, ctx),
  }),
);

const InboxStatusEnum = contractEnum('InboxStatus', inboxStatuses, 'active: the inbox receives and sends; inactive: switched off');

const UpdateInboxInputType = zodInputType('UpdateInboxInput', inboxes.update.body, {
  description: 'The body of PATCH /v1/inboxes/{id}: at least one of name (trimmed, 1 to 255 characters) and status.',
  types: { status: InboxStatusEnum },
});

builder.mutationField('updateInbox', (t) =>
  t.field({
    type: InboxType,
    description: 'Like PATCH /v1/inboxes/{id}: renames an inbox or switches it on or off.',
    access: inboxes.update.access,
    args: {
      id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Inbox')),
      input: t.arg({ type: UpdateInboxInputType, required: true }).validate(z.preprocess(withoutNulls, inboxes.update.body)),
    },
    resolve: (_r, { id, input }, ctx) => runOperation(inboxes.update, ctx, { params: { id }, body: input }),
  }),
);
