import type { Executor } from '../db/database.js';
import type { StatementTally } from '../db/statement-count.js';
import type { Principal } from '../domain/auth/principal.js';
import type { Logger } from '../observability/logger.js';
import type { Claim } from './idempotency.js';

/**
 * What the platform knows about one request, made when it arrives and passed explicitly to
 * everything that serves it (routes, the GraphQL context, loaders): its id, its database handle
 * (which counts its statements), its caller once authenticated, its rate-limit headers.
 */
export interface RequestState extends StatementTally {
  requestId: string;
  /** process.hrtime.bigint() when the request arrived. */
  startedAt: bigint;
  /** Route pattern for metrics: `/v1/net-comments/{id}`, `/graphql`, or `unmatched`. */
  route: string;
  principal: Principal | null;
  rateLimitHeaders: Record<string, string>;
  /** The Idempotency-Key this request claimed: its answer is stored on the way out. */
  idempotency?: Claim;
  /** The database for this request: every statement run through it is counted here. */
  db: Executor;
  /** A logger whose lines carry the request id (made on first use: most requests only log their access line). */
  readonly logger: Logger;
}
