import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { startServer, startWorker, type Finished } from './support/processes.js';
import { workerSchemaForTest } from './support/queue.js';

/**
 * The event-loop watchdog of a real server process. A test hook (support/loop-blocker.ts) blocks
 * the loop on SIGUSR2, as a runaway computation would; the watchdog's thread, which keeps running,
 * logs the stall with the requests in flight, /readyz fails until the loop has run freely for
 * EVENT_LOOP_STALL_MS, and past EVENT_LOOP_ABORT_MS the process is killed for its supervisor to
 * replace (a SIGTERM would wait for the very loop that is stuck). The same of an `npm run worker`
 * process (PostgreSQL only), which has no HTTP server and so no /readyz: its stall and resume lines,
 * and the kill.
 */

type Line = { level: number; msg: string; [key: string]: unknown };
/** The JSON log lines a started server or worker has written so far. */
const linesOf = (running: { output: () => { stdout: string } }): Line[] =>
  running
    .output()
    .stdout.split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

async function until<T>(find: () => T | undefined | Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Blocks the loop of a process started with LOOP_BLOCK_MS well past EVENT_LOOP_ABORT_MS=1000: the
 * watchdog's thread logs a fatal line with no requests in flight and SIGKILLs the process.
 */
async function expectKilledPastAbort(running: { child: ChildProcess; exited: Promise<Finished>; output: () => { stdout: string } }) {
  const started = Date.now();
  running.child.kill('SIGUSR2');
  const exit = await running.exited;
  expect(exit.signal).toBe('SIGKILL');
  expect(Date.now() - started).toBeLessThan(20_000);
  const fatal = linesOf(running).find((l) => l.level === 60);
  expect(fatal).toEqual(expect.objectContaining({ msg: 'event loop blocked past EVENT_LOOP_ABORT_MS: killing the process for its supervisor to replace', abortMs: 1000, requestIds: [] }));
  expect(fatal!.blockedMs).toBeGreaterThan(1000);
}

describe('event-loop watchdog', () => {
  let target: TestDatabaseUrl;
  beforeAll(async () => {
    target = await freshDatabaseUrl();
  });
  afterAll(() => target.drop());

  it('logs a stall with the requests in flight and fails /readyz until the loop has run freely again', async () => {
    const server = await startServer(
      {
        DATABASE_URL: target.url,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'info',
        EVENT_LOOP_STALL_MS: '500',
        EVENT_LOOP_ABORT_MS: '0',
        LOOP_BLOCK_MS: '2000',
        WEBHOOK_APP_SECRET: 'watchdog-secret',
      },
      { preload: ['test/support/loop-blocker.ts'] },
    );
    try {
      expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
      // A request in flight: a webhook delivery whose body has not all arrived (it needs no token).
      const socket = connect(server.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('POST /webhooks/photo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: still-uploading-1\r\n\r\n{"ob');
      await new Promise((resolve) => setTimeout(resolve, 200));

      // Only the stall the hook causes: the watchdog starts once the server is ready, so there was none before.
      expect(linesOf(server).filter((l) => l.msg.startsWith('event loop'))).toEqual([]);
      server.child.kill('SIGUSR2');
      const stall = await until(() => linesOf(server).find((l) => l.msg.startsWith('event loop blocked')), 5000, 'the stall line');
      expect(stall).toEqual(expect.objectContaining({ level: 50, stallMs: 500, requestIds: ['still-uploading-1'], untrackedRequests: 0 }));
      expect(stall.blockedMs).toBeGreaterThan(500);

      // Sent while the loop is blocked, answered once it runs again: not ready.
      const ready = await fetch(`${server.base}/readyz`);
      const body = await ready.json();
      expect(ready.status).toBe(503);
      expect(body).toEqual({
        defined: false,
        code: 'serviceUnavailable',
        status: 503,
        message: expect.stringMatching(/^The event loop was blocked for \d+ ms; ready again once it has run freely for 500 ms$/),
      });
      const resumed = await until(() => linesOf(server).find((l) => l.msg === 'event loop running again'), 5000, 'the resume line');
      expect(resumed.blockedMs).toBeGreaterThanOrEqual(1900);
      // Ready again, after the loop has run freely for EVENT_LOOP_STALL_MS.
      await until(async () => ((await fetch(`${server.base}/readyz`)).status === 200 ? true : undefined), 3000, '/readyz 200');
      socket.destroy();
      const stopped = await server.stop();
      expect(stopped.code).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('past EVENT_LOOP_ABORT_MS, kills the process and says why', async () => {
    const server = await startServer(
      { DATABASE_URL: target.url, SEED_DEMO: 'false', LOG_LEVEL: 'info', EVENT_LOOP_STALL_MS: '200', EVENT_LOOP_ABORT_MS: '1000', LOOP_BLOCK_MS: '60000' },
      { preload: ['test/support/loop-blocker.ts'] },
    );
    await expectKilledPastAbort(server);
  });
});

describe.runIf(testEngine === 'postgres')('event-loop watchdog of npm run worker', () => {
  let target: TestDatabaseUrl;
  const workerSchema = workerSchemaForTest();
  beforeAll(async () => {
    target = await freshDatabaseUrl();
  });
  afterAll(() => target.drop());

  const env = { WORKER_SCHEMA: workerSchema, LOG_LEVEL: 'info', NODE_ENV: 'test' };

  it('logs a stall and its end, then still stops cleanly on SIGTERM', async () => {
    const worker = startWorker({ ...env, DATABASE_URL: target.url, EVENT_LOOP_STALL_MS: '500', EVENT_LOOP_ABORT_MS: '0', LOOP_BLOCK_MS: '2000' }, { preload: ['test/support/loop-blocker.ts'] });
    try {
      await worker.ready;
      // The watchdog starts once the worker runs its jobs: no stall before the hook's.
      expect(linesOf(worker).filter((l) => l.msg.startsWith('event loop'))).toEqual([]);
      worker.child.kill('SIGUSR2');
      const stall = await until(() => linesOf(worker).find((l) => l.msg.startsWith('event loop blocked')), 5000, 'the stall line');
      // A worker serves no requests: none in flight, none untracked.
      expect(stall).toEqual(expect.objectContaining({ level: 50, stallMs: 500, requestIds: [], untrackedRequests: 0 }));
      expect(stall.blockedMs).toBeGreaterThan(500);
      const resumed = await until(() => linesOf(worker).find((l) => l.msg === 'event loop running again'), 5000, 'the resume line');
      expect(resumed.blockedMs).toBeGreaterThanOrEqual(1900);
      // EVENT_LOOP_ABORT_MS=0: the worker lives on, and its SIGTERM handler runs again.
      const stopped = await worker.stop();
      expect({ code: stopped.code, signal: stopped.signal }).toEqual({ code: 0, signal: null });
      expect(linesOf(worker).map((l) => l.msg)).toContain('stopped');
    } finally {
      await worker.stop();
    }
  });

  it('past EVENT_LOOP_ABORT_MS, kills the process and says why', async () => {
    const worker = startWorker({ ...env, DATABASE_URL: target.url, EVENT_LOOP_STALL_MS: '200', EVENT_LOOP_ABORT_MS: '1000', LOOP_BLOCK_MS: '60000' }, { preload: ['test/support/loop-blocker.ts'] });
    try {
      await worker.ready;
      await expectKilledPastAbort(worker);
    } finally {
      await worker.stop();
    }
  });
});
