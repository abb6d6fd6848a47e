import type { TokenKind } from './token.js';

/** The contract's three authentication schemes. */
export type AuthScheme = 'bearerAuth' | 'developerAccessToken' | 'tokenInSearchParams';

/** Who is calling, resolved from the token: every domain call is scoped to `workspaceId`. */
export interface Principal {
  tokenId: number;
  workspaceId: number;
  kind: TokenKind;
  userId: number | null;
  scheme: AuthScheme;
  permission: 'full' | 'read_only';
  scopes: string[] | null;
  plan: { trialEndsAt: string | null; macLimit: number | null };
}

/** Schemes of workspace API tokens: the only ones `POST /v1/contacts` and `GET /v1/workspaces` take. */
export const workspaceTokenSchemes: readonly AuthScheme[] = ['developerAccessToken', 'tokenInSearchParams'];
export const allSchemes: readonly AuthScheme[] = ['bearerAuth', 'developerAccessToken', 'tokenInSearchParams'];
