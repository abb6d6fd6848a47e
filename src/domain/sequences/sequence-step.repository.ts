import type { Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import type { SequenceStepsTable } from '../../db/types.js';
import { bool, idString, nowIso, parseJson, toBool } from '../../db/values.js';
import type { SequenceStep, StepContact, StepEventType, UpsertStepInput, WeekDay } from './sequence-step.schema.js';
import type { StepTiming } from './sequence-schedule.js';

/** A step as the runner needs it: its timing, flow and place in the sequence. */
export interface StepRecord extends StepTiming {
  id: number;
  sequenceId: number;
  position: number;
  flowId: number | null;
  isActive: boolean;
}

type StepRow = Selectable<SequenceStepsTable>;

const toRecord = (r: StepRow): StepRecord => ({
  id: r.id,
  sequenceId: r.sequence_id,
  position: r.step_order,
  delayUnit: r.delay_unit as StepRecord['delayUnit'],
  delayDays: r.delay_days,
  delayMinutes: r.delay_minutes,
  specificDateTime: r.specific_date_time,
  flowId: r.flow_id,
  isActive: toBool(r.is_active),
  anytime: toBool(r.anytime),
  sendTimeStart: r.send_time_start,
  sendTimeEnd: r.send_time_end,
  sendDays: parseJson<WeekDay[]>(r.send_days),
});

export const toStep = (r: StepRow): SequenceStep => ({
  id: idString(r.id),
  sequenceId: idString(r.sequence_id),
  order: r.step_order,
  delayUnit: r.delay_unit as SequenceStep['delayUnit'],
  delayDays: r.delay_days,
  delayMinutes: r.delay_minutes,
  specificDateTime: r.specific_date_time,
  flowId: r.flow_id === null ? null : idString(r.flow_id),
  isActive: toBool(r.is_active),
  anytime: toBool(r.anytime),
  sendTimeStart: r.send_time_start,
  sendTimeEnd: r.send_time_end,
  sendDays: parseJson<WeekDay[]>(r.send_days),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The steps of these sequences in run order (position, then creation), one statement. */
export async function stepRowsOf(db: Executor, workspaceId: number, sequenceIds: readonly number[]): Promise<StepRow[]> {
  if (sequenceIds.length === 0) return [];
  return db
    .selectFrom('sequence_steps')
    .selectAll()
    .where('sequence_id', 'in', [...sequenceIds])
    .where('workspace_id', '=', workspaceId)
    .orderBy('sequence_id')
    .orderBy('step_order')
    .orderBy('id')
    .execute();
}

export const stepRecordsOf = async (db: Executor, workspaceId: number, sequenceIds: readonly number[]): Promise<StepRecord[]> =>
  (await stepRowsOf(db, workspaceId, sequenceIds)).map(toRecord);

export async function findStepRow(db: Executor, workspaceId: number, sequenceId: number, stepId: number): Promise<StepRow | null> {
  const row = await db.selectFrom('sequence_steps').selectAll().where('id', '=', stepId).where('sequence_id', '=', sequenceId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row ?? null;
}

export async function countSteps(db: Executor, sequenceId: number): Promise<number> {
  return countRows(db.selectFrom('sequence_steps').where('sequence_id', '=', sequenceId));
}

const stepValues = (input: UpsertStepInput, flowId: number | null) => ({
  step_order: input.order,
  delay_unit: input.delayUnit,
  delay_days: input.delayDays ?? null,
  delay_minutes: input.delayMinutes ?? null,
  specific_date_time: input.specificDateTime === undefined ? null : new Date(input.specificDateTime).toISOString(),
  flow_id: flowId,
  is_active: bool(input.isActive),
  anytime: bool(input.sendTimeStart === undefined),
  send_time_start: input.sendTimeStart ?? null,
  send_time_end: input.sendTimeEnd ?? null,
  send_days: JSON.stringify(input.sendDays ?? []),
});

export async function insertStep(db: Executor, workspaceId: number, sequenceId: number, input: UpsertStepInput, flowId: number | null): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('sequence_steps')
    .values({ workspace_id: workspaceId, sequence_id: sequenceId, ...stepValues(input, flowId), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Replaces the step's fields (PUT); the caller has checked it is the sequence's. */
export async function replaceStep(db: Executor, stepId: number, input: UpsertStepInput, flowId: number | null): Promise<void> {
  await db.updateTable('sequence_steps').set({ ...stepValues(input, flowId), updated_at: nowIso() }).where('id', '=', stepId).execute();
}

export async function deleteStepRow(db: Executor, stepId: number): Promise<void> {
  await db.deleteFrom('sequence_steps').where('id', '=', stepId).execute();
}

/* Where subscribers are ------------------------------------------------------------------------- */

/** A subscription as the runner reads it, with what its checks need (one statement for many). */
export interface RunnableSubscription {
  id: number;
  workspaceId: number;
  contactId: number;
  sequenceId: number;
  nextStepId: number | null;
  nextRunAt: string | null;
  held: string | null;
  sequenceActive: boolean;
  sequenceName: string;
  timeZone: string;
  firstName: string | null;
  lastName: string | null;
  blocked: boolean;
}

export async function runnableSubscriptions(db: Executor, ids: readonly number[]): Promise<RunnableSubscription[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('sequence_subscriptions as s')
    .innerJoin('sequences as q', 'q.id', 's.sequence_id')
    .innerJoin('workspaces as w', 'w.id', 's.workspace_id')
    .innerJoin('contacts as c', 'c.id', 's.contact_id')
    .select([
      's.id', 's.workspace_id', 's.contact_id', 's.sequence_id', 's.next_step_id', 's.next_run_at', 's.held',
      'q.is_active', 'q.name', 'w.timezone', 'c.first_name', 'c.last_name', 'c.blocked_at',
    ])
    .where('s.id', 'in', [...ids])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    workspaceId: r.workspace_id,
    contactId: r.contact_id,
    sequenceId: r.sequence_id,
    nextStepId: r.next_step_id,
    nextRunAt: r.next_run_at === null ? null : new Date(r.next_run_at).toISOString(),
    held: r.held,
    sequenceActive: toBool(r.is_active),
    sequenceName: r.name,
    timeZone: r.timezone ?? 'UTC',
    firstName: r.first_name,
    lastName: r.last_name,
    blocked: r.blocked_at !== null,
  }));
}

/** Subscriptions of a sequence with their place in it: those waiting (`held`) or at a given step. */
export async function subscriptionsOfSequence(
  db: Executor,
  workspaceId: number,
  sequenceId: number,
  where: { held: string } | { nextStepId: number },
): Promise<{ id: number; nextStepId: number | null }[]> {
  let q = db.selectFrom('sequence_subscriptions').select(['id', 'next_step_id']).where('sequence_id', '=', sequenceId).where('workspace_id', '=', workspaceId);
  q = 'held' in where ? q.where('held', '=', where.held) : q.where('next_step_id', '=', where.nextStepId);
  return (await q.execute()).map((r) => ({ id: r.id, nextStepId: r.next_step_id }));
}

/**
 * Moves subscriptions on: the same next step and due time for all of `ids` (one statement). With
 * `expect`, only a subscription still at that step and due time moves (a compare-and-set: a
 * second runner of the same item changes nothing); answers how many moved.
 */
export async function setProgress(
  db: Executor,
  ids: readonly number[],
  to: { nextStepId: number | null; nextRunAt: string | null; held: string | null },
  expect?: { nextStepId: number; nextRunAt: string },
): Promise<number> {
  if (ids.length === 0) return 0;
  let q = db.updateTable('sequence_subscriptions').set({ next_step_id: to.nextStepId, next_run_at: to.nextRunAt, held: to.held }).where('id', 'in', [...ids]);
  if (expect) q = q.where('next_step_id', '=', expect.nextStepId).where('next_run_at', '=', expect.nextRunAt);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/* What steps did ---------------------------------------------------------------------------------- */

export interface NewStepEvent {
  workspaceId: number;
  sequenceId: number;
  stepId: number;
  contactId: number;
  type: StepEventType;
  reason: string | null;
  at: string;
}

export async function insertStepEvents(db: Executor, events: readonly NewStepEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('sequence_step_events')
    .values(events.map((e) => ({ workspace_id: e.workspaceId, sequence_id: e.sequenceId, step_id: e.stepId, contact_id: e.contactId, event_type: e.type, reason: e.reason, created_at: e.at })))
    .execute();
}

const stepEvents = (db: Executor, workspaceId: number, stepId: number, eventType: StepEventType | undefined) => {
  let q = db.selectFrom('sequence_step_events as e').where('e.step_id', '=', stepId).where('e.workspace_id', '=', workspaceId);
  if (eventType) q = q.where('e.event_type', '=', eventType);
  return q;
};

export const countStepEvents = (db: Executor, workspaceId: number, stepId: number, eventType?: StepEventType) => countRows(stepEvents(db, workspaceId, stepId, eventType));

/** A page of a step's events, newest first, with each contact's names. */
export async function stepEventPage(db: Executor, workspaceId: number, stepId: number, eventType: StepEventType | undefined, window: { limit: number; offset: number }): Promise<StepContact[]> {
  const rows = await stepEvents(db, workspaceId, stepId, eventType)
    .innerJoin('contacts as c', 'c.id', 'e.contact_id')
    .select(['e.contact_id', 'c.first_name', 'c.last_name', 'e.event_type', 'e.reason', 'e.created_at'])
    .orderBy('e.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map((r) => ({
    contactId: idString(r.contact_id),
    firstName: r.first_name,
    lastName: r.last_name,
    eventType: r.event_type as StepEventType,
    reason: r.reason,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
