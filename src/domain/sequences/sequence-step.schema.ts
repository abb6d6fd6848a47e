import { z } from 'zod';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * A sequence's steps: when each is due after the one before it (the first: after the
 * subscription), the send window it must fall in, and the flow it sends.
 */

export const delayUnits = ['immediate', 'minutes', 'hours', 'days', 'specificTime'] as const;
export const delayUnitSchema = z.enum(delayUnits).meta({ id: 'SequenceDelayUnit' });
export type DelayUnit = z.infer<typeof delayUnitSchema>;

export const weekDays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const weekDaySchema = z.enum(weekDays).meta({ id: 'WeekDay' });
export type WeekDay = z.infer<typeof weekDaySchema>;

export const MAX_DELAY = 99_999;
export const MAX_STEPS_PER_SEQUENCE = 100;

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:mm (00:00 to 23:59)');
const delayAmount = (name: string) => z.number().int(`${name} must be a whole number`).min(1, `${name} must be at least 1`).max(MAX_DELAY, `${name} must be at most ${MAX_DELAY}`);

const MISMATCH = 'delayUnit does not match delayDays/delayMinutes';

export const upsertStepInput = z
  .strictObject({
    stepId: digitId.optional().meta({ description: 'The step to change; left out, a new step is created' }),
    order: z.number().int('order must be a whole number').min(0, 'order must be at least 0').max(9_999, 'order must be at most 9999').meta({ description: '0-based position; steps run in order (ties by creation)' }),
    delayUnit: delayUnitSchema,
    delayDays: delayAmount('delayDays').optional().meta({ description: 'For delayUnit days' }),
    delayMinutes: delayAmount('delayMinutes').optional().meta({ description: 'For delayUnit minutes; for hours, the delay in minutes, a whole number of hours' }),
    specificDateTime: isoDateTime.optional().meta({ description: 'For delayUnit specificTime: when the step is due' }),
    flowId: digitId.nullable().optional().meta({ description: 'The flow the step sends; a step without one is skipped (noFlow)' }),
    isActive: z.boolean().default(true),
    anytime: z.boolean().optional().meta({ description: 'Send at any time (the default when no send window is given)' }),
    sendTimeStart: clockTime.optional().meta({ description: 'Send window start, HH:mm in the workspace timezone' }),
    sendTimeEnd: clockTime.optional().meta({ description: 'Send window end, HH:mm (inclusive, to the minute); before the start: overnight' }),
    sendDays: z.array(weekDaySchema).min(1, 'sendDays must hold at least 1 day').max(7).optional().meta({ description: 'Days the window is open on (the day the window starts)' }),
  })
  .superRefine((s, ctx) => {
    const days = s.delayDays !== undefined;
    const minutes = s.delayMinutes !== undefined;
    const fits = { immediate: !days && !minutes, specificTime: !days && !minutes, minutes: minutes && !days, hours: minutes && !days, days: days && !minutes }[s.delayUnit];
    if (!fits) ctx.addIssue({ code: 'custom', message: MISMATCH, path: ['delayUnit'] });
    else if (s.delayUnit === 'hours' && s.delayMinutes! % 60 !== 0) ctx.addIssue({ code: 'custom', message: 'delayMinutes must be a whole number of hours (a multiple of 60) for delayUnit hours', path: ['delayMinutes'] });
    if (s.delayUnit === 'specificTime' && s.specificDateTime === undefined) ctx.addIssue({ code: 'custom', message: 'specificDateTime is required for delayUnit specificTime', path: ['specificDateTime'] });
    if (s.delayUnit !== 'specificTime' && s.specificDateTime !== undefined) ctx.addIssue({ code: 'custom', message: 'specificDateTime applies to delayUnit specificTime only', path: ['specificDateTime'] });
    const window = [s.sendTimeStart, s.sendTimeEnd, s.sendDays].filter((v) => v !== undefined).length;
    if (s.anytime === true && window > 0) ctx.addIssue({ code: 'custom', message: 'anytime excludes a send window (sendTimeStart, sendTimeEnd, sendDays)', path: ['anytime'] });
    else if (window > 0 && window < 3) ctx.addIssue({ code: 'custom', message: 'A send window needs sendTimeStart, sendTimeEnd and sendDays', path: ['sendTimeStart'] });
    else if (s.anytime === false && window === 0) ctx.addIssue({ code: 'custom', message: 'anytime false needs a send window (sendTimeStart, sendTimeEnd, sendDays)', path: ['anytime'] });
    else if (window === 3 && s.sendTimeStart === s.sendTimeEnd) ctx.addIssue({ code: 'custom', message: 'sendTimeStart and sendTimeEnd must differ', path: ['sendTimeEnd'] });
  })
  .meta({
    id: 'UpsertSequenceStepInput',
    description:
      'Creates a step (no stepId) or replaces one (stepId). delayUnit immediate and specificTime take no delay; minutes takes delayMinutes; hours takes delayMinutes in whole hours; days takes delayDays. Either anytime, or a send window (sendTimeStart, sendTimeEnd, sendDays).',
  });
export type UpsertStepInput = z.infer<typeof upsertStepInput>;

export const stepIdSchema = z.object({ stepId: digitId }).meta({ id: 'SequenceStepId' });

export const sequenceStepSchema = z
  .object({
    id: digitId,
    sequenceId: digitId,
    order: z.number().int(),
    delayUnit: delayUnitSchema,
    delayDays: z.number().int().nullable(),
    delayMinutes: z.number().int().nullable(),
    specificDateTime: isoDateTime.nullable(),
    flowId: digitId.nullable(),
    isActive: z.boolean(),
    anytime: z.boolean(),
    sendTimeStart: z.string().nullable(),
    sendTimeEnd: z.string().nullable(),
    sendDays: z.array(weekDaySchema),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'SequenceStep' });
export type SequenceStep = z.infer<typeof sequenceStepSchema>;

export const sequenceStepListSchema = z.object({ data: z.array(sequenceStepSchema) }).meta({ id: 'SequenceStepList' });

export const stepParams = z.strictObject({ id: digitId.meta({ description: 'The sequence' }), stepId: digitId.meta({ description: 'The step' }) });

/** What a step did for a contact. The contract's five, and ours: a skipped step, and one moved into its send window. */
export const stepEventTypes = ['message:sent', 'message:delivered', 'message:seen', 'message:failed', 'flow:clicked', 'step:skipped', 'step:deferred'] as const;
export const stepEventTypeSchema = z.enum(stepEventTypes).meta({ id: 'SequenceStepEventType' });
export type StepEventType = z.infer<typeof stepEventTypeSchema>;

export const stepContactsQuery = z.strictObject({
  ...pageQueryFields,
  eventType: stepEventTypeSchema.optional().meta({ description: 'Only this kind of event; every kind when left out' }),
});

export const stepContactSchema = z
  .object({
    contactId: digitId,
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    eventType: stepEventTypeSchema,
    reason: z.string().nullable().meta({ description: 'Why the step was skipped, moved or failed (e.g. threadNotOwned, messagingWindowClosed, outsideSendWindow)' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'SequenceStepContact' });
export type StepContact = z.infer<typeof stepContactSchema>;

export const stepContactPageSchema = z
  .object({ data: z.array(stepContactSchema), total: z.number().int(), pageCount: z.number().int() })
  .meta({ id: 'SequenceStepContactPage' });
