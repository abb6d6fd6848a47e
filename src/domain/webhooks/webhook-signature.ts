import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing (standardwebhooks.com): a secret per endpoint, `whsec_` + base64 of 32
 * random bytes; each attempt carries `webhook-id` (the event's id, the same on every attempt),
 * `webhook-timestamp` (seconds) and `webhook-signature`: `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`, one per secret that signs (space-separated), so during a rotation a
 * receiver holding either secret verifies. The body is signed exactly as it is sent.
 */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export function signatureHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  // standardwebhooks signs with the second the Date holds.
  const when = new Date(timestamp * 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, when, body)).join(' '),
  };
}
