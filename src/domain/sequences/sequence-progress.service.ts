import type { Executor } from '../../db/database.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { stepDueAt } from './sequence-schedule.js';
import { runnableSubscriptions, setProgress, stepRecordsOf, type StepRecord } from './sequence-step.repository.js';

/**
 * Where each subscriber is in its sequence, and the jobs that move it on. A subscription holds
 * its next step and when it is due (`next_run_at`); a job item names the subscription and that
 * step. The runner (src/engine/sequences/) acts only on an item that still matches the row, so a
 * stale item (the contact unsubscribed, the step was deleted or moved) does nothing: that is how
 * unsubscribing cancels what is pending.
 *
 * Items due in the same second share a batch job (up to STEP_ITEMS_PER_JOB), so 100,000
 * subscribers due at 09:00 are a few dozen jobs, not 100,000.
 */
export const SEQUENCE_STEP_TASK = 'sequence-steps';
export const STEP_ITEMS_PER_JOB = 2_000;

/** Why a subscriber waits with no job: the sequence is switched off, or has no step yet. */
export type HeldReason = 'sequenceInactive' | 'noSteps';

export interface StepItem {
  workspaceId: number;
  subscriptionId: number;
  stepId: number;
}

export interface ScheduledRun {
  subscriptionId: number;
  stepId: number;
  dueAt: Date;
}

/** Job items for these runs, grouped by the second they are due in (one statement per group). */
export async function enqueueRuns(db: Executor, queue: JobQueue, workspaceId: number, runs: readonly ScheduledRun[]): Promise<void> {
  const bySecond = new Map<string, StepItem[]>();
  const now = Date.now();
  for (const run of runs) {
    // Due already: at once. Later: rounded up, so a job never runs before the moment it is for.
    const due = run.dueAt.getTime();
    const second = due <= now ? 'now' : new Date(Math.ceil(due / 1000) * 1000).toISOString();
    let items = bySecond.get(second);
    if (!items) bySecond.set(second, (items = []));
    items.push({ workspaceId, subscriptionId: run.subscriptionId, stepId: run.stepId });
  }
  for (const [runAt, items] of bySecond) {
    for (let i = 0; i < items.length; i += STEP_ITEMS_PER_JOB) {
      const chunk = items.slice(i, i + STEP_ITEMS_PER_JOB);
      const when = runAt === 'now' ? {} : { runAt };
      await queue.enqueue(db, { task: SEQUENCE_STEP_TASK, payload: chunk.map((c) => ({ ...c })), ...when, batch: { key: `sequence-steps:${runAt}`, max: STEP_ITEMS_PER_JOB } });
    }
  }
}

/** Stores each subscription's next step and due time (grouped: one UPDATE per step and time) and enqueues the runs. */
export async function scheduleRuns(db: Executor, queue: JobQueue, workspaceId: number, runs: readonly ScheduledRun[]): Promise<void> {
  const groups = new Map<string, { stepId: number; dueAt: string; ids: number[] }>();
  for (const run of runs) {
    const dueAt = run.dueAt.toISOString();
    const key = `${run.stepId}@${dueAt}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { stepId: run.stepId, dueAt, ids: [] }));
    group.ids.push(run.subscriptionId);
  }
  for (const g of groups.values()) await setProgress(db, g.ids, { nextStepId: g.stepId, nextRunAt: g.dueAt, held: null });
  await enqueueRuns(db, queue, workspaceId, runs);
}

/** The step after `step` in run order, or null when it was the last. */
export const stepAfter = (steps: readonly StepRecord[], step: { position: number; id: number }): StepRecord | null =>
  steps.find((s) => s.position > step.position || (s.position === step.position && s.id > step.id)) ?? null;

/**
 * Puts new (or resumed) subscriptions on their way, in the caller's transaction: each is due for
 * `from` (its sequence's first step when null) counted from `now`, or waits, held, while its
 * sequence is switched off or has no steps. Two statements to read, then one per group to write.
 */
export async function startSubscriptions(
  db: Executor,
  queue: JobQueue,
  workspaceId: number,
  subscriptionIds: readonly number[],
  now = new Date(),
  from?: ReadonlyMap<number, number | null>,
): Promise<void> {
  if (subscriptionIds.length === 0) return;
  const subs = await runnableSubscriptions(db, subscriptionIds);
  const steps = await stepRecordsOf(db, workspaceId, [...new Set(subs.map((s) => s.sequenceId))]);
  const runs: ScheduledRun[] = [];
  const held = new Map<HeldReason, number[]>([['sequenceInactive', []], ['noSteps', []]]);
  for (const sub of subs) {
    if (sub.workspaceId !== workspaceId) continue;
    const own = steps.filter((s) => s.sequenceId === sub.sequenceId);
    const wanted = from?.get(sub.id);
    const step = wanted === undefined || wanted === null ? own[0] : own.find((s) => s.id === wanted);
    if (!step) held.get('noSteps')!.push(sub.id);
    else if (!sub.sequenceActive) held.get('sequenceInactive')!.push(sub.id);
    else runs.push({ subscriptionId: sub.id, stepId: step.id, dueAt: stepDueAt(step, now, sub.timeZone) });
  }
  for (const [reason, ids] of held) await setProgress(db, ids, { nextStepId: null, nextRunAt: null, held: reason });
  await scheduleRuns(db, queue, workspaceId, runs);
}
