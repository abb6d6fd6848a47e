import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `X-Hub-Signature-256: sha256=<hex>`: the HMAC-SHA256 of the raw body with the app secret. The
 * comparison is constant-time over the digests' bytes; a header of the wrong form or length fails
 * before any comparison, which reveals nothing about the secret.
 */
export function verifyHubSignature(secret: string, body: Uint8Array, header: string | null): boolean {
  if (!header) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

/** The header value a network would send for `body` (tests, the bench, and the curl example in docs/engine.md). */
export const hubSignature = (secret: string, body: string | Uint8Array): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A shared token (the handshake's verify token) compared in constant time, whatever the lengths. */
export const sameToken = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
