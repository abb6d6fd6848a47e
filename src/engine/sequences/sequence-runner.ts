import { inTransaction, type Executor } from '../../db/database.js';
import type { ChannelAdapter } from '../../domain/channels/channel-adapter.js';
import { destinationsOf } from '../../domain/flows/flow-destination.repository.js';
import { findFlowById } from '../../domain/flows/flow.repository.js';
import type { Flow } from '../../domain/flows/flow.schema.js';
import { enqueueRuns, stepAfter, type ScheduledRun, type StepItem } from '../../domain/sequences/sequence-progress.service.js';
import { nextOpenMoment, stepDueAt, windowOpen } from '../../domain/sequences/sequence-schedule.js';
import {
  insertStepEvents,
  runnableSubscriptions,
  setProgress,
  stepRecordsOf,
  type NewStepEvent,
  type RunnableSubscription,
  type StepRecord,
} from '../../domain/sequences/sequence-step.repository.js';
import type { EngineDeps } from '../context.js';
import { runFlow } from '../flows/flow-runner.js';

/** Subscribers handled per transaction when the adapter joins one (the sandbox). */
const CHUNK = 250;

/** Reasons a due step sends nothing, yet counts as taken: the subscriber moves on to the next step. */
const skipReasons = new Set(['messagingWindowClosed', 'threadNotOwned', 'noRecipient']);

/**
 * The sequence-steps task: each item is a subscriber due for a step. An item acts only while the
 * subscription still stands at that step and time (else it is stale: the contact unsubscribed, the
 * step was deleted, another runner took it) and only once its time has come by the engine's clock.
 *
 * A due step: when the sequence is switched off the subscriber is held (the switch back on resumes
 * it); outside the step's send window it moves to the next opening; otherwise the subscriber is
 * moved on to the next step first (a compare-and-set on its row, so two runners never both send),
 * then the step's flow runs, unless the step is off, has no flow, the contact is blocked or has
 * no conversation, the 24-hour window is closed or another app holds the thread: each of those is
 * a `step:skipped` event with its reason. With the sandbox, a chunk of subscribers, their sends
 * and their events commit together: exactly once across crashes. With a network adapter a send
 * happens after the move on is committed: at most once.
 */
export async function runSequenceSteps(deps: EngineDeps, items: readonly StepItem[]): Promise<void> {
  const now = deps.clock.now();
  const wanted = new Map(items.map((i) => [i.subscriptionId, i]));
  const subs = await runnableSubscriptions(deps.db, [...wanted.keys()]);
  const due: RunnableSubscription[] = [];
  const early = new Map<number, ScheduledRun[]>();
  for (const sub of subs) {
    const item = wanted.get(sub.id)!;
    if (sub.workspaceId !== item.workspaceId || sub.nextStepId !== item.stepId || sub.held !== null || sub.nextRunAt === null) continue;
    if (Date.parse(sub.nextRunAt) <= now.getTime()) due.push(sub);
    else push(early, sub.workspaceId, { subscriptionId: sub.id, stepId: item.stepId, dueAt: new Date(sub.nextRunAt) });
  }
  // Run before their time (a clock behind another process's): back in line for it.
  for (const [workspaceId, runs] of early) await enqueueRuns(deps.db, deps.queue, workspaceId, runs);

  const byWorkspace = new Map<number, RunnableSubscription[]>();
  for (const sub of due) push(byWorkspace, sub.workspaceId, sub);
  const join = deps.adapter.joinTransaction?.bind(deps.adapter);
  for (const [workspaceId, list] of byWorkspace) {
    for (let i = 0; i < list.length; i += CHUNK) {
      const chunk = list.slice(i, i + CHUNK);
      if (join) await inTransaction(deps.db, (trx) => runChunk(deps, trx, join(trx), workspaceId, chunk, now));
      else await runChunk(deps, deps.db, deps.adapter, workspaceId, chunk, now);
      // On SQLite every statement runs synchronously: without a turn of the event loop between
      // chunks, a job of thousands of subscribers would hold the process (requests, lease renewals,
      // the stall watchdog) for its whole length.
      await turnOfEventLoop();
    }
  }
}

const turnOfEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

async function runChunk(deps: EngineDeps, db: Executor, adapter: ChannelAdapter, workspaceId: number, subs: readonly RunnableSubscription[], now: Date): Promise<void> {
  const steps = await stepRecordsOf(db, workspaceId, [...new Set(subs.map((s) => s.sequenceId))]);
  const stepsOf = new Map<number, StepRecord[]>();
  for (const step of steps) push(stepsOf, step.sequenceId, step);
  const flows = new Map<number, Flow | null>();
  for (const flowId of new Set(steps.map((s) => s.flowId).filter((id): id is number => id !== null))) flows.set(flowId, await findFlowById(db, workspaceId, flowId));
  const destinations = await destinationsOf(db, workspaceId, subs.map((s) => s.contactId));
  const events: NewStepEvent[] = [];
  const runs: ScheduledRun[] = [];
  const at = now.toISOString();

  for (const sub of subs) {
    const own = stepsOf.get(sub.sequenceId) ?? [];
    const step = own.find((s) => s.id === sub.nextStepId);
    // Deleted since: deleteStep has moved its subscribers on.
    if (!step) continue;
    const expect = { nextStepId: step.id, nextRunAt: sub.nextRunAt! };
    const event = (type: NewStepEvent['type'], reason: string | null) => events.push({ workspaceId, sequenceId: sub.sequenceId, stepId: step.id, contactId: sub.contactId, type, reason, at });

    if (!sub.sequenceActive) {
      if (await setProgress(db, [sub.id], { ...expect, held: 'sequenceInactive' }, expect)) event('step:deferred', 'sequenceInactive');
      continue;
    }
    if (!windowOpen(step, now, sub.timeZone)) {
      const opens = nextOpenMoment(step, now, sub.timeZone);
      if (await setProgress(db, [sub.id], { nextStepId: step.id, nextRunAt: opens.toISOString(), held: null }, expect)) {
        runs.push({ subscriptionId: sub.id, stepId: step.id, dueAt: opens });
        event('step:deferred', 'outsideSendWindow');
      }
      continue;
    }
    const next = stepAfter(own, step);
    const nextDue = next ? stepDueAt(next, now, sub.timeZone) : null;
    const moved = await setProgress(db, [sub.id], { nextStepId: next?.id ?? null, nextRunAt: nextDue?.toISOString() ?? null, held: null }, expect);
    if (!moved) continue;
    if (next) runs.push({ subscriptionId: sub.id, stepId: next.id, dueAt: nextDue! });

    const flow = step.flowId === null ? null : flows.get(step.flowId);
    const destination = destinations.get(sub.contactId);
    if (!step.isActive) event('step:skipped', 'stepInactive');
    else if (sub.blocked) event('step:skipped', 'contactBlocked');
    else if (!flow) event('step:skipped', 'noFlow');
    else if (!destination) event('step:skipped', 'noConversation');
    else {
      const contact = { id: sub.contactId, firstName: sub.firstName, lastName: sub.lastName };
      const result = await runFlow({ db, adapter, queue: deps.queue, images: deps.images }, flow, { workspaceId, contact, destination }, `sequence:${sub.id}:${step.id}:${expect.nextRunAt}`, now);
      if (result.status === 'sent') event('message:sent', null);
      else event(skipReasons.has(result.reason) ? 'step:skipped' : 'message:failed', result.reason);
    }
  }
  await insertStepEvents(db, events);
  await enqueueRuns(db, deps.queue, workspaceId, runs);
}
