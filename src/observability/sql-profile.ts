import type { LogEvent } from 'kysely';

/**
 * SQL_PROFILE=1 (a bench aid, off by default): the process adds up the time of every SQL text it
 * runs and prints the costliest at exit (total ms, count, mean us, the statement), so a slow
 * statement or a missing index shows up by name. `SQL_PROFILE=1 npm run bench:engine` profiles the server (and the bench's own connection).
 */
export function sqlProfiler(enabled = Boolean(process.env.SQL_PROFILE)): ((event: LogEvent) => void) | null {
  if (!enabled) return null;
  const stats = new Map<string, { count: number; ms: number }>();
  process.on('exit', () => {
    const top = [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30);
    const lines = top.map(([text, { count, ms }]) => `${ms.toFixed(0).padStart(7)} ms ${String(count).padStart(8)}x ${((1000 * ms) / count).toFixed(0).padStart(6)} us  ${text.slice(0, 200)}`);
    process.stderr.write(`SQL by total time (pid ${process.pid}):\n${lines.join('\n')}\n`);
  });
  return (event) => {
    const s = stats.get(event.query.sql) ?? { count: 0, ms: 0 };
    s.count++;
    s.ms += event.queryDurationMillis;
    stats.set(event.query.sql, s);
  };
}
