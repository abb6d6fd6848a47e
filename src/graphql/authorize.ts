import type { AccessRule } from '../domain/auth/access.js';
import { assertAccess } from '../domain/auth/access.js';
import type { GraphQLContext } from './context.js';

/**
 * Wraps a root resolver with the access rules REST applies by method and route: permission, scope,
 * token kind and plan gates all come from the one `assertAccess`.
 */
export const authorized =
  <P, A, R>(rule: AccessRule, resolve: (parent: P, args: A, ctx: GraphQLContext) => R | Promise<R>) =>
  async (parent: P, args: A, ctx: GraphQLContext): Promise<R> => {
    await assertAccess(ctx.db, ctx.who, rule);
    return resolve(parent, args, ctx);
  };
