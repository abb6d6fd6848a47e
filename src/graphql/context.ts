import type { Executor } from '../db/database.js';
import type { Principal } from '../domain/auth/principal.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors/catalogue.js';
import { getRequestState } from '../http/request-state.js';
import { createLoaders, type Loaders } from './loaders.js';

/** Per-request GraphQL context. Loaders are created here, per request, never shared. */
export interface GraphQLContext {
  deps: AppDeps;
  db: Executor;
  /** The authenticated caller; the platform plugin refuses operations without one. */
  who: Principal;
  loaders: Loaders;
}

export function createGraphQLContext(deps: AppDeps, request: Request): GraphQLContext {
  const who = getRequestState(request)?.principal;
  // Only the GraphiQL page load reaches Yoga unauthenticated, and it executes no operation.
  if (!who) throw new AppError('UNAUTHORIZED');
  const db = deps.database.db;
  return { deps, db, who, loaders: createLoaders(db, who.workspaceId) };
}
