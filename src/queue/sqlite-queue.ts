import { sql, type Selectable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { JobsTable } from '../db/types.js';
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
  // The partial unique index on key (unfailed rows) turns a duplicate into "nothing inserted".
  const inserted = await db
    .insertInto('jobs')
    .values({ task: job.task, payload: job.payload, run_at: job.runAt, max_attempts: job.maxAttempts, key: job.key, created_at: at, updated_at: at })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: String(inserted.id), created: true };
  const existing = await db.selectFrom('jobs').select('id').where('key', '=', job.key).where('failed_at', 'is', null).executeTakeFirstOrThrow();
  return { id: String(existing.id), created: false };
}

/**
 * Claims up to `limit` due jobs of `tasks` for `workerId` in one UPDATE ... RETURNING, so two
 * workers (or processes) can never claim the same row: SQLite runs one write at a time. Due means
 * waiting with tries left, or holding an expired lease (its worker died mid-try). The try is
 * counted at the claim, so a try that never reported back still counts.
 */
export async function claimJobs(db: Executor, o: { workerId: string; tasks: string[]; limit: number; now: Date; leaseMs: number }): Promise<JobRow[]> {
  const now = o.now.toISOString();
  const rows = await db
    .updateTable('jobs')
    .set({
      locked_by: o.workerId,
      locked_until: new Date(o.now.getTime() + o.leaseMs).toISOString(),
      attempts: sql`attempts + 1`,
      updated_at: now,
    })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('failed_at', 'is', null)
        .where('run_at', '<=', now)
        .where('task', 'in', o.tasks)
        .where((w) => w.or([w.and([w('locked_until', 'is', null), w('attempts', '<', w.ref('max_attempts'))]), w('locked_until', '<=', now)]))
        .orderBy('run_at')
        .orderBy('id')
        .limit(o.limit),
    )
    .returningAll()
    .execute();
  return rows.sort((a, b) => (a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : a.id - b.id));
}

/** When the next waiting job of `tasks` is due (null: none waits). */
export async function nextRunAt(db: Executor, tasks: string[]): Promise<string | null> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.min('run_at').as('next'))
    .where('failed_at', 'is', null)
    .where('locked_until', 'is', null)
    .where('task', 'in', tasks)
    .executeTakeFirst();
  return (row?.next as string | null | undefined) ?? null;
}

/** A finished job leaves nothing behind. */
export async function completeJob(db: Executor, id: number, workerId: string): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', id).where('locked_by', '=', workerId).execute();
}

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
