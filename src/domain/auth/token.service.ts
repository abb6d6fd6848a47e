import { z } from 'zod';
import type { Executor } from '../../db/database.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import { parseOrThrow } from '../../errors/validation.js';
import { findTokenById, insertToken, listTokens, revokeToken, type ApiTokenRecord } from './api-token.repository.js';
import type { Principal } from './principal.js';
import type { PresentedToken } from './token.schema.js';
import { findActingUserId } from '../users/user.repository.js';
import { scopes } from './scopes.js';
import { displayPrefix, generateToken, hashToken } from './token.js';
import type { TokenCache } from './token-cache.js';

export const issueTokenInput = z.strictObject({
  kind: z.enum(['developer', 'user']),
  name: z.string().min(1).max(255).default('API token'),
  /** For user access tokens: the user who acts through it (default: the workspace owner). */
  userId: z.number().int().positive().optional(),
  readOnly: z.boolean().default(false),
  scopes: z.array(z.enum(scopes)).min(1).nullish(),
});

export interface IssuedToken {
  /** The plain token: shown once, never stored. */
  token: string;
  record: ApiTokenRecord;
}

export async function issueToken(db: Executor, workspaceId: number, input: z.input<typeof issueTokenInput>): Promise<IssuedToken> {
  const data = parseOrThrow(issueTokenInput, input);
  let userId: number | null = null;
  if (data.kind === 'user') {
    // A user token acts as a user of the workspace: the one named, else the workspace's owner.
    userId = await findActingUserId(db, workspaceId, data.userId);
    if (userId === null) throw notFound('User');
  }
  const token = generateToken(data.kind);
  const record = await insertToken(db, workspaceId, {
    kind: data.kind,
    userId,
    name: data.name,
    tokenHash: hashToken(token),
    tokenPrefix: displayPrefix(token),
    permission: data.readOnly ? 'read_only' : 'full',
    scopes: data.scopes ?? null,
  });
  return { token, record };
}

export const listWorkspaceTokens = (db: Executor, workspaceId: number) => listTokens(db, workspaceId);

/** Operator action by token id (the CLI has no workspace context); evicts the local cache at once. */
export async function revokeTokenById(db: Executor, tokenId: number, cache?: TokenCache): Promise<boolean> {
  const revoked = await revokeToken(db, tokenId);
  if (revoked && cache) cache.delete(revoked.tokenHash);
  return revoked !== null;
}

/**
 * The token the caller presented (GET /v1/token): from its row, as authentication found it, and
 * the scheme of this request. A token revoked since the (cached) authentication is 401, as the
 * next authentication would find it.
 */
export async function getPresentedToken(db: Executor, who: Principal): Promise<PresentedToken> {
  const row = await findTokenById(db, who.workspaceId, who.tokenId);
  if (!row || row.revokedAt !== null) {
    throw new AppError('INVALID_CHATBOT_TOKEN', { headers: { 'WWW-Authenticate': 'Bearer realm="messaging-api", error="invalid_token"' } });
  }
  return {
    workspaceId: String(row.workspaceId),
    kind: row.kind,
    scheme: who.scheme,
    permission: row.permission,
    scopes: row.scopes as PresentedToken['scopes'],
    createdAt: row.createdAt,
  };
}
