import type { Executor } from '../../db/database.js';
import { AppError } from '../../errors/catalogue.js';
import { findLiveTokenByHash } from './api-token.repository.js';
import type { Principal } from './principal.js';
import { hashToken, tokenKindOf } from './token.js';
import type { TokenCache } from './token-cache.js';

const challenge = { 'WWW-Authenticate': 'Bearer realm="messaging-api"' };
const invalidToken = () => new AppError('INVALID_CHATBOT_TOKEN', { headers: { 'WWW-Authenticate': 'Bearer realm="messaging-api", error="invalid_token"' } });

/** The credentials a request presented; the transport (REST or GraphQL) extracts them the same way. */
export interface Credentials {
  authorization: string | null;
  queryToken: string | null;
}

export function credentialsFrom(request: Request, url: URL): Credentials {
  return { authorization: request.headers.get('authorization'), queryToken: url.searchParams.get('token') };
}

/**
 * Resolves credentials to a principal, or throws in the contract's order: nothing presented is
 * 401 UNAUTHORIZED; a malformed, unknown or revoked token is 401 INVALID_CHATBOT_TOKEN. A header
 * wins over `?token=` when both are sent. User access tokens are never accepted in `?token=`.
 */
export async function authenticate(db: Executor, cache: TokenCache, creds: Credentials): Promise<Principal> {
  let token: string;
  let viaQuery = false;
  if (creds.authorization !== null) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(creds.authorization);
    if (!m) throw invalidToken();
    token = m[1];
  } else if (creds.queryToken !== null && creds.queryToken !== '') {
    token = creds.queryToken;
    viaQuery = true;
  } else {
    throw new AppError('UNAUTHORIZED', { headers: challenge });
  }

  const kind = tokenKindOf(token);
  if (kind === null || (viaQuery && kind === 'user')) throw invalidToken();

  const hash = hashToken(token);
  let found = cache.get(hash);
  if (found === undefined) {
    found = await findLiveTokenByHash(db, hash);
    cache.set(hash, found);
  }
  if (!found) throw invalidToken();

  return {
    tokenId: found.id,
    workspaceId: found.workspaceId,
    kind: found.kind,
    userId: found.userId,
    scheme: viaQuery ? 'tokenInSearchParams' : found.kind === 'user' ? 'bearerAuth' : 'developerAccessToken',
    permission: found.permission,
    scopes: found.scopes,
    plan: { trialEndsAt: found.trialEndsAt, macLimit: found.macLimit },
  };
}
