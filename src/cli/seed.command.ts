import { SingleBar, Presets } from 'cli-progress';
import type { Command } from 'commander';
import { seedSyntheticContacts } from '../../db/seeds/synthetic.js';
import { findWorkspace } from '../domain/workspaces/workspace.repository.js';
import { CliError, withDatabase } from './context.js';
import { contactCount, nonNegativeInt, positiveId } from './parse.js';

export function seedCommand(program: Command) {
  program
    .command('seed')
    .description('Fill a workspace with N synthetic contacts and proportional related rows')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .requiredOption('--contacts <n>', 'number of contacts', contactCount)
    .option('--seed <n>', 'random seed (same seed, same data)', nonNegativeInt, 42)
    .action(async (o: { workspace: number; contacts: number; seed: number }) => {
      const bar = process.stderr.isTTY ? new SingleBar({ format: 'seeding [{bar}] {value}/{total} contacts | {eta}s left', stream: process.stderr }, Presets.shades_classic) : null;
      const started = Date.now();
      await withDatabase(async ({ db }) => {
        if (!(await findWorkspace(db, o.workspace))) throw new CliError(`No workspace with id ${o.workspace}`);
        bar?.start(o.contacts, 0);
        await seedSyntheticContacts(db, o.workspace, o.contacts, { seed: o.seed, onProgress: (done) => bar?.update(done) });
        bar?.stop();
      });
      const seconds = (Date.now() - started) / 1000;
      console.error(`Seeded ${o.contacts} contacts into workspace ${o.workspace} in ${seconds.toFixed(1)} s (${Math.round(o.contacts / seconds)} contacts/s).`);
    });
}
