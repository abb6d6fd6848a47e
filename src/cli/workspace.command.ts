import type { Command } from 'commander';
import { seedDemoData } from '../../db/seeds/demo.js';
import { createWorkspace, presentWorkspace } from '../domain/workspaces/workspace.service.js';
import { print, withDatabase } from './context.js';
import { isoDate, nonNegativeInt } from './parse.js';

export function workspaceCommands(program: Command) {
  const workspace = program.command('workspace').description('Manage workspaces');
  workspace
    .command('create')
    .description('Create a workspace with an owner, a workspace API token and a user access token')
    .requiredOption('--name <name>', 'workspace name')
    .option('--trial-ends-at <iso>', 'end of the trial (ISO 8601)', isoDate)
    .option('--mac-limit <n>', 'monthly active contact limit', nonNegativeInt)
    .option('--development-mode', 'mark the workspace as in development', false)
    .option('--demo', 'fill it with the demo data set', false)
    .option('--json', 'print JSON', false)
    .action(async (o: { name: string; trialEndsAt?: string; macLimit?: number; developmentMode: boolean; demo: boolean; json: boolean }) => {
      const created = await withDatabase(async ({ db }) => {
        const c = await createWorkspace(db, { name: o.name, trialEndsAt: o.trialEndsAt ?? null, macLimit: o.macLimit ?? null, developmentMode: o.developmentMode });
        if (o.demo) await seedDemoData(db, c.workspace.id, c.owner.id);
        return c;
      });
      const w = created.workspace;
      const result = {
        workspace: { ...presentWorkspace(w), trialEndsAt: w.trialEndsAt, macLimit: w.macLimit },
        tokens: { developer: created.tokens.developer.token, user: created.tokens.user.token },
      };
      print(
        o.json,
        result,
        [
          `Created workspace ${w.id} "${w.name}"${o.demo ? ' with demo data' : ''}.`,
          `  workspace API token: ${result.tokens.developer}`,
          `  user access token:   ${result.tokens.user}`,
          'Tokens are shown only now; store them safely.',
        ].join('\n'),
      );
    });
}
