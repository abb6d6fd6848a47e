import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The real programs, as an operator runs them: the server (`npm start` runs `tsx src/server.ts`)
 * and the CLI (`npm run cli`), each in its own process with its own environment. Node is started
 * with tsx's loader directly, so the child is the program itself: signals reach it unrelayed and
 * its exit code is the program's own.
 */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

/** A clean environment: the caller's DATABASE_URL/REDIS_URL/PORT must not leak into children. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const k of Object.keys(base)) {
    if (/^(DATABASE_URL|REDIS_URL|PORT|HOST|LOG_LEVEL|SEED_DEMO|NODE_ENV|RATE_LIMIT_.*|TOKEN_CACHE_SECONDS|SHUTDOWN_TIMEOUT_MS|SHUTDOWN_DRAIN_MS|WEB_CONCURRENCY|MAX_CONNECTIONS|CORS_ORIGINS|METRICS_TOKEN)$/.test(k)) delete base[k];
  }
  return { ...base, ...env };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `src/cli/index.ts` with `args` to completion. */
export function runCli(args: string[], env: Record<string, string>, options: { cwd?: string; input?: string } = {}): Promise<Finished> {
  return runProgram('src/cli/index.ts', args, env, options.cwd, options.input);
}

/** Runs a TypeScript program of the repository (e.g. `db/migrate.ts`) to completion; `input` is its stdin. */
export function runProgram(file: string, args: string[], env: Record<string, string>, cwd = repoRoot, input?: string): Promise<Finished> {
  const child = spawn(process.execPath, ['--import', tsxLoader, join(repoRoot, file), ...args], { cwd, env: childEnv(env), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (input !== undefined) child.stdin!.end(input);
  const { exited } = captured(child);
  return new Promise((ok, fail) => {
    child.on('error', fail);
    void exited.then(ok);
  });
}

/** Everything a started child writes, kept as it comes, and its exit with all of it. */
function captured(child: ChildProcess): { output: () => { stdout: string; stderr: string }; exited: Promise<Finished> } {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<Finished>((ok) => child.on('close', (code, signal) => ok({ code, signal, stdout, stderr })));
  return { output: () => ({ stdout, stderr }), exited };
}

/** The server process ended before it listened; `finished` holds its exit code and output. */
export class ServerExitedError extends Error {
  constructor(readonly finished: Finished) {
    super(`server exited with ${finished.code ?? finished.signal} before listening:\n${finished.stdout}\n${finished.stderr}`);
  }
}

export interface RunningServer {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  /** Everything written so far. */
  output: () => { stdout: string; stderr: string };
  /** Resolves when the process has exited. */
  exited: Promise<Finished>;
  /** SIGTERM (unless it already exited) and wait for the exit. */
  stop: () => Promise<Finished>;
}

/**
 * Starts `src/server.ts` and waits for its banner. PORT defaults to 0 (a free port), HOST to the
 * loopback interface, SHUTDOWN_DRAIN_MS to 0 (stop at once on SIGTERM; the drain has its own test). Rejects with the output when the process exits before listening.
 */
export async function startServer(env: Record<string, string>, options: { cwd?: string; timeoutMs?: number; preload?: string[] } = {}): Promise<RunningServer> {
  // `preload`: modules of the repository loaded before the server (test hooks), after tsx's loader.
  const preloads = (options.preload ?? []).flatMap((file) => ['--import', pathToFileURL(join(repoRoot, file)).href]);
  const child = spawn(process.execPath, ['--import', tsxLoader, ...preloads, join(repoRoot, 'src/server.ts')], {
    cwd: options.cwd ?? repoRoot,
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = captured(child);

  const port = await new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start in time:\n${output().stdout}\n${output().stderr}`)), options.timeoutMs ?? 20_000);
    const check = () => {
      const m = /listening on http:\/\/[^:\s]+:(\d+)/.exec(output().stdout);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    };
    child.stdout!.on('data', check);
    void exited.then((f) => {
      clearTimeout(timer);
      fail(new ServerExitedError(f));
    });
  });

  return {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface RunningWorker {
  child: ChildProcess;
  /** Everything written so far. */
  output: () => { stdout: string; stderr: string };
  /** Resolves once the worker printed its banner; rejects with its output when it exits first. */
  ready: Promise<void>;
  exited: Promise<Finished>;
  /** SIGTERM (unless it already exited) and wait for the exit. */
  stop: () => Promise<Finished>;
}

/**
 * Starts `npm run worker` (src/worker.ts) with nothing of the caller's environment but PATH and
 * HOME, so that what it prints depends only on `env`. `preload`: modules of the repository loaded
 * before the worker (test hooks), as startServer's.
 */
export function startWorker(env: Record<string, string>, options: { preload?: string[] } = {}): RunningWorker {
  const preloads = (options.preload ?? []).flatMap((file) => ['--import', pathToFileURL(join(repoRoot, file)).href]);
  const child = spawn(process.execPath, ['--import', 'tsx', ...preloads, join(repoRoot, 'src/worker.ts')], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = captured(child);
  const ready = new Promise<void>((ok, fail) => {
    child.stdout!.on('data', () => output().stdout.includes('Job worker running') && ok());
    void exited.then((f) => fail(new Error(`worker exited before it ran: ${JSON.stringify(f)}`)));
  });
  // Awaited by the callers that wait for it; a worker stopped unawaited must not raise an unhandled rejection.
  ready.catch(() => {});
  return {
    child,
    output,
    ready,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
