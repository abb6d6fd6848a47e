import type { Executor } from '../db/database.js';
import type { Principal } from '../domain/auth/principal.js';
import type { AppDeps } from '../http/app-deps.js';
import { AppError } from '../errors/catalogue.js';
import type { RequestState } from '../http/request-state.js';
import { createLoaders, type Loaders } from './loaders.js';

/** Per-request GraphQL context. Loaders are created here, per request, never shared. */
export interface GraphQLContext {
  deps: AppDeps;
  /** The request's database handle: every statement resolvers and loaders run is counted on the request. */
  db: Executor;
  /** The authenticated caller; the platform refuses operations without one. */
  who: Principal;
  loaders: Loaders;
  /** The platform's state of the request (its id for log lines). */
  state: RequestState;
}

export function createGraphQLContext(deps: AppDeps, state: RequestState): GraphQLContext {
  const who = state.principal;
  if (!who) throw new AppError('UNAUTHORIZED');
  const db = state.db;
  return { deps, db, who, loaders: createLoaders(db, who.workspaceId), state };
}
