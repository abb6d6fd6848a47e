import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, type TestDatabaseUrl } from './support/engine.js';
import { forbidden, envelopes } from './support/endpoints.js';
import { openTestApp } from './support/harness.js';
import { runCli } from './support/processes.js';

/**
 * `token create`, `token list` and `token revoke` (the real CLI process on DATABASE_URL): a new
 * token is printed once and works with exactly the permission and scopes asked for; listings never
 * show secrets; a revoked token stops working.
 */
const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('cli: token create, list, revoke', () => {
  let target: TestDatabaseUrl;
  let workspaceId: string;
  let firstTokens: { developer: string; user: string };
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: target.url });
  const api = async <T>(fn: (app: Awaited<ReturnType<typeof openTestApp>>) => Promise<T>) => {
    // A fresh app per check: no token cache carried over from an earlier check.
    const app = await openTestApp(target.url, { RATE_LIMIT_WORKSPACE_POINTS: '1000' });
    try {
      return await fn(app);
    } finally {
      await app.close();
    }
  };

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    const created = await cli('workspace', 'create', '--name', 'Tokens Inc', '--json');
    ({ workspace: { id: workspaceId }, tokens: firstTokens } = JSON.parse(created.stdout));
  });
  afterAll(() => target.drop());

  it('creates a read-only, scoped workspace API token that can do exactly that', async () => {
    const run = await cli('token', 'create', '--workspace', workspaceId, '--kind', 'developer', '--read-only', '--scopes', 'contacts,tags', '--name', 'reporting', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(run.stdout);
    expect(out).toEqual({ token: expect.stringMatching(/^mdev_[\w-]{43}$/), id: '3', kind: 'developer', permission: 'read_only', scopes: ['contacts', 'tags'], workspaceId });

    await api(async (app) => {
      expect((await app.request('GET', '/v1/tags', { token: out.token })).status).toBe(200);
      expect((await app.request('GET', '/v1/tags', { token: out.token, tokenInQuery: true })).status).toBe(200);
      expect((await app.request('POST', '/v1/contacts', { token: out.token, body: { email: 'a@example.com' } })).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await app.request('GET', '/v1/error-logs', { token: out.token })).body).toEqual(forbidden({ reason: 'missingScope', scope: 'error_logs' }));
    });
  });

  it('creates a full user access token (bearerAuth), refused in ?token=', async () => {
    const run = await cli('token', 'create', '--workspace', workspaceId, '--kind', 'user', '--json');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toEqual({ token: expect.stringMatching(/^musr_[\w-]{43}$/), id: '4', kind: 'user', permission: 'full', scopes: null, workspaceId });
    await api(async (app) => {
      expect((await app.request('POST', '/v1/contacts', { token: out.token, body: { email: 'b@example.com' } })).status).toBe(403);
      expect((await app.request('GET', '/v1/error-logs', { token: out.token })).status).toBe(200);
      expect((await app.request('GET', '/v1/error-logs', { token: out.token, tokenInQuery: true })).body).toEqual(envelopes.INVALID_CHATBOT_TOKEN);
    });
  });

  it('prints the token once as text without --json', async () => {
    const run = await cli('token', 'create', '--workspace', workspaceId, '--kind', 'developer');
    expect(run.stdout).toMatch(/^Created developer token 5 \(full\):\n {2}mdev_[\w-]{43}\nIt is shown only now\.\n$/);
  });

  it('lists tokens without their secrets', async () => {
    const run = await cli('token', 'list', '--workspace', workspaceId, '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const rows = JSON.parse(run.stdout);
    expect(rows).toEqual([
      { id: '1', kind: 'developer', name: 'default workspace API token', prefix: firstTokens.developer.slice(0, 9), permission: 'full', scopes: null, createdAt: expect.stringMatching(isoMs), revokedAt: null },
      { id: '2', kind: 'user', name: 'owner access token', prefix: firstTokens.user.slice(0, 9), permission: 'full', scopes: null, createdAt: expect.stringMatching(isoMs), revokedAt: null },
      { id: '3', kind: 'developer', name: 'reporting', prefix: expect.stringMatching(/^mdev_/), permission: 'read_only', scopes: ['contacts', 'tags'], createdAt: expect.stringMatching(isoMs), revokedAt: null },
      { id: '4', kind: 'user', name: 'API token', prefix: expect.stringMatching(/^musr_/), permission: 'full', scopes: null, createdAt: expect.stringMatching(isoMs), revokedAt: null },
      { id: '5', kind: 'developer', name: 'API token', prefix: expect.stringMatching(/^mdev_/), permission: 'full', scopes: null, createdAt: expect.stringMatching(isoMs), revokedAt: null },
    ]);
    const text = await cli('token', 'list', '--workspace', workspaceId);
    expect(text.code).toBe(0);
    // A readable table: a header row, then one row per token with its prefix and name.
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^│ id +│ kind +│ name +│ prefix +│ permission +│ scopes +│ created +│ revoked +│$/);
    for (const row of rows) expect(lines.some((l) => l.includes(` ${row.prefix} `) && l.includes(` ${row.name} `))).toBe(true);
    expect(text.stdout).not.toMatch(/m(dev|usr)_[\w-]{43}/);
  });

  it('revokes a token: it stops working, the listing shows when, revoking again fails', async () => {
    const created = JSON.parse((await cli('token', 'create', '--workspace', workspaceId, '--kind', 'developer', '--json')).stdout);
    await api(async (app) => expect((await app.request('GET', '/v1/tags', { token: created.token })).status).toBe(200));

    const run = await cli('token', 'revoke', created.id);
    expect(run).toEqual({ code: 0, signal: null, stdout: `Revoked token ${created.id}. Running servers stop accepting it within TOKEN_CACHE_SECONDS.\n`, stderr: '' });
    await api(async (app) => expect((await app.request('GET', '/v1/tags', { token: created.token })).body).toEqual(envelopes.INVALID_CHATBOT_TOKEN));
    const listed = JSON.parse((await cli('token', 'list', '--workspace', workspaceId, '--json')).stdout);
    expect(listed.find((r: { id: string }) => r.id === created.id).revokedAt).toMatch(isoMs);

    const again = await cli('token', 'revoke', created.id);
    expect(again).toMatchObject({ code: 1, stdout: '', stderr: `error: No live token with id ${created.id} (unknown or already revoked)\n` });
  });

  it('refuses bad input with one line and exit 1', async () => {
    const cases: [string[], string][] = [
      [['token', 'create', '--workspace', '999', '--kind', 'developer'], 'error: No workspace with id 999\n'],
      [['token', 'create', '--workspace', workspaceId, '--kind', 'admin'], 'error: --kind must be developer or user\n'],
      [['token', 'create', '--workspace', workspaceId, '--kind', 'developer', '--scopes', 'contacts,billing'], expect.stringMatching(/^error: scopes\.1: .*"contacts".*\n$/)],
      [['token', 'create', '--workspace', 'abc', '--kind', 'developer'], "error: option '--workspace <id>' argument 'abc' is invalid. expected a positive whole number\n"],
      [['token', 'list', '--workspace', '999'], 'error: No workspace with id 999\n'],
      [['token', 'revoke', '0'], "error: command-argument value '0' is invalid for argument 'tokenId'. expected a positive whole number\n"],
    ] as never;
    const runs = await Promise.all(cases.map(([args]) => cli(...args)));
    cases.forEach(([args, stderr], i) => {
      expect({ code: runs[i].code, stdout: runs[i].stdout, stderr: runs[i].stderr }, args.join(' ')).toEqual({ code: 1, stdout: '', stderr });
    });
  });
});
