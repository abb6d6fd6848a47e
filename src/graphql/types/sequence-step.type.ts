import { z } from 'zod';
import { flowSendOperations as flowSends } from '../../domain/flows/flow-send.operations.js';
import { sequenceStepOperations as steps } from '../../domain/sequences/sequence-step.operations.js';
import { delayUnits, stepEventTypes, weekDays, type SequenceStep, type StepContact } from '../../domain/sequences/sequence-step.schema.js';
import { contactIdentifier, identifierArg, plainIds, withoutNulls, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { contractEnum } from '../enums.js';
import { recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity } from '../page.js';
import { zodInputType } from '../zod-input.js';

const DelayUnitEnum = contractEnum('SequenceDelayUnit', delayUnits);
const WeekDayEnum = contractEnum('WeekDay', weekDays);
const StepEventTypeEnum = contractEnum(
  'SequenceStepEventType',
  stepEventTypes.map((t) => t.replace(':', '_')) as unknown as readonly ['message_sent'],
  'What a step did for a contact (REST writes the same values with a colon: message:sent)',
);

export const SequenceStepType = builder.objectRef<SequenceStep>('SequenceStep').implement({
  description: 'A step of a sequence: when it is due after the one before it, its send window and the flow it sends.',
  fields: (t) => ({
    id: t.exposeID('id'),
    sequenceId: t.exposeID('sequenceId'),
    order: t.exposeInt('order'),
    delayUnit: t.expose('delayUnit', { type: DelayUnitEnum }),
    delayDays: t.exposeInt('delayDays', { nullable: true }),
    delayMinutes: t.exposeInt('delayMinutes', { nullable: true }),
    specificDateTime: t.expose('specificDateTime', { type: 'DateTime', nullable: true }),
    flowId: t.exposeID('flowId', { nullable: true }),
    isActive: t.exposeBoolean('isActive'),
    anytime: t.exposeBoolean('anytime'),
    sendTimeStart: t.exposeString('sendTimeStart', { nullable: true }),
    sendTimeEnd: t.exposeString('sendTimeEnd', { nullable: true }),
    sendDays: t.field({ type: [WeekDayEnum], resolve: (s) => s.sendDays }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const StepContactType = builder.objectRef<StepContact>('SequenceStepContact').implement({
  description: 'What a step did for a contact, and when.',
  fields: (t) => ({
    contactId: t.exposeID('contactId'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    eventType: t.field({ type: StepEventTypeEnum, resolve: (e) => e.eventType.replace(':', '_') as 'message_sent' }),
    reason: t.exposeString('reason', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const StepContactPageType = builder.objectRef<{ data: StepContact[]; total: number; pageCount: number }>('SequenceStepContactPage').implement({
  fields: (t) => ({
    data: t.field({ type: [StepContactType], resolve: (p) => p.data }),
    total: t.exposeInt('total'),
    pageCount: t.exposeInt('pageCount'),
  }),
});

const sequenceIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'The sequence: its global id, or its plain digit id' }).validate(recordIdArg('Sequence'));
const stepIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'The step (plain digit id)' }).validate(z.string().regex(/^\d+$/, 'must be a digit string'));

builder.queryField('sequenceSteps', (t) =>
  t.field({
    type: [SequenceStepType],
    description: 'Like GET /v1/sequences/{id}/steps: the steps in the order they run.',
    access: steps.list.access,
    args: { sequenceId: sequenceIdArg(t.arg) },
    resolve: (_r, { sequenceId }, ctx) => runOperation(steps.list, ctx, { params: { id: sequenceId } }),
  }),
);

builder.queryField('sequenceStepContacts', (t) =>
  t.field({
    type: StepContactPageType,
    description: 'Like GET /v1/sequences/{id}/steps/{stepId}/contacts: what the step did for each contact, newest first.',
    access: steps.listContacts.access,
    args: { sequenceId: sequenceIdArg(t.arg), stepId: stepIdArg(t.arg), eventType: t.arg({ type: StepEventTypeEnum, required: false }), ...pageArgs(t.arg) },
    validate: pageArgsSchema.passthrough(),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) =>
      runOperation(steps.listContacts, ctx, {
        params: { id: args.sequenceId, stepId: args.stepId },
        query: { page: args.page, perPage: args.perPage, ...(args.eventType ? { eventType: args.eventType.replace('_', ':') as 'message:sent' } : {}) },
      }),
  }),
);

const UpsertStepInputType = zodInputType('UpsertSequenceStepInput', steps.upsert.body, {
  description: 'The body of PUT /v1/sequences/{id}/steps: without stepId a new step, with it that step replaced.',
  types: { delayUnit: DelayUnitEnum, sendDays: [WeekDayEnum] },
});

builder.mutationField('upsertSequenceStep', (t) =>
  t.field({
    type: builder.objectRef<{ stepId: string }>('SequenceStepId').implement({ fields: (f) => ({ stepId: f.exposeID('stepId') }) }),
    description: 'Like PUT /v1/sequences/{id}/steps: creates or replaces a step.',
    access: steps.upsert.access,
    args: { sequenceId: sequenceIdArg(t.arg), input: t.arg({ type: UpsertStepInputType, required: true }).validate(z.preprocess(withoutNulls, steps.upsert.body)) },
    resolve: (_r, { sequenceId, input }, ctx) => runOperation(steps.upsert, ctx, { params: { id: sequenceId }, body: input }),
  }),
);

builder.mutationField('deleteSequenceStep', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/sequences/{id}/steps/{stepId}: subscribers due for it move on to the next step.',
    access: steps.delete.access,
    args: { sequenceId: sequenceIdArg(t.arg), stepId: stepIdArg(t.arg) },
    resolve: async (_r, { sequenceId, stepId }, ctx) => {
      await runOperation(steps.delete, ctx, { params: { id: sequenceId, stepId } });
      return { success: true };
    },
  }),
);

builder.mutationField('sendFlow', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like POST /v1/contacts/{identifier}/flows: runs the flow for the contact as a job (at most 100 an hour per contact).',
    access: flowSends.send.access,
    args: {
      identifier: identifierArg(t.arg),
      flowId: t.arg.id({ required: true, description: 'The flow: its global id, or its plain digit id' }).validate(z.preprocess(plainIds('Flow'), z.string())),
      inboxId: t.arg.id({ required: false, description: 'The inbox whose conversation it goes to' }).validate(z.preprocess(plainIds('Inbox'), z.string().nullish())),
    },
    resolve: async (_r, args, ctx) => {
      await runOperation(flowSends.send, ctx, {
        params: { identifier: contactIdentifier(args.identifier) },
        body: { flowId: args.flowId, ...(args.inboxId ? { inboxId: args.inboxId } : {}) },
      });
      return { success: true };
    },
  }),
);
