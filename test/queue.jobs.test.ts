import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, prepareJobQueue, retryDelayMs, type JobRunner, type TaskList } from '../src/queue/index.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { testEngine } from './support/engine.js';
import { createRunsTable, quietLogger, recordRun, runs, startTestRunner, storedJobs, waitFor, workerSchemaForTest } from './support/queue.js';

/**
 * The durable job queue on the engine under test, through its real storage (SQLite's jobs table,
 * graphile-worker on PostgreSQL) with the test's own task table. Every wait is for a fact read
 * from the database, with a deadline.
 */
describe(`job queue on ${testEngine}`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let workerSchema: string;
  const runners: JobRunner[] = [];
  const queue = { get workerSchema() { return workerSchema; } };

  const start = async (tasks: TaskList, extra: { concurrency?: number; shutdownTimeoutMs?: number } = {}) => {
    const runner = await startTestRunner({ database: t.database, databaseUrl: t.config.DATABASE_URL, workerSchema, tasks, ...extra });
    runners.push(runner);
    return runner;
  };
  const jobs = () => storedJobs(t.database, workerSchema);
  const recorder = (runner: string): TaskList => ({
    record: async (payload: { label: string }, { job }) => recordRun(t.database, payload.label, runner, job.attempt),
  });

  beforeEach(async () => {
    workerSchema = workerSchemaForTest();
    t = await createTestApp({ WORKER_SCHEMA: workerSchema });
    ws = await t.workspace();
    await prepareJobQueue(t.database, t.config, quietLogger);
    await createRunsTable(t.database);
  });
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop();
    await t.close();
  });

  it('runs a job whose transaction committed, once; a job whose transaction rolled back never exists', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueue(trx, { task: 'record', payload: { label: 'rolled back' } }, queue);
        throw new Error('the change that caused the job failed');
      }),
    ).rejects.toThrow('the change that caused the job failed');
    const committed = await t.db.transaction().execute((trx) => enqueue(trx, { task: 'record', payload: { label: 'committed' } }, queue));
    expect(committed.created).toBe(true);
    // Before any worker runs: only the committed job is stored.
    expect((await jobs()).map((j) => [j.id, j.task, j.payload])).toEqual([[committed.id, 'record', { label: 'committed' }]]);

    await start(recorder('one'));
    await waitFor('the committed job to finish', async () => (await jobs()).length === 0);
    expect((await runs(t.database)).map((r) => [r.label, r.attempt])).toEqual([['committed', 1]]);
  });

  it('runs a delayed job at its time, not before, and it survives a restart of the runner', async () => {
    const runAt = new Date(Date.now() + 2_500);
    const job = await enqueue(t.db, { task: 'record', payload: { label: 'delayed' }, runAt }, queue);
    const first = await start(recorder('first'));
    await first.stop();
    // Stopped before it was due: the job waits in the database for the next process.
    expect((await jobs()).map((j) => [j.id, j.runAt, j.attempts, j.running])).toEqual([[job.id, runAt.toISOString(), 0, false]]);

    await start(recorder('second'));
    await waitFor('the delayed job to finish', async () => (await jobs()).length === 0);
    const done = await runs(t.database);
    expect(done.map((r) => [r.label, r.runner, r.attempt])).toEqual([['delayed', 'second', 1]]);
    expect(done[0].ranAtMs).toBeGreaterThanOrEqual(runAt.getTime());
  });

  it('retries a failing job with backoff, then keeps it failed and writes the error log GET /v1/error-logs shows', async () => {
    const tasks: TaskList = {
      callNetwork: async (payload: { label: string }, { job }) => {
        await recordRun(t.database, payload.label, 'one', job.attempt);
        throw Object.assign(new Error('(#4) Application request limit reached'), { httpCode: 429 });
      },
      crash: async () => {
        throw new Error('Cannot read properties of undefined');
      },
    };
    const failing = await enqueue(t.db, { task: 'callNetwork', payload: { workspaceId: ws.id, label: 'limited' }, maxAttempts: 2, key: 'call-1' }, queue);
    const plain = await enqueue(t.db, { task: 'crash', payload: { workspaceId: String(ws.id) }, maxAttempts: 1 }, queue);
    await start(tasks);

    await waitFor('both jobs to fail for good', async () => {
      const stored = await jobs();
      return stored.length === 2 && stored.every((j) => j.failed);
    });
    const tries = await runs(t.database);
    expect(tries.map((r) => [r.label, r.attempt])).toEqual([['limited', 1], ['limited', 2]]);
    // The second try waited at least the backoff after the first failed (e^1 s).
    expect(tries[1].ranAtMs - tries[0].ranAtMs).toBeGreaterThanOrEqual(retryDelayMs(1));
    // Kept for inspection, not retried; the failed job's key is free again.
    expect((await jobs()).map((j) => ({ id: j.id, attempts: j.attempts, maxAttempts: j.maxAttempts, lastError: j.lastError, running: j.running }))).toEqual([
      { id: failing.id, attempts: 2, maxAttempts: 2, lastError: '(#4) Application request limit reached', running: false },
      { id: plain.id, attempts: 1, maxAttempts: 1, lastError: 'Cannot read properties of undefined', running: false },
    ]);
    expect((await enqueue(t.db, { task: 'other', payload: {}, key: 'call-1' }, queue)).created).toBe(true);

    const logs = await t.db.selectFrom('error_logs').select(['id', 'action', 'created_at', 'updated_at']).where('workspace_id', '=', ws.id).orderBy('id').execute();
    expect(logs.map((l) => l.action).sort()).toEqual(['callNetwork', 'crash']);
    const row = (action: string) => logs.find((l) => l.action === action)!;
    const res = await t.request('GET', '/v1/error-logs', { token: ws.developerToken });
    expect(res.status).toBe(200);
    const entry = (action: string, detail: string, httpCode: string) => ({
      id: String(row(action).id), workspaceId: String(ws.id), contactId: '', action, detail, httpCode,
      createdAt: row(action).created_at, updatedAt: row(action).updated_at,
    });
    const expected = [entry('callNetwork', '(#4) Application request limit reached', '429'), entry('crash', 'Cannot read properties of undefined', '500')];
    // Newest first, ties by the newest id.
    expected.sort((a, b) => (a.createdAt === b.createdAt ? Number(b.id) - Number(a.id) : a.createdAt < b.createdAt ? 1 : -1));
    expect(res.body).toEqual({ data: expected, pageCount: 1 });
  });

  it('de-duplicates by key while a job waits; the key is free once the job has finished', async () => {
    const first = await enqueue(t.db, { task: 'record', payload: { label: 'first' }, key: 'comment-17' }, queue);
    const second = await t.db.transaction().execute((trx) => enqueue(trx, { task: 'record', payload: { label: 'second' }, key: 'comment-17', runAt: new Date(Date.now() + 60_000) }, queue));
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    // The first job is kept exactly as it was enqueued.
    expect((await jobs()).map((j) => [j.id, j.payload, j.key])).toEqual([[first.id, { label: 'first' }, 'comment-17']]);

    await start(recorder('one'));
    await waitFor('the keyed job to finish', async () => (await jobs()).length === 0);
    expect((await runs(t.database)).map((r) => r.label)).toEqual(['first']);
    const third = await enqueue(t.db, { task: 'record', payload: { label: 'third' }, key: 'comment-17' }, queue);
    expect(third.created).toBe(true);
    expect(third.id).not.toBe(first.id);
    await waitFor('the new keyed job to finish', async () => (await jobs()).length === 0);
    expect((await runs(t.database)).map((r) => r.label)).toEqual(['first', 'third']);
  });

  it('batch jobs: items join the waiting job of their key, up to its limit; a running one is never changed; every item runs once', async () => {
    const batch = { key: 'events:7', max: 3 };
    const item = (label: string) => ({ label });
    const a = await enqueue(t.db, { task: 'batch', payload: [item('a1'), item('a2')], batch }, queue);
    const b = await t.db.transaction().execute((trx) => enqueue(trx, { task: 'batch', payload: [item('b1')], batch }, queue));
    // Over the limit of 3: a job of its own.
    const c = await enqueue(t.db, { task: 'batch', payload: [item('c1')], batch }, queue);
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const batches: string[][] = [];
    await start({
      batch: async (payload: { label: string }[], { job }) => {
        batches.push(payload.map((p) => p.label));
        for (const p of payload) await recordRun(t.database, p.label, 'one', job.attempt);
        if (payload.some((p) => p.label === 'a1')) await gate;
      },
    });
    if (testEngine === 'sqlite') {
      expect([a.created, b, c.created]).toEqual([true, { id: a.id, created: false }, true]);
      await waitFor('the first batch to start', async () => (await runs(t.database)).length >= 3);
      // While a job of the key runs, the next one waits, and new items join it (not the running one).
      const d = await enqueue(t.db, { task: 'batch', payload: [item('d1')], batch }, queue);
      expect(d).toEqual({ id: c.id, created: false });
      expect((await jobs()).map((j) => [j.id, j.running, j.payload])).toEqual([
        [a.id, true, [item('a1'), item('a2'), item('b1')]],
        [c.id, false, [item('c1'), item('d1')]],
      ]);
    } else {
      // PostgreSQL: each enqueue is a job of its own, run by graphile's workers.
      expect([a.created, b.created, c.created]).toEqual([true, true, true]);
      await waitFor('the first batch to start', async () => (await runs(t.database)).some((r) => r.label === 'a1'));
      await enqueue(t.db, { task: 'batch', payload: [item('d1')], batch }, queue);
    }
    open();
    await waitFor('every batch to finish', async () => (await jobs()).length === 0);
    expect((await runs(t.database)).map((r) => r.label).sort()).toEqual(['a1', 'a2', 'b1', 'c1', 'd1']);
    if (testEngine === 'sqlite') expect(batches).toEqual([['a1', 'a2', 'b1'], ['c1', 'd1']]);
  });

  it('a batch job takes an array of items and no key of its own', async () => {
    await expect(enqueue(t.db, { task: 'batch', payload: { label: 'x' }, batch: { key: 'k', max: 5 } }, queue)).rejects.toThrow('array of items');
    await expect(enqueue(t.db, { task: 'batch', payload: [1, 2, 3], batch: { key: 'k', max: 2 } }, queue)).rejects.toThrow('at most batch.max');
    await expect(enqueue(t.db, { task: 'batch', payload: [1], key: 'k', batch: { key: 'k', max: 2 } }, queue)).rejects.toThrow('no key of its own');
  });

  it('stop() lets a running job finish', async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const runner = await start({
      slow: async (payload: { label: string }, { job }) => {
        await recordRun(t.database, `${payload.label} started`, 'one', job.attempt);
        await gate;
        await recordRun(t.database, `${payload.label} finished`, 'one', job.attempt);
      },
    });
    await enqueue(t.db, { task: 'slow', payload: { label: 'slow' } }, queue);
    await waitFor('the job to start', async () => (await runs(t.database)).length === 1);
    const stopped = runner.stop();
    open();
    await stopped;
    expect((await runs(t.database)).map((r) => r.label)).toEqual(['slow started', 'slow finished']);
    expect(await jobs()).toEqual([]);
  });

  it('stop() releases a job still running at its timeout, uncounted; another runner completes it exactly once', async () => {
    const first = await start(
      {
        long: async (payload: { label: string }, { job, signal }) => {
          await recordRun(t.database, payload.label, 'first', job.attempt);
          // A long call that honours the stop: it ends when the signal says the job was released.
          await new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
        },
      },
      { shutdownTimeoutMs: 200 },
    );
    const job = await enqueue(t.db, { task: 'long', payload: { label: 'long' }, maxAttempts: 1 }, queue);
    await waitFor('the long job to start', async () => (await runs(t.database)).length === 1);
    await first.stop();
    // Given back: waiting, not running, its interrupted try not counted (it had only one).
    expect((await jobs()).map((j) => [j.id, j.attempts, j.running, j.failed])).toEqual([[job.id, 0, false, false]]);

    await start({ long: async (payload: { label: string }, { job: j }) => recordRun(t.database, payload.label, 'second', j.attempt) });
    await waitFor('the released job to finish', async () => (await jobs()).length === 0);
    expect((await runs(t.database)).map((r) => [r.label, r.runner, r.attempt])).toEqual([['long', 'first', 1], ['long', 'second', 1]]);
    expect(await t.db.selectFrom('error_logs').select('id').where('workspace_id', '=', ws.id).execute()).toEqual([]);
  });
});
