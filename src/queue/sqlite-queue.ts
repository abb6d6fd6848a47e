import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Executor } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { DB, JobsTable } from '../db/types.js';
import type { EnqueuedJob } from './types.js';
import type { NormalisedJob } from './enqueue.js';

/**
 * The SQLite queue's statements (the jobs table of migration 2026_11_23_0009). Every change to a
 * running job is guarded by `locked_by = <this worker>`: a worker that lost its lease (it stalled
 * past `locked_until` and another worker took the job) can no longer complete, retry or release it.
 */

export type JobRow = Selectable<JobsTable>;

export async function insertSqliteJob(db: Executor, job: NormalisedJob): Promise<EnqueuedJob> {
  const at = new Date().toISOString();
  if (job.batch) {
    const joined = await appendToBatch(db, job, job.batch, at);
    if (joined) return joined;
  }
  // The partial unique index on key (unfailed rows) turns a duplicate into "nothing inserted".
  const inserted = await insertJob.first(db, {
    task: job.task,
    payload: job.payload,
    runAt: job.runAt,
    maxAttempts: job.maxAttempts,
    key: job.key,
    batchKey: job.batch?.key ?? null,
    at,
  });
  if (inserted) return { id: String(inserted.id), created: true };
  const existing = await db.selectFrom('jobs').select('id').where('key', '=', job.key).where('failed_at', 'is', null).executeTakeFirstOrThrow();
  return { id: String(existing.id), created: false };
}

/**
 * Appends a batch job's items to the open job of its key (waiting for its first try, unclaimed:
 * SQLite runs one writer, so it cannot be claimed between the read and the write), when the result
 * holds at most `max` items and the open job is due no later than this one. Answers that job, or
 * null when a new one is needed.
 */
async function appendToBatch(db: Executor, job: NormalisedJob, batch: NonNullable<NormalisedJob['batch']>, at: string): Promise<EnqueuedJob | null> {
  const open = await openBatchJob.first(db, { task: job.task, batchKey: batch.key });
  if (!open || open.run_at > job.runAt) return null;
  const items = JSON.parse(open.payload) as unknown;
  if (!Array.isArray(items) || items.length + batch.items.length > batch.max) return null;
  // The stored items as they are, then the new ones: JSON array text without parsing each item again.
  const payload = items.length === 0 ? `[${batch.items.join(',')}]` : `${open.payload.slice(0, open.payload.lastIndexOf(']'))},${batch.items.join(',')}]`;
  await setPayload.run(db, { id: open.id, payload, at });
  return { id: String(open.id), created: false };
}

// Each enqueue runs these: compiled once (src/db/prepared.ts).
const insertJob = prepared((db, p: { task: string; payload: string; runAt: string; maxAttempts: number; key: string | null; batchKey: string | null; at: string }) =>
  db
    .insertInto('jobs')
    .values({ task: p.task, payload: p.payload, run_at: p.runAt, max_attempts: p.maxAttempts, key: p.key, batch_key: p.batchKey, created_at: p.at, updated_at: p.at })
    .onConflict((oc) => oc.doNothing())
    .returning('id'),
);

/** The newest open job of a batch key: waiting for its first try, unclaimed (jobs_batch_idx). */
const openBatchJob = prepared((db, p: { task: string; batchKey: string }) =>
  db
    .selectFrom('jobs')
    .select(['id', 'payload', 'run_at'])
    .where('batch_key', '=', p.batchKey)
    .where('locked_by', 'is', null)
    .where('failed_at', 'is', null)
    .where('attempts', '=', 0)
    .where('task', '=', p.task)
    .orderBy('id', 'desc')
    .limit(sql.lit(1)),
);

const setPayload = prepared((db, p: { id: number; payload: string; at: string }) => db.updateTable('jobs').set({ payload: p.payload, updated_at: p.at }).where('id', '=', p.id));

/**
 * Whether a job is due for a claim at `now`: not failed, its time come, one of `tasks`, and either
 * waiting with tries left or holding an expired lease (its worker died mid-try). The jobs of a
 * batch key run one at a time, oldest first: one is not due while another of its key runs (holds
 * a live lease) or an older one is due too. While one runs, the next items gather in one job.
 */
function due(eb: ExpressionBuilder<DB, 'jobs'>, tasks: readonly string[], now: string) {
  const other = eb
    .selectFrom('jobs as other')
    .select('other.id')
    .whereRef('other.batch_key', '=', 'jobs.batch_key')
    .where('other.failed_at', 'is', null)
    .where((o) =>
      o.or([
        o('other.locked_until', '>', now),
        o.and([o('other.id', '<', o.ref('jobs.id')), o('other.run_at', '<=', now), o.or([o('other.locked_until', 'is', null), o('other.locked_until', '<=', now)])]),
      ]),
    );
  return eb.and([
    eb('failed_at', 'is', null),
    eb('run_at', '<=', now),
    eb('task', 'in', [...tasks]),
    eb.or([eb.and([eb('locked_until', 'is', null), eb('attempts', '<', eb.ref('max_attempts'))]), eb('locked_until', '<=', now)]),
    eb.or([eb('batch_key', 'is', null), eb.not(eb.exists(other))]),
  ]);
}

export interface JobClaims {
  /**
   * Claims up to `limit` due jobs for `workerId` in one UPDATE ... RETURNING, so two workers (or
   * processes) can never claim the same row: SQLite runs one write at a time. The try is counted
   * at the claim, so a try that never reported back still counts. A cheap read first: a runner
   * looks after every job it ends, mostly to find nothing, and the write would cost ten times more.
   */
  claim(db: Executor, o: { workerId: string; limit: number; now: Date; leaseMs: number }): Promise<JobRow[]>;
  /** When the next waiting job is due (null: none waits). */
  nextRunAt(db: Executor): Promise<string | null>;
}

/** The claim statements of a runner's tasks (fixed for its life), compiled once (src/db/prepared.ts). */
export function jobClaims(tasks: readonly string[]): JobClaims {
  const anyDue = prepared((db, p: { now: string }) => db.selectFrom('jobs').select('id').where((eb) => due(eb, tasks, p.now)).limit(sql.lit(1)));
  const claimDue = prepared((db, p: { workerId: string; lockedUntil: string; now: string; limit: number }) =>
    db
      .updateTable('jobs')
      .set({ locked_by: p.workerId, locked_until: p.lockedUntil, attempts: sql`attempts + 1`, updated_at: p.now })
      .where('id', 'in', (eb) => eb.selectFrom('jobs').select('id').where((w) => due(w, tasks, p.now)).orderBy('run_at').orderBy('id').limit(p.limit))
      .returningAll(),
  );
  const next = prepared((db) =>
    db.selectFrom('jobs').select((eb) => eb.fn.min('run_at').as('next')).where('failed_at', 'is', null).where('locked_until', 'is', null).where('task', 'in', [...tasks]),
  );
  return {
    async claim(db, o) {
      const now = o.now.toISOString();
      if (!(await anyDue.first(db, { now }))) return [];
      const rows = await claimDue.all(db, { workerId: o.workerId, lockedUntil: new Date(o.now.getTime() + o.leaseMs).toISOString(), now, limit: o.limit });
      return rows.sort((a, b) => (a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : a.id - b.id));
    },
    async nextRunAt(db) {
      const row = await next.first(db, {});
      return (row?.next as string | null | undefined) ?? null;
    },
  };
}

/** A finished job leaves nothing behind. */
export async function completeJob(db: Executor, id: number, workerId: string): Promise<void> {
  await deleteJob.run(db, { id, workerId });
}

const deleteJob = prepared((db, p: { id: number; workerId: string }) => db.deleteFrom('jobs').where('id', '=', p.id).where('locked_by', '=', p.workerId));

/** A failed try with tries left: unlocked, due again after the backoff. */
export async function retryJob(db: Executor, id: number, workerId: string, error: string, runAt: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ locked_by: null, locked_until: null, last_error: error, run_at: runAt, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}

/** The last try failed: the row stays, failed, for inspection; its key no longer blocks a new job. */
export async function failJob(db: Executor, id: number, workerId: string, error: string): Promise<boolean> {
  const at = new Date().toISOString();
  const result = await db
    .updateTable('jobs')
    .set({ locked_by: null, locked_until: null, last_error: error, failed_at: at, updated_at: at })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives unfinished jobs back at shutdown: due at once for any worker, the interrupted try not counted. */
export async function releaseJobs(db: Executor, ids: number[], workerId: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('jobs')
    .set({ locked_by: null, locked_until: null, attempts: sql`max(attempts - 1, 0)`, updated_at: new Date().toISOString() })
    .where('id', 'in', ids)
    .where('locked_by', '=', workerId)
    .execute();
}

/** Extends the leases of the jobs this worker is still running. */
export async function renewLeases(db: Executor, ids: number[], workerId: string, until: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('jobs').set({ locked_until: until.toISOString() }).where('id', 'in', ids).where('locked_by', '=', workerId).execute();
}
