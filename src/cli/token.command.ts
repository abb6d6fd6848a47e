import Table from 'cli-table3';
import type { Command } from 'commander';
import { issueToken, listWorkspaceTokens, revokeTokenById } from '../domain/auth/token.service.js';
import { scopes } from '../domain/auth/scopes.js';
import { findWorkspace } from '../domain/workspaces/workspace.repository.js';
import { CliError, print, withDatabase } from './context.js';
import { commaList, positiveId } from './parse.js';

export function tokenCommands(program: Command) {
  const token = program.command('token').description('Manage API tokens');

  token
    .command('create')
    .description('Create a token (shown once)')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .requiredOption('--kind <kind>', 'developer (workspace API token) or user (user access token)')
    .option('--read-only', 'read-only permission', false)
    .option('--scopes <list>', `comma-separated scopes (${scopes.join(', ')}); all when omitted`, commaList)
    .option('--name <name>', 'a label for the token')
    .option('--json', 'print JSON', false)
    .action(async (o: { workspace: number; kind: string; readOnly: boolean; scopes?: string[]; name?: string; json: boolean }) => {
      if (o.kind !== 'developer' && o.kind !== 'user') throw new CliError('--kind must be developer or user');
      const issued = await withDatabase(async ({ db }) => {
        if (!(await findWorkspace(db, o.workspace))) throw new CliError(`No workspace with id ${o.workspace}`);
        return issueToken(db, o.workspace, {
          kind: o.kind as 'developer' | 'user',
          readOnly: o.readOnly,
          scopes: (o.scopes ?? null) as never,
          ...(o.name ? { name: o.name } : {}),
        });
      });
      const r = issued.record;
      const out = { token: issued.token, id: String(r.id), kind: r.kind, permission: r.permission, scopes: r.scopes, workspaceId: String(r.workspaceId) };
      print(o.json, out, `Created ${r.kind} token ${r.id} (${r.permission}${r.scopes ? `, scopes ${r.scopes.join(',')}` : ''}):\n  ${issued.token}\nIt is shown only now.`);
    });

  token
    .command('list')
    .description("List a workspace's tokens (never their secrets)")
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .option('--json', 'print JSON', false)
    .action(async (o: { workspace: number; json: boolean }) => {
      const rows = await withDatabase(async ({ db }) => {
        if (!(await findWorkspace(db, o.workspace))) throw new CliError(`No workspace with id ${o.workspace}`);
        return listWorkspaceTokens(db, o.workspace);
      });
      const out = rows.map((r) => ({
        id: String(r.id), kind: r.kind, name: r.name, prefix: r.tokenPrefix, permission: r.permission, scopes: r.scopes, createdAt: r.createdAt, revokedAt: r.revokedAt,
      }));
      if (o.json) return print(true, out, '');
      if (!out.length) return console.log(`No tokens in workspace ${o.workspace}.`);
      // A plain table an operator can read (and copy a prefix from): no colours, no index column.
      const table = new Table({ head: ['id', 'kind', 'name', 'prefix', 'permission', 'scopes', 'created', 'revoked'], style: { head: [], border: [] } });
      for (const r of out) table.push([r.id, r.kind, r.name, r.prefix, r.permission, r.scopes?.join(',') ?? 'all', r.createdAt, r.revokedAt ?? '']);
      console.log(table.toString());
    });

  token
    .command('revoke')
    .description('Revoke a token by id')
    .argument('<tokenId>', 'token id', positiveId)
    .action(async (tokenId: number) => {
      const revoked = await withDatabase(({ db }) => revokeTokenById(db, tokenId));
      if (!revoked) throw new CliError(`No live token with id ${tokenId} (unknown or already revoked)`);
      console.log(`Revoked token ${tokenId}. Running servers stop accepting it within TOKEN_CACHE_SECONDS.`);
    });
}
