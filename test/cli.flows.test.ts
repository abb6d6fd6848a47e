import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowItem } from '../src/domain/flows/flow.schema.js';
import { freshDatabase, type FreshDatabase } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { runCli } from './support/processes.js';

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * `flows list|get|create|update|delete` (the real CLI process): the flow services on DATABASE_URL,
 * bodies as JSON from --file or stdin, refused with the API's messages, one line on stderr.
 */
// Every CLI run starts a process with tsx.
describe('cli: flows', { timeout: 180_000 }, () => {
  let target: FreshDatabase;
  let dir: string;
  let workspaceId: string;
  let tagId: number;
  const cli = (args: string[], input?: string) => runCli(args, { DATABASE_URL: target.url }, input === undefined ? {} : { input });
  const jsonFile = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };

  beforeAll(async () => {
    target = await freshDatabase();
    dir = mkdtempSync(join(tmpdir(), 'msgapi-cli-flows-'));
    workspaceId = JSON.parse((await cli(['workspace', 'create', '--name', 'Flows', '--json'])).stdout).workspace.id;
    tagId = await fixtures(target.database.db, Number(workspaceId)).tag('vip');
  });
  afterAll(async () => {
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates from a file and from stdin, lists, reads, updates and deletes a flow', async () => {
    const items: FlowItem[] = [
      { type: 'text', text: 'Hi {{first_name}}' },
      { type: 'addTag', tagId: String(tagId) },
    ];
    const created = await cli(['flows', 'create', '--workspace', workspaceId, '--file', jsonFile('welcome.json', { name: ' Welcome ', items })]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const welcome = JSON.parse(created.stdout);
    expect(welcome).toEqual({ id: expect.stringMatching(/^\d+$/), name: 'Welcome', items, createdAt: expect.stringMatching(iso), updatedAt: welcome.createdAt });

    const piped = await cli(['flows', 'create', '--workspace', workspaceId], JSON.stringify({ name: 'Sale', items: [{ type: 'customEvent', name: 'sale' }] }));
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    const sale = JSON.parse(piped.stdout);
    expect(sale).toMatchObject({ name: 'Sale', items: [{ type: 'customEvent', name: 'sale' }] });

    // One CLI process at a time: each loads the app (seconds of CPU), and a burst of them starves
    // the servers other test files start on the same two cores.
    const listed = await cli(['flows', 'list', '--workspace', workspaceId, '--json']);
    const table = await cli(['flows', 'list', '--workspace', workspaceId]);
    const read = await cli(['flows', 'get', welcome.id, '--workspace', workspaceId]);
    expect(JSON.parse(listed.stdout)).toEqual({ data: [welcome, sale], pageCount: 1 });
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toContain('Welcome');
    expect(table.stdout).toContain('text, addTag');
    expect(table.stdout).toContain('customEvent');
    expect(JSON.parse(read.stdout)).toEqual(welcome);

    const updated = await cli(['flows', 'update', welcome.id, '--workspace', workspaceId, '--file', '-'], JSON.stringify({ name: 'Welcome back' }));
    expect(updated).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(updated.stdout)).toEqual({ ...welcome, name: 'Welcome back', updatedAt: expect.stringMatching(iso) });

    expect(await cli(['flows', 'delete', sale.id, '--workspace', workspaceId])).toEqual({ code: 0, signal: null, stdout: `Deleted flow ${sale.id}.\n`, stderr: '' });
    expect(JSON.parse((await cli(['flows', 'list', '--workspace', workspaceId, '--json'])).stdout).data.map((f: { id: string }) => f.id)).toEqual([welcome.id]);
  });

  it('refuses bad input with the API\'s messages, on one line, exit code 1, changing nothing', async () => {
    const count = async () => (await target.database.db.selectFrom('flows').select('id').where('workspace_id', '=', Number(workspaceId)).execute()).length;
    const before = await count();
    const cases: [string[], string | undefined, string][] = [
      [['flows', 'create', '--workspace', workspaceId, '--file', jsonFile('empty.json', { name: 'X', items: [] })], undefined, 'error: items: items must hold at least 1 item\n'],
      [
        ['flows', 'create', '--workspace', workspaceId],
        JSON.stringify({ name: 'X', items: [{ type: 'image', url: 'ftp://x.example/a.png' }] }),
        'error: items.0.url: url must be an http or https URL\n',
      ],
      [['flows', 'create', '--workspace', workspaceId, '--file', jsonFile('tag.json', { name: 'X', items: [{ type: 'addTag', tagId: '424242' }] })], undefined, 'error: Tag not found\n'],
      [['flows', 'create', '--workspace', workspaceId, '--file', jsonFile('broken.json', '{"name": ')], undefined, expect.stringMatching(/^error: .*broken\.json is not valid JSON: .+\n$/) as never],
      [['flows', 'create', '--workspace', workspaceId, '--file', join(dir, 'absent.json')], undefined, `error: Cannot read ${join(dir, 'absent.json')}: no such file\n`],
      [['flows', 'create', '--workspace', '999999', '--file', jsonFile('ok.json', { name: 'X', items: [{ type: 'text', text: 'Hi' }] })], undefined, 'error: No workspace with id 999999\n'],
      [['flows', 'update', '424242', '--workspace', workspaceId], '{"name": "Y"}', 'error: Flow not found\n'],
      [['flows', 'update', '424242', '--workspace', workspaceId], '{}', 'error: input: Provide at least one of name or items\n'],
      [['flows', 'get', '424242', '--workspace', workspaceId], undefined, 'error: Flow not found\n'],
      [['flows', 'delete', 'abc', '--workspace', workspaceId], undefined, 'error: Flow not found\n'],
    ];
    // One process at a time (see above), not ten at once.
    const runs: Awaited<ReturnType<typeof cli>>[] = [];
    for (const [args, input] of cases) runs.push(await cli(args, input));
    cases.forEach(([args, , stderr], i) => {
      expect({ code: runs[i]!.code, stdout: runs[i]!.stdout, stderr: runs[i]!.stderr }, args.join(' ')).toEqual({ code: 1, stdout: '', stderr });
    });
    expect(await count()).toBe(before);
  });
});
