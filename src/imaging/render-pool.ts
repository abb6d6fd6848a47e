import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { RenderResult, RenderSpec } from './render-spec.js';

export interface RenderPoolOptions {
  /** Worker threads, started with the pool (and with each replacement). */
  threads: number;
  /** Renders waiting for a thread beyond those running; one more is refused with RenderPoolBusyError. */
  maxQueue: number;
  /** Renders a set of threads takes before it is replaced by a fresh one. */
  recycleAfter: number;
  /**
   * Told of a thread's error outside any render (one that failed to start, for example); the
   * pool would otherwise emit it as an unhandled 'error' event, which ends the process.
   * Default: written to stderr.
   */
  onError?: (error: Error) => void;
}

/**
 * The pool is full: the render was not queued. `retryAfterSeconds` is the recent time from
 * submission to result (a moving average), rounded up to whole seconds, from 1 to 10: about when a
 * slot frees up.
 */
export class RenderPoolBusyError extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`the render pool is full: try again in ${retryAfterSeconds} s`);
    this.name = 'RenderPoolBusyError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface RenderPool {
  /** Rejects at once with RenderPoolBusyError when full; with an AbortError when `signal` aborts first. */
  render(spec: RenderSpec, signal?: AbortSignal): Promise<RenderResult>;
  /**
   * threads (alive, the replaced ones included until they end), queued (waiting for a thread),
   * running (accepted and not queued), completed (renders ended: result, error or abort),
   * recycled (how many times the pool was replaced)
   */
  stats(): { threads: number; queued: number; running: number; completed: number; recycled: number };
  /** Takes no more renders, lets the accepted ones finish, then ends the threads. */
  close(): Promise<void>;
}

/**
 * The worker module beside this one: its TypeScript source when this module runs from src/ (tsx,
 * vitest), its compiled JavaScript when from dist/.
 */
const fromSources = import.meta.url.endsWith('.ts');
const workerFile = new URL(fromSources ? './render.worker.ts' : './render.worker.js', import.meta.url).href;

/**
 * tsx's loader, found from this module as a file URL: a bare `tsx` would be looked up from the
 * process's working directory, which need not be this checkout (a server started from elsewhere).
 */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/**
 * Node options for the threads: inherited when compiled. From sources a thread must load
 * TypeScript, so it gets tsx, and only that: a worker's execArgv refuses V8 and process-wide flags
 * (--max-old-space-size, --inspect, ...), which apply to its thread anyway.
 */
const threadExecArgv = fromSources ? ['--import', tsxLoader()] : undefined;

/** One set of threads: the current one takes new renders; a retired one only finishes its own. */
interface Generation {
  piscina: Piscina<RenderSpec, RenderResult>;
  dispatched: number;
  inFlight: number;
  retired: boolean;
  /** Settled when the generation's threads have ended. */
  closed: Promise<void> | null;
}

/** Bounds of the Retry-After a full pool answers, in seconds. */
const RETRY_AFTER_MIN = 1;
const RETRY_AFTER_MAX = 10;

export function createRenderPool(options: RenderPoolOptions): RenderPool {
  const { threads, maxQueue, recycleAfter } = options;
  if (!(Number.isInteger(threads) && threads >= 1)) throw new RangeError('threads must be a positive integer');
  if (!(Number.isInteger(maxQueue) && maxQueue >= 0)) throw new RangeError('maxQueue must be a non-negative integer');
  if (!(Number.isInteger(recycleAfter) && recycleAfter >= 1)) throw new RangeError('recycleAfter must be a positive integer');

  const onError = options.onError ?? ((error: Error) => console.error('render pool thread error:', error));

  const startGeneration = (): Generation => {
    const piscina = new Piscina<RenderSpec, RenderResult>({ filename: workerFile, minThreads: threads, maxThreads: threads, maxQueue, execArgv: threadExecArgv });
    piscina.on('error', onError);
    return { piscina, dispatched: 0, inFlight: 0, retired: false, closed: null };
  };

  let current = startGeneration();
  const generations = new Set<Generation>([current]);
  let inFlight = 0;
  let completed = 0;
  let recycled = 0;
  let closing = false;
  /** Recent time from submission to result (moving average): how long a freed slot takes to come. */
  let recentLatencyMs = 0;
  const idleWaiters = new Set<() => void>();

  const closeGeneration = (generation: Generation) => {
    generation.closed ??= generation.piscina.close().finally(() => generations.delete(generation));
    return generation.closed;
  };

  const retryAfterSeconds = () => Math.min(RETRY_AFTER_MAX, Math.max(RETRY_AFTER_MIN, Math.ceil(recentLatencyMs / 1000)));

  const render = async (spec: RenderSpec, signal?: AbortSignal): Promise<RenderResult> => {
    if (closing) throw new Error('the render pool is closed');
    // Counted here rather than left to piscina: during a replacement two generations hold renders,
    // and the bound is on both together.
    if (inFlight >= threads + maxQueue) throw new RenderPoolBusyError(retryAfterSeconds());

    const generation = current;
    generation.dispatched++;
    generation.inFlight++;
    inFlight++;
    if (generation.dispatched >= recycleAfter) {
      // The next render goes to fresh threads; this generation ends once its own renders are done,
      // so none is lost or fails because of the swap. The fresh threads start now, while it works.
      generation.retired = true;
      current = startGeneration();
      generations.add(current);
      recycled++;
    }
    const started = performance.now();
    let refused = false;
    try {
      return await generation.piscina.run(spec, { signal });
    } catch (err) {
      // Not expected (the count above refuses first), but piscina's own refusal means the same.
      refused = err instanceof Error && /queue is at limit/i.test(err.message);
      throw refused ? new RenderPoolBusyError(retryAfterSeconds()) : err;
    } finally {
      if (!refused) {
        const elapsed = performance.now() - started;
        recentLatencyMs = recentLatencyMs === 0 ? elapsed : recentLatencyMs * 0.8 + elapsed * 0.2;
        completed++;
      }
      generation.inFlight--;
      inFlight--;
      if (generation.retired && generation.inFlight === 0) void closeGeneration(generation);
      if (inFlight === 0) for (const wake of idleWaiters) wake();
    }
  };

  return {
    render,
    stats() {
      let queued = 0;
      let live = 0;
      for (const g of generations) {
        queued += g.piscina.queueSize;
        live += g.piscina.threads.length;
      }
      return { threads: live, queued, running: inFlight - queued, completed, recycled };
    },
    async close() {
      closing = true;
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            idleWaiters.delete(wake);
            resolve();
          };
          idleWaiters.add(wake);
        });
      }
      await Promise.all([...generations].map(closeGeneration));
    },
  };
}
