/**
 * The one error every channel adapter throws, so callers count failures, write error logs
 * (`providerMessage` as the detail, `httpCode`) and decide retries the same way whichever adapter
 * runs. `retryable` follows from the reason: a rate limit or an unavailable network is worth
 * another try (after `retryAfterSeconds` when the network said); an expired token, a closed
 * messaging window, a missing object or a refused request is not.
 */
export const channelErrorReasons = ['rateLimited', 'tokenExpired', 'windowClosed', 'notFound', 'invalid', 'unavailable'] as const;
export type ChannelErrorReason = (typeof channelErrorReasons)[number];

const retryableReasons: ReadonlySet<ChannelErrorReason> = new Set(['rateLimited', 'unavailable']);

export interface ChannelErrorDetails {
  reason: ChannelErrorReason;
  /** The network's HTTP status; null when no answer came (timeout, refused connection) or no network was called (sandbox). */
  httpCode: number | null;
  /** The network's own words (Graph API `error.message`), or what went wrong on the way. */
  providerMessage: string;
  /** Seconds to wait before a retry, when the network said (Retry-After, or its usage headers). */
  retryAfterSeconds?: number;
  /** The Graph API's `error.code`, `error.error_subcode` and `error.fbtrace_id`, when it answered with them. */
  providerCode?: number;
  providerSubcode?: number;
  traceId?: string;
}

export class ChannelError extends Error {
  readonly reason: ChannelErrorReason;
  readonly httpCode: number | null;
  readonly providerMessage: string;
  readonly retryable: boolean;
  readonly retryAfterSeconds?: number;
  readonly providerCode?: number;
  readonly providerSubcode?: number;
  readonly traceId?: string;

  constructor(d: ChannelErrorDetails) {
    super(`${d.reason}: ${d.providerMessage}`);
    this.name = 'ChannelError';
    this.reason = d.reason;
    this.httpCode = d.httpCode;
    this.providerMessage = d.providerMessage;
    this.retryable = retryableReasons.has(d.reason);
    if (d.retryAfterSeconds !== undefined) this.retryAfterSeconds = d.retryAfterSeconds;
    if (d.providerCode !== undefined) this.providerCode = d.providerCode;
    if (d.providerSubcode !== undefined) this.providerSubcode = d.providerSubcode;
    if (d.traceId !== undefined) this.traceId = d.traceId;
  }
}

export const isChannelError = (e: unknown): e is ChannelError => e instanceof ChannelError;
