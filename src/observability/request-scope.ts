import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Per-request facts collected while the request runs: how many SQL statements it cost. Stored in
 * AsyncLocalStorage so the database layer can count without knowing about requests; DataLoader
 * batches run inside the request's async context, so they are counted too.
 */
export interface RequestScope {
  requestId: string;
  statements: number;
  /** process.hrtime.bigint() when the request arrived. */
  startedAt: bigint;
}

const storage = new AsyncLocalStorage<RequestScope>();

export const runInRequestScope = <T>(scope: RequestScope, fn: () => T): T => storage.run(scope, fn);
export const currentRequestScope = (): RequestScope | undefined => storage.getStore();
