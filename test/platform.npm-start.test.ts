import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/processes.js';

/**
 * `npm start` runs the server as npm's direct child (`exec node --import tsx ...`), so the SIGTERM
 * a process manager sends to npm reaches the server: it stops and frees the port. With a shell or
 * tsx in between, the server was orphaned and kept listening.
 */
const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('npm start', () => {
  it('passes SIGTERM to the server, which exits and frees its port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgapi-npm-start-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: join(dir, 'app.db'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_MS: '0' };
      delete env.REDIS_URL;
      const npm = spawn('npm', ['start'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      npm.stdout.on('data', (d) => (stdout += d));
      npm.stderr.resume();
      const exited = new Promise<number | null>((resolve) => npm.once('close', (code) => resolve(code)));
      const port = await new Promise<number>((resolve, reject) => {
        npm.stdout.on('data', () => {
          const m = /listening on http:\/\/[^:\s]+:(\d+)/.exec(stdout);
          if (m) resolve(Number(m[1]));
        });
        void exited.then((code) => reject(new Error(`npm start exited with ${code}:\n${stdout}`)));
      });
      expect(await portAnswers(port)).toBe(true);

      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      // npm has exited after its child: nothing listens any more.
      expect(await portAnswers(port)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
