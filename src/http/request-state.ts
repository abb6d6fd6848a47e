import type { Principal } from '../domain/auth/principal.js';
import type { Claim } from './idempotency.js';

/** What the platform plugin learns about a request before a handler or resolver runs. */
export interface RequestState {
  requestId: string;
  startedAt: bigint;
  /** Route pattern for metrics: `/v1/net-comments/{id}`, `/graphql`, or `unmatched`. */
  route: string;
  principal: Principal | null;
  rateLimitHeaders: Record<string, string>;
  /** The Idempotency-Key this request claimed: its answer is stored on the way out. */
  idempotency?: Claim;
}

const states = new WeakMap<Request, RequestState>();

export const setRequestState = (request: Request, state: RequestState) => states.set(request, state);
export const getRequestState = (request: Request): RequestState | undefined => states.get(request);
