import { run, type Runner, type RunnerOptions as RunnerOptions_, type Task, type TaskList as GraphileTaskList } from 'graphile-worker';
import { errorMessage, logJobFailure } from './failure.js';
import { freeKey, migrateWorkerSchema, uncountTry } from './postgres-queue.js';
import { graphileLogger } from './postgres-logger.js';
import { startHeartbeats } from './postgres-heartbeats.js';
import { EventEmitter } from 'node:events';
import type { RunnerOptions } from './runner-options.js';
import { JobReleasedError, type JobRunner, type TaskHandler } from './types.js';
import { failedStatementOf } from '../db/database.js';

/**
 * Runs jobs on PostgreSQL with graphile-worker (`run()`): it polls, listens for NOTIFY, locks each
 * job with SKIP LOCKED (so any number of processes share the work, each job to one of them),
 * retries with e^attempts-second backoff and keeps a job that failed its last try. Around each
 * handler this adds what graphile leaves to us: the error log of a final failure (and freeing its
 * key), and giving a job back uncounted when a stop times out.
 */
export async function startPostgresRunner(o: RunnerOptions): Promise<JobRunner> {
  await migrateWorkerSchema(o.databaseUrl, o.workerSchema, o.logger);
  // Nothing this process could run: no pool, no LISTEN connection.
  if (Object.keys(o.tasks).length === 0) return { engine: 'postgres', stop: async () => {} };
  const taskList: GraphileTaskList = {};
  for (const [name, handler] of Object.entries(o.tasks)) taskList[name] = wrap(o, name, handler);

  // Every worker graphile starts (also in a replacement runner) beats until this runner stops.
  const heartbeatMs = o.heartbeatMs ?? 15_000;
  const heartbeats = startHeartbeats({ db: o.database.db, workerSchema: o.workerSchema, intervalMs: heartbeatMs, staleMs: 4 * heartbeatMs, logger: o.logger });
  const events = new EventEmitter();
  events.on('worker:create', ({ worker }: { worker: { workerId: string } }) => heartbeats.add(worker.workerId));

  // A fresh object per run(): graphile caches what it compiles from an options object, releasers included.
  const options = (): RunnerOptions_ => ({
    events: events as RunnerOptions_['events'],
    connectionString: o.databaseUrl,
    schema: o.workerSchema,
    concurrency: o.concurrency,
    pollInterval: o.pollIntervalMs,
    // graphile's LISTEN connection and the running jobs' completions, plus one to spare.
    maxPoolSize: o.concurrency + 2,
    // The process owns its signals (server.ts, worker.ts) and stops the runner itself.
    noHandleSignals: true,
    // After this, running handlers see their signal aborted and are released (see wrap).
    gracefulShutdownAbortTimeout: o.shutdownTimeoutMs,
    logger: graphileLogger(o.logger),
    taskList,
  });

  let stopping = false;
  let current: Runner;
  try {
    current = await run(options());
  } catch (err) {
    await heartbeats.stop();
    throw err;
  }
  let restarting: Promise<void> | null = null;
  let cutPause = () => {};
  /**
   * graphile ends its runner for good when it cannot record a job's end (the database went away
   * mid-job), and when any process NOTIFYs a breaking migration on `worker:migrate`, a channel of
   * the whole database, so installing graphile's schema anywhere in it (another WORKER_SCHEMA)
   * stops every runner there. This process is meant to keep working: a runner that ended without
   * being asked to is replaced after a pause that grows while starting keeps failing. (If the
   * migration really was breaking, run() refuses to start on the newer schema and says so.)
   */
  const watch = (runner: Runner, pauseMs: number) => {
    const replace = (err: unknown) => {
      if (stopping) return;
      // graphile marks the exit code 57 as it stops on a migration notice; this process goes on.
      if (process.exitCode === 57) process.exitCode = undefined;
      o.logger.warn({ err, retryInMs: pauseMs }, 'job runner ended unasked; starting another');
      restarting = (async () => {
        for (let pause = pauseMs; !stopping; pause = Math.min(pause * 2, 30_000)) {
          await new Promise<void>((r) => {
            const timer = setTimeout(r, pause);
            cutPause = () => {
              clearTimeout(timer);
              r();
            };
          });
          if (stopping) return;
          try {
            current = await run(options());
            watch(current, pauseMs);
            return;
          } catch (startErr) {
            o.logger.error({ err: startErr }, 'job runner could not start again; retrying');
          }
        }
      })();
    };
    runner.promise.then(() => replace(null), replace);
  };
  watch(current, 1_000);

  let stopped: Promise<void> | null = null;
  return {
    engine: 'postgres',
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        cutPause();
        await restarting;
        // A runner that already ended on its own has nothing left to stop.
        await current.stop().catch((err: unknown) => o.logger.debug({ err }, 'job runner was already stopped'));
        await heartbeats.stop();
      })()),
  };
}

function wrap(o: RunnerOptions, name: string, handler: TaskHandler): Task {
  const log = o.logger.child({ task: name });
  return async (payload, helpers) => {
    const job = helpers.job;
    const stopSignal = helpers.abortSignal ?? new AbortController().signal;
    // Settles (rejects) when the stop's timeout aborts this try, whether or not the handler notices.
    let onAbort = () => {};
    const released = new Promise<never>((_, reject) => {
      onAbort = () => reject(new JobReleasedError());
      if (stopSignal.aborted) onAbort();
      else stopSignal.addEventListener('abort', onAbort, { once: true });
    });
    released.catch(() => {});
    try {
      await Promise.race([
        handler(payload, {
          job: { id: String(job.id), task: name, attempt: job.attempts, maxAttempts: job.max_attempts, key: job.key },
          signal: stopSignal,
          logger: log.child({ jobId: String(job.id), attempt: job.attempts }),
        }),
        released,
      ]);
    } catch (err) {
      if (stopSignal.aborted) {
        // graphile's failJob follows (it unlocks the job, ~1 s away for the next worker); this
        // try was cut short by the stop, not failed by the job, so it is not counted.
        await uncountTry(o.database.db, o.workerSchema, String(job.id), job.locked_by ?? '');
        throw err instanceof JobReleasedError ? err : new JobReleasedError();
      }
      if (job.attempts >= job.max_attempts) {
        try {
          await o.database.db.transaction().execute(async (trx) => {
            await logJobFailure(trx, name, payload, err);
            await freeKey(trx, o.workerSchema, String(job.id));
          });
        } catch (logErr) {
          log.error({ err: logErr, jobId: String(job.id) }, 'could not write the error log of a failed job');
        }
        log.warn({ jobId: String(job.id), attempts: job.attempts, error: errorMessage(err), sql: failedStatementOf(err) }, 'job failed its last try');
      }
      throw err;
    } finally {
      stopSignal.removeEventListener('abort', onAbort);
    }
  };
}
