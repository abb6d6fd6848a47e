import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { enqueue, prepareJobQueue, type JobRunner, type TaskList } from '../src/queue/index.js';
import { jobClaims } from '../src/queue/sqlite-queue.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { testEngine } from './support/engine.js';
import { createRunsTable, quietLogger, recordRun, runs, startTestRunner, storedJobs, waitFor, workerSchemaForTest } from './support/queue.js';

/**
 * Several runners on one queue, each on its own connection (SQLite) or pool (PostgreSQL), as
 * separate processes would be: every job runs exactly once. And the two ways a job is picked up
 * without waiting for a poll, or after its worker died.
 */
describe(`job queue runners on ${testEngine}`, () => {
  let t: TestApp;
  let workerSchema: string;
  const runners: JobRunner[] = [];
  const databases: Database[] = [];
  const queue = { get workerSchema() { return workerSchema; } };

  beforeEach(async () => {
    workerSchema = workerSchemaForTest();
    t = await createTestApp({ WORKER_SCHEMA: workerSchema });
    await prepareJobQueue(t.database, t.config, quietLogger);
    await createRunsTable(t.database);
  });
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop();
    for (const database of databases.splice(0)) await database.destroy();
    await t.close();
  });

  const recorder = (database: Database, runner: string): TaskList => ({
    record: async (payload: { label: string }, { job }) => recordRun(database, payload.label, runner, job.attempt),
  });

  it('two runners on separate connections share 200 jobs and run each exactly once', async () => {
    const second = createDatabase(t.config.DATABASE_URL);
    databases.push(second);
    const labels = Array.from({ length: 200 }, (_, i) => `job ${String(i).padStart(3, '0')}`);
    await t.db.transaction().execute(async (trx) => {
      for (const label of labels) await enqueue(trx, { task: 'record', payload: { label } }, queue);
    });
    runners.push(
      await startTestRunner({ database: t.database, databaseUrl: t.config.DATABASE_URL, workerSchema, tasks: recorder(t.database, 'a'), concurrency: 4 }),
      await startTestRunner({ database: second, databaseUrl: t.config.DATABASE_URL, workerSchema, tasks: recorder(second, 'b'), concurrency: 4 }),
    );
    await waitFor('every job to finish', async () => (await storedJobs(t.database, workerSchema)).length === 0, 60_000);
    const done = await runs(t.database);
    expect(done.map((r) => r.label).sort()).toEqual(labels);
    expect(done.every((r) => r.attempt === 1)).toBe(true);
  });

  it('an enqueue wakes an idle runner at once, without waiting for its poll', async () => {
    runners.push(await startTestRunner({ database: t.database, databaseUrl: t.config.DATABASE_URL, workerSchema, tasks: recorder(t.database, 'a'), pollIntervalMs: 60_000 }));
    // Each job is enqueued after the previous one ran, so the runner is past its first look.
    // The deadlines are well inside the 60 s poll: only the wake-up (SQLite) or NOTIFY
    // (PostgreSQL) can meet them.
    for (const label of ['first', 'second', 'third']) {
      const before = (await runs(t.database)).length;
      await t.db.transaction().execute((trx) => enqueue(trx, { task: 'record', payload: { label } }, queue));
      await waitFor(`job ${label} to run`, async () => (await runs(t.database)).length === before + 1, 10_000);
    }
    expect((await runs(t.database)).map((r) => r.label)).toEqual(['first', 'second', 'third']);
  });

  it.runIf(testEngine === 'sqlite')('a job whose worker died mid-try is tried again when its lease runs out', async () => {
    const job = await enqueue(t.db, { task: 'record', payload: { label: 'orphan' }, maxAttempts: 3 }, queue);
    // A process claims it (the real claim statement), then dies: nothing renews or releases the lease.
    const claimed = await jobClaims(['record']).claim(t.db, { workerId: 'dead-process', limit: 1, now: new Date(), leaseMs: 300 });
    expect(claimed.map((j) => [String(j.id), j.attempts, j.locked_by])).toEqual([[job.id, 1, 'dead-process']]);

    runners.push(await startTestRunner({ database: t.database, databaseUrl: t.config.DATABASE_URL, workerSchema, tasks: recorder(t.database, 'a') }));
    await waitFor('the orphaned job to finish', async () => (await storedJobs(t.database, workerSchema)).length === 0);
    // The dead process's try counted: this was the second.
    expect((await runs(t.database)).map((r) => [r.label, r.attempt])).toEqual([['orphan', 2]]);
  });
});
