import { z } from 'zod';
import { threadControlOperations as threadControl } from '../../domain/thread-control/thread-control.operations.js';
import {
  syncThreadOwnerInput,
  threadControlActionSchema,
  threadControlInput,
  threadControlResultSchema,
  threadControlRules,
  threadEventSchema,
  threadEventSourceSchema,
  threadOwnerRoleSchema,
  threadStateValueSchema,
  type ThreadControlResult,
  type ThreadState,
} from '../../domain/thread-control/thread-state.schema.js';
import { threadSnapshot } from '../../domain/thread-control/thread-state.service.js';
import type { ArgBuilder } from '../args.js';
import { builder } from '../builder.js';
import { contractEnum } from '../enums.js';
import { recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { ContactInboxType } from './inbox.type.js';

const ThreadStateValueEnum = contractEnum('ThreadStateValue', threadStateValueSchema.options, 'owned: our app holds the thread; standby: another app does; idle: nobody has acted for 24 hours');
const ThreadOwnerRoleEnum = contractEnum('ThreadOwnerRole', threadOwnerRoleSchema.options, 'primary: our app (the primary receiver); secondary: another app');
const ThreadEventEnum = contractEnum('ThreadEvent', threadEventSchema.options);
const ThreadEventSourceEnum = contractEnum('ThreadEventSource', threadEventSourceSchema.options, 'network: a webhook (or dev) event; api: one of our calls');
const ThreadControlActionEnum = contractEnum('ThreadControlAction', threadControlActionSchema.options);
const ThreadControlStatusEnum = contractEnum('ThreadControlStatus', threadControlResultSchema.shape.status.options);

export const ThreadStateType = builder.objectRef<ThreadState>('ThreadState').implement({
  description: "Who holds a contact's thread in an inbox (the networks' handover protocol), as the thread-control calls answer it.",
  fields: (t) => ({
    contactInboxId: t.exposeID('contactInboxId'),
    state: t.expose('state', { type: ThreadStateValueEnum }),
    ownerRole: t.expose('ownerRole', { type: ThreadOwnerRoleEnum }),
    ownerAppId: t.exposeString('ownerAppId', { nullable: true, description: 'The app holding the thread; null when another app holds it and the network did not say which' }),
    transitionedAt: t.expose('transitionedAt', { type: 'DateTime', nullable: true, description: 'When the thread last changed hands, or was first recorded' }),
    lastUserMessageAt: t.expose('lastUserMessageAt', { type: 'DateTime', nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When the thread goes idle' }),
    idleSince: t.expose('idleSince', { type: 'DateTime', nullable: true, description: 'Set when the thread is idle' }),
    lastEvent: t.expose('lastEvent', { type: ThreadEventEnum, nullable: true }),
    lastEventSource: t.expose('lastEventSource', { type: ThreadEventSourceEnum, nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
  }),
});

const ThreadControlResultType = builder.objectRef<ThreadControlResult>('ThreadControlResult').implement({
  description: 'What a thread-control call did, and the thread as it is now.',
  fields: (t) => ({
    status: t.expose('status', { type: ThreadControlStatusEnum }),
    snapshot: t.expose('snapshot', { type: ThreadStateType }),
  }),
});

builder.objectField(ContactInboxType, 'threadState', (t) =>
  t.field({
    type: ThreadStateType,
    description: 'Who holds the contact\'s thread in this inbox (one statement per batch of contact inboxes)',
    resolve: async (m, _a, { loaders, deps }) => threadSnapshot(Number(m.id), await loaders.threadState.load(Number(m.id)), deps.adapter.appId),
  }),
);

const conversationIdArg = (arg: ArgBuilder) =>
  arg.id({ required: true, description: "The conversation's global id, or its plain digit id" }).validate(recordIdArg('Conversation'));
const contactInboxIdArg = (arg: ArgBuilder) =>
  arg.id({ required: true, description: "The conversation's contact inbox: its global id, or its plain digit id" }).validate(recordIdArg('ContactInbox'));

builder.mutationField('threadControl', (t) =>
  t.field({
    type: ThreadControlResultType,
    description:
      "Like POST /v1/conversations/{id}/thread-control: take, pass (to targetAppId, default HANDOVER_TARGET_APP_ID), release or sync the contact's thread in the conversation's inbox. A call that would change nothing answers notEscalation and calls nothing. The trial and MAC gates apply.",
    access: threadControl.control.access,
    args: {
      conversationId: conversationIdArg(t.arg),
      contactInboxId: contactInboxIdArg(t.arg),
      action: t.arg({ type: ThreadControlActionEnum, required: true }),
      targetAppId: t.arg.string({ description: 'pass only: the app to hand the thread to' }).validate(threadControlInput.shape.targetAppId.nullable()),
      metadata: t.arg.string({ description: 'take, pass, release: passed on to the app that receives the thread' }).validate(threadControlInput.shape.metadata.nullable()),
    },
    validate: z.looseObject({ action: z.string(), targetAppId: z.unknown(), metadata: z.unknown() }).superRefine((a, ctx) => threadControlRules(a, ctx)),
    resolve: (_r, a, ctx) =>
      runOperation(threadControl.control, ctx, {
        params: { id: a.conversationId },
        body: { contactInboxId: a.contactInboxId, action: a.action, targetAppId: a.targetAppId ?? undefined, metadata: a.metadata ?? undefined },
        at: { body: [] },
      }),
  }),
);

builder.mutationField('syncThreadOwner', (t) =>
  t.field({
    type: ThreadControlResultType,
    description: "Like POST /v1/conversations/{id}/thread-control/sync: asks the network which app holds the contact's thread in the conversation's inbox, and records it.",
    access: threadControl.syncOwner.access,
    args: { conversationId: conversationIdArg(t.arg), contactInboxId: contactInboxIdArg(t.arg) },
    resolve: (_r, a, ctx) =>
      runOperation(threadControl.syncOwner, ctx, { params: { id: a.conversationId }, body: { contactInboxId: a.contactInboxId } satisfies z.input<typeof syncThreadOwnerInput>, at: { body: [] } }),
  }),
);
