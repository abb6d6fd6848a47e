import { Worker } from 'node:worker_threads';

/**
 * The event-loop watchdog. The main thread writes a heartbeat into shared memory; a worker thread
 * (which keeps running while the main thread is stuck, which is the point) reads it. When the
 * heartbeat is older than EVENT_LOOP_STALL_MS the thread logs the stall with the ids of the requests
 * in flight and marks it, so /readyz answers 503 until the loop has run freely for as long again.
 * Past EVENT_LOOP_ABORT_MS it logs a fatal line and kills the process (SIGKILL: a SIGTERM handler is
 * JavaScript, which is exactly what cannot run), for its supervisor or the cluster primary to replace.
 *
 * Requests in flight are kept in shared memory too (a slot per request: its id's length and bytes),
 * because the thread cannot read the main thread's objects.
 */
export interface LoopWatchdog {
  /**
   * Starts the heartbeat and the thread. A process starts it once it is ready to serve: what it
   * does to get there (loading modules, building the schema and pages) blocks the loop by design.
   */
  start(): void;
  /** Marks a request in flight; call the answer when it is done. */
  track(requestId: string): () => void;
  /**
   * How long the loop was last blocked, from when the thread saw the stall until the loop has run
   * freely for EVENT_LOOP_STALL_MS since; null otherwise.
   */
  stall(): { blockedMs: number } | null;
  stop(): Promise<void>;
}

/** A process without a watchdog (tests that build the app in process, tools). */
export const noWatchdog: LoopWatchdog = {
  start: () => {},
  track: () => () => {},
  stall: () => null,
  stop: async () => {},
};

export interface WatchdogOptions {
  stallMs: number;
  /** 0: never end the process. */
  abortMs: number;
  /** pino's level name: lines below it are not written. */
  logLevel: string;
}

/** Slots for request ids; requests beyond them are counted, not named. */
const SLOTS = 512;
/** Request ids are at most 128 ASCII characters (platform.ts), plus a length byte. */
const SLOT_BYTES = 129;

/** Indexes into the shared clock: the main thread's last beat; the stall the thread saw (start, end, length). */
const BEAT = 0;
const STALL_START = 1;
const STALL_END = 2;
const STALL_LENGTH = 3;

const levels: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** Milliseconds on a clock both threads share (each thread's performance.now() has its own origin). */
const now = () => Math.round(performance.timeOrigin + performance.now());

export function createLoopWatchdog(options: WatchdogOptions): LoopWatchdog {
  const clock = new BigInt64Array(new SharedArrayBuffer(4 * 8));
  const used = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  const ids = new Uint8Array(new SharedArrayBuffer(SLOTS * SLOT_BYTES));
  const overflow = new Int32Array(new SharedArrayBuffer(4));
  // A beat often enough that a stall is seen within a tenth of its threshold.
  const beatMs = Math.max(10, Math.min(250, Math.floor(options.stallMs / 10)));
  const beat = () => Atomics.store(clock, BEAT, BigInt(now()));
  let heart: NodeJS.Timeout | undefined;
  let thread: Worker | undefined;

  const free: number[] = [];
  for (let i = SLOTS - 1; i >= 0; i--) free.push(i);
  const encoder = new TextEncoder();

  return {
    start() {
      if (thread) return;
      beat();
      heart = setInterval(beat, beatMs);
      heart.unref();
      thread = new Worker(threadSource, {
        eval: true,
        workerData: { clock, used, ids, overflow, slotBytes: SLOT_BYTES, stallMs: options.stallMs, abortMs: options.abortMs, tickMs: beatMs, level: levels[options.logLevel] ?? 30 },
      });
      thread.unref();
    },
    track(requestId) {
      const slot = free.pop();
      if (slot === undefined) {
        Atomics.add(overflow, 0, 1);
        return () => Atomics.sub(overflow, 0, 1);
      }
      const base = slot * SLOT_BYTES;
      const { written } = encoder.encodeInto(requestId, ids.subarray(base + 1, base + SLOT_BYTES));
      ids[base] = written;
      Atomics.store(used, slot, 1);
      return () => {
        Atomics.store(used, slot, 0);
        free.push(slot);
      };
    },
    stall() {
      const started = Number(Atomics.load(clock, STALL_START));
      // The thread has not seen the beat that ended it yet.
      if (started !== 0) return { blockedMs: now() - started };
      const ended = Number(Atomics.load(clock, STALL_END));
      if (ended === 0 || now() - ended > options.stallMs) return null;
      return { blockedMs: Number(Atomics.load(clock, STALL_LENGTH)) };
    },
    async stop() {
      clearInterval(heart);
      await thread?.terminate();
    },
  };
}

/**
 * The thread, as plain JavaScript evaluated in the worker: it must run whatever loads the app (tsx,
 * vitest, compiled output), so it imports nothing of ours. It writes pino's JSON lines itself,
 * synchronously, since the process may be killed right after.
 */
const threadSource = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { clock, used, ids, overflow, slotBytes, stallMs, abortMs, tickMs, level } = workerData;
const decoder = new TextDecoder();
const now = () => Math.round(performance.timeOrigin + performance.now());
const log = (value, fields, msg) => {
  if (value < level) return;
  writeSync(1, JSON.stringify({ level: value, time: Date.now(), pid: process.pid, ...fields, msg }) + '\\n');
};
const inFlight = () => {
  const out = [];
  for (let i = 0; i < used.length; i++) {
    if (Atomics.load(used, i) === 0) continue;
    const base = i * slotBytes;
    out.push(decoder.decode(ids.slice(base + 1, base + 1 + ids[base])));
  }
  return out;
};
let since = 0;
setInterval(() => {
  const beat = Number(Atomics.load(clock, 0));
  const t = now();
  if (since === 0 && t - beat > stallMs) {
    since = beat;
    Atomics.store(clock, 1, BigInt(beat));
    log(50, { blockedMs: t - beat, stallMs, requestIds: inFlight(), untrackedRequests: Atomics.load(overflow, 0) }, 'event loop blocked: /readyz fails until it has run freely for EVENT_LOOP_STALL_MS');
  } else if (since !== 0 && beat > since) {
    log(30, { blockedMs: beat - since }, 'event loop running again');
    Atomics.store(clock, 3, BigInt(beat - since));
    Atomics.store(clock, 2, BigInt(beat));
    Atomics.store(clock, 1, 0n);
    since = 0;
  }
  if (since !== 0 && abortMs > 0 && t - since > abortMs) {
    log(60, { blockedMs: t - since, abortMs, requestIds: inFlight(), untrackedRequests: Atomics.load(overflow, 0) }, 'event loop blocked past EVENT_LOOP_ABORT_MS: killing the process for its supervisor to replace');
    process.kill(process.pid, 'SIGKILL');
  }
}, tickMs);
`;
