import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { startServer } from './support/processes.js';

/**
 * DATABASE_URL names a SQLite file as a plain path or as `sqlite:PATH`, `sqlite://PATH`,
 * `file:PATH` or a `file://` URL; each opens that file (never a directory named after the scheme).
 */
describe('DATABASE_URL forms for SQLite', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'msgapi-dburl-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['data/app.db', 'data/app.db'],
    ['sqlite:data/app.db', 'data/app.db'],
    ['sqlite://data/app.db', 'data/app.db'],
    ['sqlite:///var/lib/app.db', '/var/lib/app.db'],
    ['file:data/app.db', 'data/app.db'],
    ['file:///var/lib/app.db', '/var/lib/app.db'],
    ['SQLITE:data/app.db', 'data/app.db'],
    [':memory:', ':memory:'],
    ['postgres://me@db:5432/app', 'postgres://me@db:5432/app'],
  ])('%s opens %s', (value, expected) => {
    expect(loadConfig({ DATABASE_URL: value }).DATABASE_URL).toBe(expected);
  });

  it('the server opens the named file with each form, relative to its working directory', async () => {
    // The other forms resolve the same way (above); two real starts show the server opens them.
    const forms = { 'sqlite://b.db': 'b.db', [pathToFileURL(join(dir, 'd.db')).href]: 'd.db' };
    for (const [value, file] of Object.entries(forms)) {
      const server = await startServer({ DATABASE_URL: value, SEED_DEMO: 'false', SHUTDOWN_DRAIN_MS: '0' }, { cwd: dir });
      const ready = await fetch(`${server.base}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ok', database: 'sqlite' });
      expect((await server.stop()).code).toBe(0);
      expect(existsSync(join(dir, file)), value).toBe(true);
    }
    expect(existsSync(join(dir, 'sqlite:'))).toBe(false);
    expect(existsSync(join(dir, 'file:'))).toBe(false);
  }, 120_000);
});
