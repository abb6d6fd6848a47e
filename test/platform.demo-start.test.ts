import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { startServer, type RunningServer } from './support/processes.js';

/**
 * `npm start` (tsx src/server.ts) on an empty database: applies the migrations, seeds a demo
 * workspace with data in every resource area, and prints the GraphiQL URL, the REST base URL and
 * the demo tokens, which work. A second start finds the workspace, seeds nothing and prints the
 * same tokens again (kept per database, mode 0600, beside the SQLite file or in ./data).
 */
describe(`npm start on an empty ${testEngine} database`, () => {
  let target: TestDatabaseUrl;
  let cwd: string;
  let server: RunningServer;
  let banner: string;
  let tokens: { developer: string; user: string };
  let database: Database;

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    cwd = mkdtempSync(join(tmpdir(), 'msgapi-start-'));
    server = await startServer({ DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { cwd });
    banner = server.output().stdout;
    const m = /workspace API token: (mdev_\S+)\n {2}user access token: {3}(musr_\S+)/.exec(banner);
    tokens = { developer: m?.[1] ?? '', user: m?.[2] ?? '' };
    database = createDatabase(target.url);
  });
  afterAll(async () => {
    await server?.stop();
    await database?.destroy();
    await target.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('prints where to call it and the demo tokens', () => {
    const base = server.base;
    expect(banner).toBe(
      [
        '',
        `Messaging API listening on ${base} (${testEngine})`,
        `  Web app:       ${base}/app/  (contacts inbox; paste the workspace API token)`,
        `  GraphiQL:      ${base}/graphql`,
        `  REST base URL: ${base}/v1`,
        `  API reference: ${base}/docs`,
        '',
        'Demo workspace "Demo Workspace" (id 1)',
        `  workspace API token: ${tokens.developer}`,
        `  user access token:   ${tokens.user}`,
        '',
        'Try it:',
        `  curl -H "Authorization: Bearer ${tokens.developer}" ${base}/v1/tags`,
        `  curl "${base}/v1/workspaces?token=${tokens.developer}"`,
        `  curl -H "Authorization: Bearer ${tokens.developer}" -H "Content-Type: application/json" \\`,
        `       -d '{"query":"{ contacts(first: 2) { edges { node { fullName tags { name } } } } }"}' ${base}/graphql`,
        '',
        '',
      ].join('\n'),
    );
    expect(tokens.developer).toMatch(/^mdev_[\w-]{43}$/);
    expect(tokens.user).toMatch(/^musr_[\w-]{43}$/);
  });

  it('serves GraphiQL to a browser and the REST API to the printed tokens', async () => {
    const page = await fetch(`${server.base}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Messaging API · GraphiQL</title>');

    const workspace = await fetch(`${server.base}/v1/workspaces?token=${tokens.developer}`);
    expect(workspace.status).toBe(200);
    expect(await workspace.json()).toMatchObject({ id: '1', name: 'Demo Workspace', developmentMode: true });
    const tags = await fetch(`${server.base}/v1/tags`, { headers: { authorization: `Bearer ${tokens.user}` } });
    expect(tags.status).toBe(200);
    expect(((await tags.json()) as { data: unknown[] }).data).toHaveLength(6);
    for (const path of ['/v1/dynamic-images', '/v1/error-logs']) {
      const res = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${tokens.developer}` } });
      expect(((await res.json()) as { data: unknown[] }).data.length, path).toBeGreaterThan(0);
    }
  });

  it('seeds realistic data in every resource area', async () => {
    const count = async (table: string, where = sql`true`) =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where workspace_id = 1 and ${where}`.execute(database.db)).rows[0].n);
    const counts = {
      users: await count('users'),
      contacts: await count('contacts'),
      customFields: await count('custom_fields'),
      customFieldValues: await count('contact_custom_fields'),
      tags: await count('tags'),
      contactTags: await count('contact_tags'),
      notes: await count('contact_notes'),
      inboxes: await count('inboxes'),
      contactInboxes: await count('contact_inboxes'),
      teams: await count('inbox_teams'),
      conversations: await count('conversations'),
      fullyAssignedConversations: await count('conversations', sql`assigned_user_id is not null and assigned_inbox_team_id is not null and inbox_id is not null`),
      sequences: await count('sequences'),
      subscriptions: await count('sequence_subscriptions'),
      photoAutomations: await count('comment_automations', sql`channel = 'photo'`),
      netAutomations: await count('comment_automations', sql`channel = 'net'`),
      leadAds: await count('lead_ad_automations'),
      dynamicImages: await count('dynamic_images'),
      errorLogs: await count('error_logs'),
      tokens: await count('api_tokens'),
    };
    for (const [area, n] of Object.entries(counts)) expect(n, area).toBeGreaterThan(0);
    expect(counts.tokens).toBe(2);
    // Some contacts are active this month, so the plan gates have something to count.
    const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).toISOString();
    expect(await count('contacts', sql`created_at >= ${monthStart} or last_message_at >= ${monthStart}`)).toBeGreaterThan(0);
  });

  it('keeps the demo tokens in a file only its owner can read', () => {
    const file =
      testEngine === 'sqlite'
        ? `${target.url}.demo-tokens.json`
        : join(cwd, 'data', readdirSync(join(cwd, 'data')).find((f) => /^demo-tokens\.postgres\.test\.[0-9a-f]{12}\.json$/.test(f))!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ workspaceId: '1', name: 'Demo Workspace', developerToken: tokens.developer, userToken: tokens.user });
  });

  it('on the next start seeds nothing and prints the same tokens', async () => {
    await server.stop();
    const contactsBefore = (await database.db.selectFrom('contacts').select('id').execute()).length;
    server = await startServer({ DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { cwd });
    const again = server.output().stdout;
    expect(again).toContain(`  workspace API token: ${tokens.developer}\n  user access token:   ${tokens.user}\n`);
    expect((await database.db.selectFrom('workspaces').select('id').execute()).length).toBe(1);
    expect((await database.db.selectFrom('contacts').select('id').execute()).length).toBe(contactsBefore);
  });

  it('keeps demo tokens per database: another database beside it does not overwrite them', async () => {
    await server.stop();
    const other = await freshDatabaseUrl();
    try {
      const second = await startServer({ DATABASE_URL: other.url, LOG_LEVEL: 'warn' }, { cwd });
      const otherTokens = /workspace API token: (mdev_\S+)/.exec(second.output().stdout)?.[1];
      await second.stop();
      expect(otherTokens).toMatch(/^mdev_/);
      expect(otherTokens).not.toBe(tokens.developer);
    } finally {
      await other.drop();
    }
    server = await startServer({ DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { cwd });
    expect(server.output().stdout).toContain(`  workspace API token: ${tokens.developer}\n  user access token:   ${tokens.user}\n`);
  });

  it('does not print saved tokens that no longer work, and says how to make one', async () => {
    await server.stop();
    await database.db.updateTable('api_tokens').set({ revoked_at: new Date().toISOString() }).where('kind', '=', 'developer').execute();
    server = await startServer({ DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { cwd });
    const out = server.output().stdout;
    expect(out).not.toContain('mdev_');
    expect(out).not.toContain('musr_');
    expect(out).toContain(
      [
        'Every call needs a token; tokens are shown only when they are created. Make one with:',
        '  npm run --silent cli -- workspace create --name "My workspace" --json',
        '  npm run --silent cli -- token create --workspace <id> --kind developer --json',
      ].join('\n'),
    );
  });
});
