import { sql } from 'kysely';
import { hubSignature } from '../../src/domain/events/webhook-signature.js';
import { engineDepsOf } from '../../src/engine/context.js';
import { startEngine } from '../../src/engine/engine-runner.js';
import { prepareJobQueue, type JobRunner } from '../../src/queue/index.js';
import { createTestApp, type TestApp, type TestAppOptions, type TestResponse } from './harness.js';
import { quietLogger, startTestRunner, storedJobs, waitFor, workerSchemaForTest, type StoredJob } from './queue.js';

export const WEBHOOK_SECRET = 'test-app-secret-0123456789';
export const VERIFY_TOKEN = 'test-verify-token';

/**
 * The real app with the engine's workers running in process over the real queue, on a fresh
 * database: tests post signed webhooks (or dev events) and wait for the queue to settle, then read
 * what the engine did through the API (outbox, counters, events, messages). Delayed jobs are made
 * due with `dueNow()` instead of waiting minutes.
 */
export interface EngineTestApp extends TestApp {
  workerSchema: string;
  /** POST /webhooks/<channel> with a valid signature (or `signature` as given). */
  webhook: <T = any>(channel: 'photo' | 'net', body: unknown, signature?: string | null) => Promise<TestResponse<T>>;
  /** Resolves once no job is due or running (delayed ones may wait); fails after the deadline. */
  settle: (timeoutMs?: number) => Promise<void>;
  /** Makes every waiting job due now (a delayed reply, an unhide), as if its time had come. */
  dueNow: () => Promise<void>;
  jobs: () => Promise<StoredJob[]>;
  /** Another runner on the same database and queue (a second worker process, in effect); stopped on close. */
  extraRunner: () => Promise<JobRunner>;
  /**
   * The engine's clock (sequence steps read it): real time until `set`, then fixed where it is set
   * until set or advanced again. Set it ahead of real time, so the queue (real time) never makes a
   * job due before the test advances the clock and calls `dueNow`.
   */
  clock: TestClock;
  /** Stops the in-process workers (as SIGTERM would); `startWorkers` runs them again. */
  stopWorkers: () => Promise<void>;
  startWorkers: () => Promise<void>;
}

export async function createEngineTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<EngineTestApp> {
  const workerSchema = workerSchemaForTest();
  const t = await createTestApp({ WEBHOOK_APP_SECRET: WEBHOOK_SECRET, WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN, WORKER_SCHEMA: workerSchema, ...env }, options);
  await prepareJobQueue(t.database, t.config, quietLogger);
  let runner: JobRunner | null = null;
  const extras: JobRunner[] = [];
  const clock = testClock();
  // With captureLogs the runner logs with the app, as in one server process; otherwise it is silent.
  const runnerLogger = options.captureLogs ? t.app.deps.logger : undefined;
  const startWorkers = async () => {
    runner = await startEngine({ ...engineDepsOf(t.app.deps), clock }, (tasks) =>
      startTestRunner({ database: t.database, databaseUrl: t.config.DATABASE_URL, workerSchema, tasks, concurrency: 4, pollIntervalMs: 50, logger: runnerLogger }),
    );
  };
  const stopWorkers = async () => {
    await runner?.stop();
    runner = null;
  };
  await startWorkers();
  const jobs = () => storedJobs(t.database, workerSchema);
  return {
    ...t,
    clock,
    workerSchema,
    jobs,
    webhook: (channel, body, signature) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      const headers: Record<string, string> = {};
      const sig = signature === undefined ? hubSignature(WEBHOOK_SECRET, text) : signature;
      if (sig !== null) headers['x-hub-signature-256'] = sig;
      return t.request('POST', `/webhooks/${channel}`, { body: text, headers });
    },
    settle: async (timeoutMs = 20_000) => {
      await waitFor('the job queue to settle (nothing due or running)', async () => {
        const now = Date.now();
        const all = await jobs();
        return all.every((j) => j.failed || (!j.running && new Date(j.runAt).getTime() > now + 50));
      }, timeoutMs);
    },
    dueNow: async () => {
      const now = new Date().toISOString();
      if (t.database.engine === 'sqlite') await t.db.updateTable('jobs').set({ run_at: now }).where('locked_by', 'is', null).where('failed_at', 'is', null).execute();
      else await sql`update ${sql.id(workerSchema, '_private_jobs')} set run_at = now() where locked_at is null and attempts < max_attempts`.execute(t.db);
    },
    stopWorkers,
    startWorkers,
    extraRunner: async () => {
      const extra = await startEngine({ ...engineDepsOf(t.app.deps), clock }, (tasks) => startTestRunner({ database: t.database, databaseUrl: t.config.DATABASE_URL, workerSchema, tasks, concurrency: 4, pollIntervalMs: 50 }));
      extras.push(extra);
      return extra;
    },
    close: async () => {
      for (const extra of extras.splice(0)) await extra.stop();
      await stopWorkers();
      await t.close();
    },
  };
}

export interface TestClock {
  now(): Date;
  set(at: Date | string): void;
  advance(ms: number): void;
}

function testClock(): TestClock {
  let fixed: number | null = null;
  return {
    now: () => new Date(fixed ?? Date.now()),
    set: (at) => void (fixed = new Date(at).getTime()),
    advance: (ms) => void (fixed = (fixed ?? Date.now()) + ms),
  };
}
