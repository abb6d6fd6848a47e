import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { isPostgresUrl } from '../src/config/config.js';
import { createDatabase } from '../src/db/database.js';
import { mulberry32 } from '../db/seeds/prng.js';
import { errorActions as actions, errorDetails as details } from '../db/seeds/samples.js';
import { nodeArgs, repoRoot } from './lib.js';

export interface Dataset {
  databaseUrl: string;
  engine: 'sqlite' | 'postgres';
  workspaceId: number;
  token: string;
  contacts: number;
  errorLogs: number;
  seed: number;
  /** Wall-clock seconds of the build that made this data set (a cached one keeps its first build's). */
  seconds: { seed: number; errorLogs: number; total: number };
}

const run = promisify(execFile);
const metaTable = 'bench_dataset';

/**
 * The benchmark workspace, built once per engine, size and seed and reused: the same steps an
 * operator takes (`cli workspace create`, `cli seed`, as child processes, so the data is the CLI's
 * on both engines), then error logs topped up to `errorLogs` rows (fixed seed) so substring search
 * is measured at scale. SQLite keeps its file under bench/data with a .json beside it; PostgreSQL
 * keeps the same JSON in a `bench_dataset` table of the database, written last, so a build that
 * stopped half way is not taken for a finished one: the database is then emptied and built again.
 */
export async function ensureDataset(opts: { databaseUrl?: string; contacts: number; errorLogs: number; seed: number }): Promise<Dataset> {
  const dir = join(import.meta.dirname, 'data');
  mkdirSync(dir, { recursive: true });
  const databaseUrl = opts.databaseUrl ?? join(dir, `bench-${opts.contacts}-${opts.errorLogs}-${opts.seed}.db`);
  const engine = isPostgresUrl(databaseUrl) ? 'postgres' : 'sqlite';
  const key = `${opts.contacts}-${opts.errorLogs}-${opts.seed}`;

  const cached = engine === 'sqlite' ? readSqliteMeta(databaseUrl) : await readPostgresMeta(databaseUrl, key);
  if (cached) return cached;

  if (engine === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm', '.json']) rmSync(databaseUrl + suffix, { force: true });
  } else {
    await emptyPostgres(databaseUrl);
  }

  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
  const started = Date.now();
  // The compiled CLI when there is one (run.ts builds first), else the one `npm run cli` runs.
  const cli = existsSync(join(repoRoot, 'dist/src/cli/index.js')) ? [join(repoRoot, 'dist/src/cli/index.js')] : [...nodeArgs(true), join(repoRoot, 'src/cli/index.ts')];
  const created = JSON.parse((await run(process.execPath, [...cli, 'workspace', 'create', '--name', 'Bench', '--json'], { env, cwd: repoRoot })).stdout) as {
    workspace: { id: string | number };
    tokens: { developer: string };
  };
  const workspaceId = Number(created.workspace.id);
  console.error(`bench data set (${engine}): seeding ${opts.contacts} contacts with the CLI`);
  const seedStarted = Date.now();
  const seeded = await run(process.execPath, [...cli, 'seed', '--workspace', String(workspaceId), '--contacts', String(opts.contacts), '--seed', String(opts.seed)], { env, cwd: repoRoot, maxBuffer: 1 << 24 });
  process.stderr.write(seeded.stderr);
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const logsStarted = Date.now();
  await topUpErrorLogs(databaseUrl, workspaceId, opts.errorLogs, opts.seed);
  const logsSeconds = (Date.now() - logsStarted) / 1000;
  console.error(`bench data set (${engine}): error logs topped up to ${opts.errorLogs} in ${logsSeconds.toFixed(1)} s`);

  const dataset: Dataset = {
    databaseUrl,
    engine,
    workspaceId,
    token: created.tokens.developer,
    contacts: opts.contacts,
    errorLogs: opts.errorLogs,
    seed: opts.seed,
    seconds: { seed: seedSeconds, errorLogs: logsSeconds, total: (Date.now() - started) / 1000 },
  };
  if (engine === 'sqlite') writeFileSync(`${databaseUrl}.json`, JSON.stringify(dataset, null, 2));
  else await writePostgresMeta(databaseUrl, key, dataset);
  return dataset;
}

function readSqliteMeta(file: string): Dataset | null {
  if (!existsSync(file) || !existsSync(`${file}.json`)) return null;
  const meta = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as Partial<Dataset>;
  // Files written before the engine was recorded hold the same data, built by the same seed.
  return { engine: 'sqlite', seed: 42, seconds: { seed: NaN, errorLogs: NaN, total: NaN }, ...meta } as Dataset;
}

async function readPostgresMeta(url: string, key: string): Promise<Dataset | null> {
  const database = createDatabase(url);
  try {
    const found = await sql<{ exists: boolean }>`select to_regclass(${metaTable}) is not null as exists`.execute(database.db);
    if (!found.rows[0]?.exists) return null;
    const row = await sql<{ meta: string }>`select meta from ${sql.table(metaTable)} where key = ${key}`.execute(database.db);
    return row.rows[0] ? ({ ...JSON.parse(row.rows[0].meta), databaseUrl: url } as Dataset) : null;
  } finally {
    await database.destroy();
  }
}

async function writePostgresMeta(url: string, key: string, dataset: Dataset) {
  const database = createDatabase(url);
  try {
    // Statistics for the planner after the bulk load, as docs/postgres-redis.md asks of any seeded database.
    await sql`vacuum analyze`.execute(database.db);
    await sql`create table if not exists ${sql.table(metaTable)} (key text primary key, meta text not null)`.execute(database.db);
    await sql`insert into ${sql.table(metaTable)} (key, meta) values (${key}, ${JSON.stringify(dataset)})`.execute(database.db);
  } finally {
    await database.destroy();
  }
}

/** A PostgreSQL database without our data set (or with a half-built one): emptied, as bench/engine.ts does. */
async function emptyPostgres(url: string) {
  if (/\/test(\?|$)/.test(url)) throw new Error(`BENCH_DATABASE_URL names the test database (${url}): the bench empties its database, give it one of its own`);
  const database = createDatabase(url);
  try {
    await sql`drop schema if exists public cascade`.execute(database.db);
    await sql`create schema public`.execute(database.db);
    await sql`drop schema if exists graphile_worker cascade`.execute(database.db);
  } finally {
    await database.destroy();
  }
}

async function topUpErrorLogs(url: string, workspaceId: number, target: number, seed: number) {
  const database = createDatabase(url);
  try {
    const have = Number((await database.db.selectFrom('error_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const random = mulberry32(seed + 1);
    const now = Date.now();
    const batch = 500;
    for (let done = have; done < target; ) {
      const n = Math.min(batch * 20, target - done);
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
  } finally {
    await database.destroy();
  }
}
