import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { openTestApp } from './support/harness.js';
import { runCli } from './support/processes.js';
import { workerSchemaForTest } from './support/queue.js';

/**
 * `contacts import FILE` and `contacts export` (the real CLI process): the file goes through the
 * import services and the job runs in the CLI's own process (no server), which then prints the
 * import as the API answers it, or a one-line summary on stderr; the export writes the CSV the
 * export job wrote, to --out or stdout.
 */
// Every CLI run starts a process with tsx, and the last test starts six at once.
describe('cli: contacts import and export', { timeout: 90_000 }, () => {
  let target: FreshDatabase;
  let dir: string;
  let workspaceId: string;
  let token: string;
  let inboxId: number;
  // PostgreSQL: the CLI's jobs go to a graphile-worker schema of this test alone.
  const workerSchema = workerSchemaForTest();
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: target.url, WORKER_SCHEMA: workerSchema });
  const csvFile = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const contacts = () =>
    target.database.db
      .selectFrom('contacts')
      .select(['first_name', 'email', 'phone_number'])
      .where('workspace_id', '=', Number(workspaceId))
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    target = await freshDatabase();
    dir = mkdtempSync(join(tmpdir(), 'msgapi-cli-transfer-'));
    const created = JSON.parse((await cli('workspace', 'create', '--name', 'Transfers', '--json')).stdout);
    workspaceId = created.workspace.id;
    token = created.tokens.developer;
    inboxId = await fixtures(target.database.db, Number(workspaceId)).inbox('Imports');
  });
  afterAll(async () => {
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a CSV with the suggested mapping and --json prints the import as the API answers it', async () => {
    const file = csvFile(
      'contacts.csv',
      'First name,Email,Phone\nAda,ada@mail.example,+14155550123\nBob,bob@mail.example,\nCy,not-an-email,+14155550124\nDee,,(415) 555-0125\nEve,eve@mail.example,\n',
    );
    const run = await cli('contacts', 'import', file, '--workspace', workspaceId, '--inbox', String(inboxId), '--country-code', '+1', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const final = JSON.parse(run.stdout);
    expect(final).toMatchObject({
      fileName: 'contacts.csv',
      status: 'completed',
      totalCount: 5,
      processedCount: 5,
      successCount: 4,
      createdCount: 4,
      updatedCount: 0,
      skippedCount: 0,
      failedCount: 1,
      errorMessage: null,
      errorSample: [{ row: 4, code: 'invalidEmail', path: 'email', reason: 'Email: "not-an-email" is not a valid email address' }],
    });

    expect(await contacts()).toEqual([
      { first_name: 'Ada', email: 'ada@mail.example', phone_number: '+14155550123' },
      { first_name: 'Bob', email: 'bob@mail.example', phone_number: null },
      { first_name: 'Dee', email: null, phone_number: '+14155550125' },
      { first_name: 'Eve', email: 'eve@mail.example', phone_number: null },
    ]);
    const joined = await target.database.db.selectFrom('contact_inboxes').select('inbox_id').where('workspace_id', '=', Number(workspaceId)).execute();
    expect(joined).toEqual(Array(4).fill({ inbox_id: inboxId }));
    const app = await openTestApp(target.url);
    try {
      const answered = await app.request('GET', `/v1/contacts/imports/${final.id}`, { token });
      expect([answered.status, answered.body]).toEqual([200, final]);
    } finally {
      await app.close();
    }
  });

  it('without --json prints one summary line on stderr naming where the rows not taken are', async () => {
    // Ada's first name changes (updated); Bob's row changes nothing (skipped).
    const file = csvFile('again.csv', 'Given,Mail\nAdaline,ada@mail.example\nBob,bob@mail.example\n');
    const run = await cli('contacts', 'import', file, '--workspace', workspaceId, '--inbox', String(inboxId), '--map', 'firstName=Given', '--map', 'email=Mail');
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: '' });
    expect(run.stderr).toMatch(
      /^Imported again\.csv \(import (\d+)\): 0 created, 1 updated, 1 skipped, 0 failed of 2 rows in \d+\.\d s \(\d+ rows\/s\); rows not taken: GET \/v1\/contacts\/imports\/\1\/errors\.csv\.\n$/,
    );
    expect((await contacts()).map((c) => c.first_name)).toEqual(['Adaline', 'Bob', 'Dee', 'Eve']);
  });

  it('exports to --out (BOM, CRLF, newest first) and --json prints the export file', async () => {
    const out = join(dir, 'export.csv');
    const run = await cli('contacts', 'export', '--workspace', workspaceId, '--fields', 'sys:firstName,sys:email', '--out', out, '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'ready', rowCount: 4, errorMessage: null, url: expect.stringContaining('/files/contact-exports/') });
    expect(readFileSync(out, 'utf8')).toBe('\ufeffFirst Name,Email\r\nEve,eve@mail.example\r\nDee,\r\nBob,bob@mail.example\r\nAdaline,ada@mail.example\r\n');
  });

  it('exports the contacts given to stdout, the summary to stderr', async () => {
    const [ada, bob] = await target.database.db.selectFrom('contacts').select('id').where('workspace_id', '=', Number(workspaceId)).orderBy('id').limit(2).execute();
    const run = await cli('contacts', 'export', '--workspace', workspaceId, '--fields', 'sys:email', '--contacts', `${bob!.id},${ada!.id}`);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: '\ufeffEmail\r\nada@mail.example\r\nbob@mail.example\r\n' });
    expect(run.stderr).toMatch(/^Exported 2 contacts \(export file \d+\) to stdout in \d+\.\d s \(\d+ rows\/s\)\.\n$/);
  });

  it('refuses mistakes with one line and exit 1', async () => {
    const file = csvFile('one.csv', 'Email\nzed@mail.example\n');
    const cases: [string[], string][] = [
      [['contacts', 'import', file, '--workspace', '999', '--inbox', String(inboxId)], 'error: No workspace with id 999\n'],
      [['contacts', 'import', file, '--workspace', workspaceId, '--inbox', '999'], 'error: Inbox not found\n'],
      [['contacts', 'import', file, '--workspace', workspaceId, '--inbox', String(inboxId), '--map', 'email=E-mail'], 'error: columnMap.email: The file has no column "E-mail"; its columns are "Email"\n'],
      [['contacts', 'import', file, '--workspace', workspaceId, '--inbox', String(inboxId), '--map', 'email'], "error: option '--map <field=Column>' argument 'email' is invalid. expected field=Column\n"],
      [['contacts', 'export', '--workspace', workspaceId, '--fields', 'sys:email', '--json'], 'error: --json needs --out: without it stdout carries the CSV\n'],
      [['contacts', 'export', '--workspace', workspaceId, '--fields', 'sys:email', '--all', '--contacts', '1'], 'error: input: Give exactly one of exportAll: true, filter or contactIds\n'],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args)));
    cases.forEach(([args, stderr], i) => {
      expect({ code: runs[i]!.code, stdout: runs[i]!.stdout, stderr: runs[i]!.stderr }, args.join(' ')).toEqual({ code: 1, stdout: '', stderr });
    });
    expect(await contacts()).toHaveLength(4);
  });
});
