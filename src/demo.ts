import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
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
 * are kept in a local file per database so that every later `npm start` on that database can print
 * them again (and a start on another database never overwrites them): beside a SQLite file
 * (`data/app.db.demo-tokens.json`), or in ./data for PostgreSQL, named after the database and a
 * hash of its URL (`data/demo-tokens.postgres.messaging.1a2b3c4d5e6f.json`; the password is not
 * part of the name). A development convenience for the demo workspace only (mode 0600).
 */
export function demoTokenFileFor(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) {
    const url = new URL(databaseUrl);
    url.password = '';
    const name = decodeURIComponent(url.pathname.slice(1)).replace(/[^\w.-]/g, '_') || 'postgres';
    const hash = createHash('sha256').update(url.toString()).digest('hex').slice(0, 12);
    return join('data', `demo-tokens.postgres.${name}.${hash}.json`);
  }
  if (databaseUrl === ':memory:') return join('data', 'demo-tokens.memory.json');
  return `${databaseUrl}.demo-tokens.json`;
}

/**
 * Seeds the demo workspace on an empty database; returns its tokens when they are known and still
 * valid for this database (the file may be left from another database, or the tokens revoked).
 */
export async function ensureDemoWorkspace(database: Database, databaseUrl: string): Promise<DemoInfo | null> {
  const file = demoTokenFileFor(databaseUrl);
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
