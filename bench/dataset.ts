import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createWorkspace } from '../src/domain/workspaces/workspace.service.js';
import { seedSyntheticContacts } from '../db/seeds/synthetic.js';
import { mulberry32 } from '../db/seeds/prng.js';
import { errorActions as actions, errorDetails as details } from '../db/seeds/samples.js';

export interface Dataset {
  databaseUrl: string;
  workspaceId: number;
  token: string;
  contacts: number;
  errorLogs: number;
}


/**
 * The benchmark workspace, built once and reused: N synthetic contacts (fixed seed) and error logs
 * topped up to `errorLogs` rows so substring search is measured at scale.
 */
export async function ensureDataset(opts: { contacts: number; errorLogs: number; seed: number }): Promise<Dataset> {
  const dir = join(import.meta.dirname, 'data');
  mkdirSync(dir, { recursive: true });
  const databaseUrl = join(dir, `bench-${opts.contacts}-${opts.errorLogs}-${opts.seed}.db`);
  const metaFile = `${databaseUrl}.json`;
  if (existsSync(metaFile) && existsSync(databaseUrl)) return JSON.parse(readFileSync(metaFile, 'utf8')) as Dataset;

  const database = createDatabase(databaseUrl);
  await migrateToLatest(database.db);
  const created = await createWorkspace(database.db, { name: 'Bench' });
  const workspaceId = created.workspace.id;
  const started = Date.now();
  await seedSyntheticContacts(database.db, workspaceId, opts.contacts, { seed: opts.seed });
  console.error(`seeded ${opts.contacts} contacts in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const have = Number((await database.db.selectFrom('error_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const random = mulberry32(opts.seed + 1);
  const now = Date.now();
  const batch = 500;
  for (let done = have; done < opts.errorLogs; ) {
    const n = Math.min(batch * 20, opts.errorLogs - done);
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < n; i += batch) {
        const rows = Array.from({ length: Math.min(batch, n - i) }, () => {
          const at = new Date(now - Math.floor(random() * 90 * 86_400_000)).toISOString();
          return {
            workspace_id: workspaceId,
            contact_id: null,
            action: actions[Math.floor(random() * actions.length)],
            detail: `${details[Math.floor(random() * details.length)]} #${Math.floor(random() * 1e6)}`,
            http_code: random() < 0.5 ? '400' : '500',
            created_at: at,
            updated_at: at,
          };
        });
        await trx.insertInto('error_logs').values(rows).execute();
      }
    });
    done += n;
  }
  await database.destroy();

  const dataset: Dataset = { databaseUrl, workspaceId, token: created.tokens.developer.token, contacts: opts.contacts, errorLogs: opts.errorLogs };
  writeFileSync(metaFile, JSON.stringify(dataset, null, 2));
  return dataset;
}
