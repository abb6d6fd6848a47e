import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { freshDatabaseUrl, type TestDatabaseUrl } from './support/engine.js';
import { openTestApp } from './support/harness.js';
import { runCli } from './support/processes.js';

/**
 * `seed --workspace ID --contacts N` (the real CLI process): N synthetic contacts with
 * proportional related rows in every area, usable through the API at once; seeding again adds N
 * more without collisions; other workspaces are untouched.
 */
describe('cli: seed', () => {
  let target: TestDatabaseUrl;
  let database: Database;
  let workspaceId: number;
  let otherId: number;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: target.url });
  const count = async (table: string, ws = workspaceId) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where workspace_id = ${ws}`.execute(database.db)).rows[0].n);

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    workspaceId = Number(JSON.parse((await cli('workspace', 'create', '--name', 'Bulk', '--json')).stdout).workspace.id);
    otherId = Number(JSON.parse((await cli('workspace', 'create', '--name', 'Bystander', '--json')).stdout).workspace.id);
    database = createDatabase(target.url);
  });
  afterAll(async () => {
    await database.destroy();
    await target.drop();
  });

  it('fills the workspace with N contacts and proportional related rows', async () => {
    const run = await cli('seed', '--workspace', String(workspaceId), '--contacts', '500');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Seeded 500 contacts into workspace \d+ in \d+\.\d s \(\d+ contacts\/s\)\.\n$/);

    expect(await count('contacts')).toBe(500);
    expect(await count('contact_custom_fields')).toBe(1000); // two values each
    expect(await count('contact_inboxes')).toBe(500);
    expect(await count('error_logs')).toBe(500);
    expect(await count('dynamic_images')).toBe(10);
    expect(await count('tags')).toBe(20);
    expect(await count('inboxes')).toBe(3);
    expect(await count('inbox_teams')).toBe(2);
    expect(await count('sequences')).toBe(3);
    const tagged = await count('contact_tags');
    expect(tagged).toBeGreaterThan(600);
    expect(tagged).toBeLessThan(900);
    for (const [table, share] of [['contact_notes', 0.5], ['conversations', 0.5], ['sequence_subscriptions', 0.3]] as const) {
      const n = await count(table);
      expect(n, table).toBeGreaterThan(500 * share * 0.8);
      expect(n, table).toBeLessThan(500 * share * 1.2);
    }
    // Nothing leaked into another workspace.
    expect(await count('contacts', otherId)).toBe(0);
  });

  it('makes data the API serves at once', async () => {
    const token = JSON.parse((await cli('token', 'create', '--workspace', String(workspaceId), '--kind', 'developer', '--json')).stdout).token;
    const contact = await database.db.selectFrom('contacts').select(['email', 'phone_number']).where('workspace_id', '=', workspaceId).orderBy('id').executeTakeFirstOrThrow();
    const app = await openTestApp(target.url);
    try {
      const fields = await app.request('GET', `/v1/contacts/${encodeURIComponent(contact.email!)}/custom-fields`, { token });
      expect(fields.status).toBe(200);
      // Every field of the workspace is listed; the seed set two of them for each contact.
      expect(fields.body.data.filter((f: { value: string }) => f.value !== '')).toHaveLength(2);
      const byPhone = await app.request('GET', `/v1/contacts/${encodeURIComponent(contact.phone_number!)}/custom-fields`, { token });
      expect(byPhone.body).toEqual(fields.body);
      const logs = await app.request('GET', '/v1/error-logs?perPage=50', { token });
      expect([logs.status, logs.body.pageCount, logs.body.data.length]).toEqual([200, 10, 50]);
    } finally {
      await app.close();
    }
  });

  it('seeds again without colliding with the first run', async () => {
    const run = await cli('seed', '--workspace', String(workspaceId), '--contacts', '300', '--seed', '7');
    expect(run.code).toBe(0);
    expect(await count('contacts')).toBe(800);
    const emails = await database.db.selectFrom('contacts').select('email').where('workspace_id', '=', workspaceId).execute();
    expect(new Set(emails.map((e) => e.email)).size).toBe(800);
    expect(await count('tags')).toBe(20); // reference rows are reused, not duplicated
  });

  it('refuses an unknown workspace and a bad count with one line and exit 1', async () => {
    const cases: [string[], string][] = [
      [['seed', '--workspace', '999', '--contacts', '10'], 'error: No workspace with id 999\n'],
      [['seed', '--workspace', String(workspaceId), '--contacts', '0'], "error: option '--contacts <n>' argument '0' is invalid. expected a whole number from 1 to 10,000,000\n"],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args)));
    cases.forEach(([args, stderr], i) => {
      expect({ code: runs[i].code, stdout: runs[i].stdout, stderr: runs[i].stderr }, args.join(' ')).toEqual({ code: 1, stdout: '', stderr });
    });
    expect(await count('contacts')).toBe(800);
  });
});
