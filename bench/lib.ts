import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  statements?: number;
}

/** Fixed load shape for every measurement so numbers compare: 10 connections, `seconds` long. */
export async function load(name: string, url: string, opts: { headers?: Record<string, string>; seconds?: number; method?: string; body?: string; connections?: number } = {}): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: opts.connections ?? 10,
    duration: opts.seconds ?? 8,
    headers: opts.headers,
    method: (opts.method ?? 'GET') as 'GET',
    body: opts.body,
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Starts a server script in its own process (its own core) and waits for its "listening" line. */
export async function startProcess(script: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  // BENCH_CPU_PROF_DIR: the server writes a V8 CPU profile there when it exits (bench/top-functions.ts reads it).
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF_DIR] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/i.exec(output);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
  return { url, child };
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; null elsewhere): the
 * server's CPU per event or request is steadier than its throughput on a machine shared with the
 * load generator and with neighbours.
 */
export function cpuMs(pid: number | undefined, thread: 'process' | 'main' = 'process'): number | null {
  if (pid === undefined) return null;
  try {
    // The main thread's own line (task/<pid>) leaves out the GC and libuv threads.
    const fields = readFileSync(thread === 'main' ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}
const ticksPerSecond = 100;

export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export const table = (rows: LoadResult[]) =>
  [
    '| case | req/s | p50 ms | p99 ms | SQL statements/request | errors |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.statements ?? ''} | ${r.errors + r.non2xx} |`),
  ].join('\n');
