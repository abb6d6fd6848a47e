import { inTransaction, type Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { findFlowById } from '../flows/flow.repository.js';
import { fetchPage, type PageRequest } from '../shared/pagination.js';
import { startSubscriptions, stepAfter } from './sequence-progress.service.js';
import { findSequenceById } from './sequence.repository.js';
import {
  countStepEvents,
  countSteps,
  deleteStepRow,
  findStepRow,
  insertStep,
  replaceStep,
  setProgress,
  stepEventPage,
  stepRecordsOf,
  stepRowsOf,
  subscriptionsOfSequence,
  toStep,
} from './sequence-step.repository.js';
import { MAX_STEPS_PER_SEQUENCE, type SequenceStep, type StepEventType, type UpsertStepInput } from './sequence-step.schema.js';

async function sequenceKey(db: Executor, workspaceId: number, id: string): Promise<number> {
  const key = idNumber(id);
  if (key === null || !(await findSequenceById(db, workspaceId, key))) throw notFound('Sequence');
  return key;
}

async function stepKey(db: Executor, workspaceId: number, sequenceId: number, stepId: string): Promise<number> {
  const key = idNumber(stepId);
  // Another sequence's step reads as no step at all.
  if (key === null || !(await findStepRow(db, workspaceId, sequenceId, key))) throw notFound('SequenceStep');
  return key;
}

/** The sequence's steps in run order. */
export async function listSteps(db: Executor, workspaceId: number, sequenceId: string): Promise<SequenceStep[]> {
  const key = await sequenceKey(db, workspaceId, sequenceId);
  return (await stepRowsOf(db, workspaceId, [key])).map(toStep);
}

/**
 * Creates or replaces a step (PUT semantics: fields left out take their defaults). A sequence
 * holds at most MAX_STEPS_PER_SEQUENCE steps. Subscribers that were waiting because the sequence
 * had no step start now, from the first step; those already on their way keep their place.
 */
export async function upsertStep(db: Executor, queue: JobQueue, workspaceId: number, sequenceId: string, input: UpsertStepInput): Promise<{ stepId: string }> {
  return inTransaction(db, async (trx) => {
    const key = await sequenceKey(trx, workspaceId, sequenceId);
    let flowId: number | null = null;
    if (input.flowId !== undefined && input.flowId !== null) {
      flowId = idNumber(input.flowId);
      if (flowId === null || !(await findFlowById(trx, workspaceId, flowId))) throw notFound('Flow');
    }
    let stepId: number;
    if (input.stepId !== undefined) {
      stepId = await stepKey(trx, workspaceId, key, input.stepId);
      await replaceStep(trx, stepId, input, flowId);
    } else {
      if ((await countSteps(trx, key)) >= MAX_STEPS_PER_SEQUENCE)
        throw new AppError('validation', { data: { field: 'stepId', reason: 'tooManySteps', limit: MAX_STEPS_PER_SEQUENCE } });
      stepId = await insertStep(trx, workspaceId, key, input, flowId);
      const waiting = await subscriptionsOfSequence(trx, workspaceId, key, { held: 'noSteps' });
      await startSubscriptions(trx, queue, workspaceId, waiting.map((s) => s.id));
    }
    return { stepId: String(stepId) };
  });
}

/**
 * Deletes a step. Its subscribers who were due for it move on to the step after it (due counted
 * from now), or finish when it was the last: the pending items for it find no match and do nothing.
 */
export async function deleteStep(db: Executor, queue: JobQueue, workspaceId: number, sequenceId: string, stepId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const key = await sequenceKey(trx, workspaceId, sequenceId);
    const step = await stepKey(trx, workspaceId, key, stepId);
    const steps = await stepRecordsOf(trx, workspaceId, [key]);
    const gone = steps.find((s) => s.id === step)!;
    const next = stepAfter(steps, gone);
    const waiting = await subscriptionsOfSequence(trx, workspaceId, key, { nextStepId: step });
    await deleteStepRow(trx, step);
    if (next) await startSubscriptions(trx, queue, workspaceId, waiting.map((s) => s.id), new Date(), new Map(waiting.map((s) => [s.id, next.id])));
    else await setProgress(trx, waiting.map((s) => s.id), { nextStepId: null, nextRunAt: null, held: null });
  });
}

/** Who a step reached and what happened, newest first, with the total for the filter. */
export async function listStepContacts(db: Executor, workspaceId: number, sequenceId: string, stepId: string, eventType: StepEventType | undefined, p: PageRequest) {
  const key = await sequenceKey(db, workspaceId, sequenceId);
  const step = await stepKey(db, workspaceId, key, stepId);
  let total = 0;
  const page = await fetchPage(
    p,
    async () => (total = await countStepEvents(db, workspaceId, step, eventType)),
    (w) => stepEventPage(db, workspaceId, step, eventType, w),
  );
  return { data: page.data, total, pageCount: page.pageCount };
}
