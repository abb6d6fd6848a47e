import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printSchema } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema.js';

/**
 * schema.graphql is the printed Pothos schema, and the checks CI runs fail on a stale copy and say
 * what to run. (The checks run on copies: the committed files are never touched.)
 */
const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

describe('generated GraphQL files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'msgapi-tooling-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('schema.graphql is the current Pothos schema, printed sorted', () => {
    expect(readFileSync('schema.graphql', 'utf8')).toBe(`${printSchema(schema)}\n`);
  });

  it('schema:check fails on a stale schema file and says to run schema:print; passes on a current one', () => {
    const stale = join(dir, 'stale.graphql');
    writeFileSync(stale, readFileSync('schema.graphql', 'utf8').replace('type Tag implements Node {', 'type Tag implements Node {\n  colour: String'));
    const failed = run('npx', ['tsx', 'scripts/print-schema.ts', '--check', stale]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('Run `npm run schema:print`');

    const current = join(dir, 'current.graphql');
    cpSync('schema.graphql', current);
    expect(run('npx', ['tsx', 'scripts/print-schema.ts', '--check', current]).status).toBe(0);
  });

  it('codegen:check fails on stale typed documents and says to run codegen; passes on current ones', () => {
    const out = join(dir, 'generated');
    cpSync('test/graphql/generated', out, { recursive: true });
    expect(run('npm', ['run', '--silent', 'codegen:check'], { CODEGEN_OUT: `${out}/` }).status).toBe(0);

    writeFileSync(join(out, 'graphql.ts'), readFileSync(join(out, 'graphql.ts'), 'utf8').replace('query Tags', 'query TagsRenamed'));
    const failed = run('npm', ['run', '--silent', 'codegen:check'], { CODEGEN_OUT: `${out}/` });
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain('graphql.ts');
    expect(failed.stderr).toContain('run `npm run codegen`');
  });
});
