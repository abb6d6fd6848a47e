import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/processes.js';

/**
 * A graceful stop's last log lines reach stdout, all of them and in order, even when the reader
 * is slow: the server logs asynchronously, and exiting while a write was still on its way used to
 * put 'stopped' ahead of the lines before it (seen as a failing graceful-shutdown test under
 * load). Here the reader holds stdout unread while the program logs about 800 KB and exits, so a
 * write is certainly on its way at the exit.
 */
/** A program of test/support on the real stdout logger, its stdout piped to the test. */
const supportProgram = (file: string) => spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/support', file)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });

function runWithSlowReader(): Promise<{ code: number | null; lines: { msg: string; i?: number }[] }> {
  const child = supportProgram('log-then-exit.ts');
  child.stdout.pause();
  let out = '';
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    setTimeout(() => {
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (d: string) => (out += d));
      child.stdout.resume();
    }, 500);
    child.on('close', (code) => resolve({ code, lines: out.split('\n').filter(Boolean).map((l) => JSON.parse(l)) }));
  });
}

/** The first stdout line of a program that logs one line and keeps running, or null if none came before `deadlineMs`. */
function firstLineOfIdleProgram(deadlineMs: number): Promise<string | null> {
  const child = supportProgram('log-then-idle.ts');
  let out = '';
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    const timer = setTimeout(() => done(null), deadlineMs);
    const done = (line: string | null) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(line);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) done(out.slice(0, out.indexOf('\n')));
    });
  });
}

describe('log lines while running', () => {
  // Lines are written in batches of 4 KB; a quiet server's last access line must not wait for
  // the next ones: it goes out within about a second (the periodic flush), the process still running.
  it('a line alone reaches stdout without more lines and without an exit', async () => {
    const line = await firstLineOfIdleProgram(15_000);
    expect(line && JSON.parse(line)).toMatchObject({ msg: 'alone' });
  }, 30_000);
});

describe('log lines at exit', () => {
  it('every line, in order, then the last one, with a reader that is slow to read', async () => {
    const { code, lines } = await runWithSlowReader();
    expect(code).toBe(0);
    expect(lines.filter((l) => l.msg === 'line').map((l) => l.i)).toEqual(Array.from({ length: 800 }, (_, i) => i));
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
  }, 30_000);
});
