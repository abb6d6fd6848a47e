import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { errorMessage, logJobFailure } from './failure.js';
import type { RunnerOptions } from './runner-options.js';
import { completeJob, failJob, jobClaims, releaseJobs, renewLeases, retryJob, type JobClaims, type JobRow } from './sqlite-queue.js';
import { JobReleasedError, retryDelayMs, type JobRunner } from './types.js';
import { onEnqueue } from './wake.js';
import { failedStatementOf } from '../db/database.js';

const DEFAULT_LEASE_MS = 30_000;

/**
 * The SQLite runner: the server process claims due jobs from the jobs table (one UPDATE ...
 * RETURNING with a lease) and runs up to `concurrency` at a time. It looks again when a job ends,
 * when an enqueue in this process wakes it, when the next waiting job falls due, and at least
 * every `pollIntervalMs` (jobs enqueued by another process, leases that expired).
 *
 * A claim is a lease, renewed while the job runs: if the process dies, the lease runs out and the
 * job is claimed again (by this file's next server), its interrupted try counted.
 */
export async function startSqliteRunner(o: RunnerOptions): Promise<JobRunner> {
  const runner = new SqliteRunner(o);
  runner.start();
  return runner;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

class SqliteRunner implements JobRunner {
  readonly engine = 'sqlite' as const;
  private readonly workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly db;
  private readonly tasks: string[];
  private readonly claims: JobClaims;
  private readonly leaseMs: number;
  private readonly running = new Map<number, Running>();
  private stopping = false;
  private stopped: Promise<void> | null = null;
  /** The pass in progress (claims), so stop() can wait for it. */
  private pass: Promise<void> | null = null;
  /** Someone asked for a look while a pass was running: look again when it ends. */
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private unsubscribe: () => void = () => {};

  constructor(private readonly o: RunnerOptions) {
    this.db = o.database.db;
    this.tasks = Object.keys(o.tasks);
    this.claims = jobClaims(this.tasks);
    this.leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  }

  start() {
    if (this.tasks.length === 0) return; // nothing this process could run
    this.unsubscribe = onEnqueue(() => this.look());
    this.leaseTimer = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.leaseTimer.unref();
    this.look();
  }

  /** Claims what is due now (or, when a pass is running, makes it look once more). */
  private look(): void {
    if (this.stopping) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pass = this.claimPass()
      .catch((err: unknown) => {
        this.o.logger.error({ err }, 'job queue: claiming due jobs failed; trying again at the next poll');
        return this.o.pollIntervalMs;
      })
      .then((wait) => {
        this.pass = null;
        if (this.stopping) return;
        if (this.again) return this.look();
        this.timer = setTimeout(() => this.look(), wait);
        this.timer.unref();
      });
  }

  /** Fills the free slots; answers how long to sleep before the next look. */
  private async claimPass(): Promise<number> {
    for (;;) {
      this.again = false;
      const free = this.o.concurrency - this.running.size;
      if (free > 0) {
        const jobs = await this.claims.claim(this.db, { workerId: this.workerId, limit: free, now: new Date(), leaseMs: this.leaseMs });
        if (this.stopping) {
          // Claimed as the stop began: hand them straight back, untried.
          await releaseJobs(this.db, jobs.map((j) => j.id), this.workerId);
          return 0;
        }
        for (const job of jobs) this.launch(job);
        if (jobs.length === free) continue; // there may be more
      }
      const next = free > 0 ? await this.claims.nextRunAt(this.db) : null;
      if (this.again) continue;
      const untilNext = next === null ? Infinity : Math.max(0, Date.parse(next) - Date.now());
      return Math.min(this.o.pollIntervalMs, untilNext);
    }
  }

  private launch(job: JobRow) {
    const controller = new AbortController();
    const done = this.execute(job, controller.signal).catch((err: unknown) => {
      // Only our own bookkeeping can land here (the handler's errors are the job's): the lease
      // runs out and the job is tried again.
      this.o.logger.error({ err, jobId: String(job.id), task: job.task }, 'job queue: could not record the end of a job');
    });
    this.running.set(job.id, { controller, done });
    void done.finally(() => {
      this.running.delete(job.id);
      this.look();
    });
  }

  private async execute(job: JobRow, signal: AbortSignal): Promise<void> {
    const payload: unknown = JSON.parse(job.payload);
    if (job.attempts > job.max_attempts) {
      // Its last try was claimed by a process that died before reporting back.
      const err = new Error('The worker running its last try stopped before the try ended');
      await this.fail(job, payload, err);
      return;
    }
    const log = this.o.logger.child({ task: job.task, jobId: String(job.id), attempt: job.attempts });
    let released: Promise<never> = new Promise(() => {});
    if (!signal.aborted) {
      released = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new JobReleasedError()), { once: true }));
      released.catch(() => {});
    }
    try {
      const handler = this.o.tasks[job.task];
      await Promise.race([
        handler(payload, { job: { id: String(job.id), task: job.task, attempt: job.attempts, maxAttempts: job.max_attempts, key: job.key }, signal, logger: log }),
        released,
      ]);
    } catch (err) {
      if (signal.aborted) return; // released by stop(): the row is already given back
      if (job.attempts >= job.max_attempts) {
        await this.fail(job, payload, err);
        log.warn({ error: errorMessage(err), sql: failedStatementOf(err) }, 'job failed its last try');
      } else {
        const base = Math.max(Date.now(), Date.parse(job.run_at));
        await retryJob(this.db, job.id, this.workerId, errorMessage(err), new Date(base + retryDelayMs(job.attempts)).toISOString());
        log.info({ error: errorMessage(err), sql: failedStatementOf(err) }, 'job failed; it will be tried again');
      }
      return;
    }
    if (signal.aborted) return; // finished after its release: another worker owns it now
    await completeJob(this.db, job.id, this.workerId);
  }

  /** The failed row and its error log, together. */
  private async fail(job: JobRow, payload: unknown, err: unknown) {
    await this.db.transaction().execute(async (trx) => {
      if (await failJob(trx, job.id, this.workerId, errorMessage(err))) await logJobFailure(trx, job.task, payload, err);
    });
  }

  private async renew() {
    const ids = [...this.running.keys()];
    if (ids.length === 0 || this.stopping) return;
    try {
      await renewLeases(this.db, ids, this.workerId, new Date(Date.now() + this.leaseMs));
    } catch (err) {
      this.o.logger.error({ err }, 'job queue: could not renew job leases');
    }
  }

  stop(): Promise<void> {
    return (this.stopped ??= this.shutdown());
  }

  private async shutdown() {
    this.stopping = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    await this.pass;
    let timeout: NodeJS.Timeout | undefined;
    const finished = Promise.all([...this.running.values()].map((r) => r.done)).then(() => true);
    const timedOut = new Promise<false>((resolve) => (timeout = setTimeout(() => resolve(false), this.o.shutdownTimeoutMs)));
    const allDone = await Promise.race([finished, timedOut]);
    clearTimeout(timeout);
    if (!allDone) {
      const left = [...this.running.entries()];
      this.o.logger.warn({ jobs: left.map(([id]) => String(id)) }, 'job queue: releasing jobs still running at the shutdown timeout');
      // Released first, then aborted: a handler that finishes in between can no longer complete
      // the row (it is not ours any more), so the job runs once more rather than not at all.
      await releaseJobs(this.db, left.map(([id]) => id), this.workerId);
      for (const [, r] of left) r.controller.abort();
      await Promise.all(left.map(([, r]) => r.done));
    }
    if (this.leaseTimer) clearInterval(this.leaseTimer);
  }
}
