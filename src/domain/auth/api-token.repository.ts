import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import type { TokenKind } from './token.js';

export interface ApiTokenRecord {
  id: number;
  workspaceId: number;
  kind: TokenKind;
  userId: number | null;
  name: string;
  tokenPrefix: string;
  permission: 'full' | 'read_only';
  scopes: string[] | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A live token with the plan fields of its workspace: one lookup serves authentication and gates. */
export interface TokenWithPlan extends ApiTokenRecord {
  trialEndsAt: string | null;
  macLimit: number | null;
}

const columns = [
  'api_tokens.id',
  'api_tokens.workspace_id',
  'api_tokens.kind',
  'api_tokens.user_id',
  'api_tokens.name',
  'api_tokens.token_prefix',
  'api_tokens.permission',
  'api_tokens.scopes',
  'api_tokens.created_at',
  'api_tokens.revoked_at',
] as const;

type Row = {
  id: number; workspace_id: number; kind: TokenKind; user_id: number | null; name: string; token_prefix: string;
  permission: 'full' | 'read_only'; scopes: string | null; created_at: string; revoked_at: string | null;
};

const toToken = (r: Row): ApiTokenRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  kind: r.kind,
  userId: r.user_id,
  name: r.name,
  tokenPrefix: r.token_prefix,
  permission: r.permission,
  scopes: r.scopes === null ? null : (JSON.parse(r.scopes) as string[]),
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export async function insertToken(
  db: Executor,
  workspaceId: number,
  t: { kind: TokenKind; userId: number | null; name: string; tokenHash: string; tokenPrefix: string; permission: 'full' | 'read_only'; scopes: string[] | null },
): Promise<ApiTokenRecord> {
  const row = await db
    .insertInto('api_tokens')
    .values({
      workspace_id: workspaceId,
      kind: t.kind,
      user_id: t.userId,
      name: t.name,
      token_hash: t.tokenHash,
      token_prefix: t.tokenPrefix,
      permission: t.permission,
      scopes: t.scopes === null ? null : JSON.stringify(t.scopes),
      created_at: nowIso(),
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toToken(row);
}

/** Unrevoked token by hash. Lookup by hash is the one query that is not workspace-scoped: it finds the workspace. */
export async function findLiveTokenByHash(db: Executor, tokenHash: string): Promise<TokenWithPlan | null> {
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('workspaces', 'workspaces.id', 'api_tokens.workspace_id')
    .select(columns)
    .select(['workspaces.trial_ends_at', 'workspaces.mac_limit'])
    .where('api_tokens.token_hash', '=', tokenHash)
    .where('api_tokens.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  return { ...toToken(row), trialEndsAt: row.trial_ends_at, macLimit: row.mac_limit };
}

export async function listTokens(db: Executor, workspaceId: number): Promise<ApiTokenRecord[]> {
  const rows = await db.selectFrom('api_tokens').select(columns).where('workspace_id', '=', workspaceId).orderBy('id').execute();
  return rows.map(toToken);
}

/** Revokes by id; returns the hash so caches can forget it, or null when no such live token. */
export async function revokeToken(db: Executor, tokenId: number): Promise<{ tokenHash: string; workspaceId: number } | null> {
  const row = await db
    .updateTable('api_tokens')
    .set({ revoked_at: nowIso() })
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .returning(['token_hash', 'workspace_id'])
    .executeTakeFirst();
  return row ? { tokenHash: row.token_hash, workspaceId: row.workspace_id } : null;
}

/** One token of the workspace by id, revoked or not (GET /v1/token reads the presented one). */
export async function findTokenById(db: Executor, workspaceId: number, id: number): Promise<ApiTokenRecord | null> {
  const row = await db.selectFrom('api_tokens').select(columns).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return row ? toToken(row) : null;
}

/**
 * Which of these tokens are still live (not revoked), read past any cache: an open event
 * subscription checks its token this way on every poll, so a revocation made by any process
 * (the CLI included) ends it within one poll interval.
 */
export async function liveTokenIds(db: Executor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('api_tokens').select('id').where('id', 'in', [...ids]).where('revoked_at', 'is', null).execute();
  return new Set(rows.map((r) => Number(r.id)));
}
