import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { Logger } from '../observability/logger.js';

/**
 * graphile-worker keeps a job locked by a process that died (kill -9, out of memory, a lost host)
 * for 4 hours before any worker may take it again: a delayed reply would wait that long. So each
 * PostgreSQL runner beats for its workers (one row per worker id, `beat_at` from the database's
 * clock, so hosts need not agree on the time), and on every beat unlocks the jobs of workers silent
 * for `staleMs` with graphile's own force_unlock_workers, then forgets them. The unlocked job runs
 * again on a live worker, its interrupted try counted; handlers are written to be run again.
 *
 * The trade: a process whose event loop stalls longer than `staleMs` is taken for dead and its
 * running job may run a second time; the default (4 beats of WORKER_HEARTBEAT_MS) is far above
 * anything our handlers do synchronously.
 */
export interface Heartbeats {
  /** A worker of this process started: it beats from now on. */
  add(workerId: string): void;
  /** Stops beating and removes this process's rows (a clean stop leaves nothing to unlock). */
  stop(): Promise<void>;
}

export function startHeartbeats(o: { db: Executor; workerSchema: string; intervalMs: number; staleMs: number; logger: Logger }): Heartbeats {
  const ids = new Set<string>();
  let ticking: Promise<void> = Promise.resolve();
  let stopped = false;

  const beat = async () => {
    if (ids.size === 0) return;
    await o.db
      .insertInto('queue_worker_heartbeats')
      .values([...ids].map((worker_id) => ({ worker_id, worker_schema: o.workerSchema, beat_at: sql<string>`now()` })))
      .onConflict((oc) => oc.column('worker_id').doUpdateSet({ beat_at: sql<string>`now()` }))
      .execute();
  };

  const reap = async () => {
    const stale = sql<boolean>`beat_at < now() - make_interval(secs => ${o.staleMs / 1000})`;
    const silent = await o.db.selectFrom('queue_worker_heartbeats').select('worker_id').where('worker_schema', '=', o.workerSchema).where(stale).execute();
    if (silent.length === 0) return;
    const workerIds = silent.map((r) => r.worker_id);
    await sql`select ${sql.id(o.workerSchema, 'force_unlock_workers')}(${workerIds}::text[])`.execute(o.db);
    await o.db.deleteFrom('queue_worker_heartbeats').where('worker_id', 'in', workerIds).where(stale).execute();
    o.logger.warn({ workerIds }, 'job queue: unlocked the jobs of workers that stopped beating (a process died); they run again');
  };

  const tick = () => {
    ticking = ticking
      .then(async () => {
        if (stopped) return;
        await beat();
        await reap();
      })
      .catch((err: unknown) => o.logger.error({ err }, 'job queue: worker heartbeat failed; trying again at the next beat'));
  };
  const timer = setInterval(tick, o.intervalMs);
  timer.unref();
  tick();

  return {
    add(workerId) {
      ids.add(workerId);
      tick();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await ticking;
      if (ids.size > 0) await o.db.deleteFrom('queue_worker_heartbeats').where('worker_id', 'in', [...ids]).execute().catch((err: unknown) => o.logger.warn({ err }, 'job queue: could not remove heartbeats'));
    },
  };
}
