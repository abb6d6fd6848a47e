import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isPostgresUrl } from './config/config.js';
import type { Database } from './db/database.js';
import { countWorkspaces } from './domain/workspaces/workspace.repository.js';
import { createDemoWorkspace } from '../db/seeds/demo.js';
import { findLiveTokenByHash } from './domain/auth/api-token.repository.js';
import { hashToken } from './domain/auth/token.js';

export interface DemoInfo {
  workspaceId: string;
  name: string;
  developerToken: string;
  userToken: string;
}

/**
 * Tokens are stored only as hashes, so the demo tokens can be shown only when they are made. They
 * are kept in a local file beside the SQLite database (data/ for PostgreSQL) so that every later
 * `npm start` can print them again. It is a development convenience for the demo workspace only.
 */
const tokenFileFor = (databaseUrl: string) =>
  join(isPostgresUrl(databaseUrl) || databaseUrl === ':memory:' ? 'data' : dirname(databaseUrl), 'demo-tokens.json');

/**
 * Seeds the demo workspace on an empty database; returns its tokens when they are known and still
 * valid for this database (the file may be left from another database, or the tokens revoked).
 */
export async function ensureDemoWorkspace(database: Database, databaseUrl: string): Promise<DemoInfo | null> {
  const file = tokenFileFor(databaseUrl);
  if ((await countWorkspaces(database.db)) > 0) {
    let saved: DemoInfo;
    try {
      saved = JSON.parse(await readFile(file, 'utf8')) as DemoInfo;
    } catch {
      return null;
    }
    const live = await Promise.all([saved.developerToken, saved.userToken].map((t) => findLiveTokenByHash(database.db, hashToken(String(t)))));
    return live.every((t) => t !== null && String(t.workspaceId) === saved.workspaceId) ? saved : null;
  }
  const created = await createDemoWorkspace(database.db);
  const info: DemoInfo = {
    workspaceId: String(created.workspace.id),
    name: created.workspace.name,
    developerToken: created.tokens.developer.token,
    userToken: created.tokens.user.token,
  };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
  return info;
}
