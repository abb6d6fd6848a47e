import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from './support/engine.js';
import { openTestApp } from './support/harness.js';
import { runCli } from './support/processes.js';

/**
 * `workspace create` (the real CLI process on DATABASE_URL): --json prints
 * {"workspace": {...}, "tokens": {"developer", "user"}}, both tokens full permission and working
 * against the API; plan options land on the workspace; --demo adds the demo data set; mistakes
 * exit 1 with one line.
 */
const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('cli: workspace create', () => {
  let target: FreshDatabase;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: target.url });

  beforeAll(async () => {
    target = await freshDatabase();
  });
  afterAll(() => target.close());

  it('--json prints the workspace and one token of each kind, which work', async () => {
    const run = await cli('workspace', 'create', '--name', 'Acme Retail', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(run.stdout);
    expect(out).toEqual({
      workspace: {
        id: '1',
        name: 'Acme Retail',
        // Settings start at the domain's defaults (whatever they are, the API shows the same).
        defaultReply: expect.any(String),
        targetCountry: expect.any(String),
        language: expect.any(String),
        timezone: expect.any(String),
        brandColor: expect.any(String),
        logo: expect.any(String),
        ownerId: expect.stringMatching(/^\d+$/),
        developmentMode: false,
        createdAt: expect.stringMatching(isoMs),
        updatedAt: expect.stringMatching(isoMs),
        trialEndsAt: null,
        macLimit: null,
      },
      tokens: { developer: expect.stringMatching(/^mdev_[\w-]{43}$/), user: expect.stringMatching(/^musr_[\w-]{43}$/) },
    });

    const app = await openTestApp(target.url);
    try {
      const viaHeader = await app.request('GET', '/v1/workspaces', { token: out.tokens.developer });
      const viaQuery = await app.request('GET', '/v1/workspaces', { token: out.tokens.developer, tokenInQuery: true });
      const { trialEndsAt, macLimit, ...contractFields } = out.workspace;
      expect([viaHeader.status, viaHeader.body]).toEqual([200, contractFields]);
      expect([viaQuery.status, viaQuery.body]).toEqual([200, contractFields]);
      // The user access token acts as the owner with full permission.
      const created = await app.request('POST', '/v1/photo-comments', {
        token: out.tokens.user,
        body: {
          name: 'From the CLI token', type: 'photo', post: { type: 'all', value: [] }, privateReply: { type: 'none', value: null }, publicReply: { type: 'none', value: null },
          includeKeywords: { type: 'all', value: [] }, excludeKeywords: [],
          options: { replyToNewContactsOnly: false, replyOncePerUserPerPost: false, likeUserComment: false, replyToUsersWhoCommentedOnOtherPosts: false, ignoreCommentReplies: false, trackUserTags: false },
          hideComments: { all: false, hasPhoneNumber: false, hasImage: false, hasVideo: false, hasLink: false, hasKeywords: false, keywords: [], showCommentsAfter: 'none' },
          replyAfter: { type: 'immediately', value: 0 },
        },
      });
      expect(created.status).toBe(201);
    } finally {
      await app.close();
    }
    const stored = await target.database.db.selectFrom('api_tokens').select(['kind', 'permission', 'scopes', 'user_id']).where('workspace_id', '=', 1).orderBy('id').execute();
    expect(stored).toEqual([
      { kind: 'developer', permission: 'full', scopes: null, user_id: null },
      { kind: 'user', permission: 'full', scopes: null, user_id: Number(out.workspace.ownerId) },
    ]);
    // Only hashes are stored.
    const hashes = await target.database.db.selectFrom('api_tokens').select('token_hash').execute();
    expect(JSON.stringify(hashes)).not.toContain(out.tokens.developer.slice(5));
  });

  it('sets the trial end, the MAC limit and development mode; --demo fills every area', async () => {
    const run = await cli('workspace', 'create', '--name', 'Trial Co', '--trial-ends-at', '2030-01-31T23:00:00+01:00', '--mac-limit', '500', '--development-mode', '--demo', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(run.stdout);
    expect(out.workspace).toMatchObject({ name: 'Trial Co', developmentMode: true, trialEndsAt: '2030-01-31T22:00:00.000Z', macLimit: 500 });
    const id = Number(out.workspace.id);
    const count = async (table: string) =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where workspace_id = ${id}`.execute(target.database.db)).rows[0].n);
    for (const table of ['contacts', 'contact_custom_fields', 'tags', 'contact_notes', 'inboxes', 'conversations', 'sequence_subscriptions', 'comment_automations', 'lead_ad_automations', 'dynamic_images', 'error_logs', 'flows']) {
      expect(await count(table), table).toBeGreaterThan(0);
    }
  });

  it('without --json prints the tokens as text', async () => {
    const run = await cli('workspace', 'create', '--name', 'Plain');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created workspace \d+ "Plain"\.\n {2}workspace API token: mdev_[\w-]{43}\n {2}user access token: {3}musr_[\w-]{43}\nTokens are shown only now; store them safely\.\n$/);
  });

  it('refuses bad input with one line and exit 1, creating nothing', async () => {
    const before = (await target.database.db.selectFrom('workspaces').select('id').execute()).length;
    const cases: [string[], string][] = [
      [['workspace', 'create', '--json'], "error: required option '--name <name>' not specified\n"],
      [['workspace', 'create', '--name', 'X', '--trial-ends-at', 'tomorrow'], "error: option '--trial-ends-at <iso>' argument 'tomorrow' is invalid. expected an ISO 8601 date-time such as 2026-12-31T00:00:00Z\n"],
      [['workspace', 'create', '--name', 'X', '--mac-limit', '-3'], "error: option '--mac-limit <n>' argument '-3' is invalid. expected a whole number from 0\n"],
      [['workspace', 'create', '--name', '   '], 'error: name: Too small: expected string to have >=1 characters\n'],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args)));
    cases.forEach(([args, stderr], i) => {
      expect({ code: runs[i].code, stdout: runs[i].stdout, stderr: runs[i].stderr }, args.join(' ')).toEqual({ code: 1, stdout: '', stderr });
    });
    expect((await target.database.db.selectFrom('workspaces').select('id').execute()).length).toBe(before);
  });
});
