import { hash, randomBytes } from 'node:crypto';

/**
 * Plain tokens look like `mdev_<43 url-safe chars>` (workspace API token) or `musr_<...>` (user
 * access token). The prefix lets us reject a malformed token, or a user token in `?token=`,
 * without a database round trip; only the SHA-256 hash is ever stored.
 */
export type TokenKind = 'developer' | 'user';

const prefixes: Record<TokenKind, string> = { developer: 'mdev_', user: 'musr_' };
const tokenPattern = /^m(dev|usr)_[A-Za-z0-9_-]{43}$/;

export const generateToken = (kind: TokenKind): string => prefixes[kind] + randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/** The kind a well-formed token claims, or null when it is malformed. */
export const tokenKindOf = (token: string): TokenKind | null => {
  const m = tokenPattern.exec(token);
  if (!m) return null;
  return m[1] === 'dev' ? 'developer' : 'user';
};

/** What operators see in listings: enough to recognise a token, never enough to use it. */
export const displayPrefix = (token: string): string => token.slice(0, 9);
