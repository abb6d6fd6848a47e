import { GraphQLError } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/catalogue.js';
import type { Logger } from '../observability/logger.js';

/**
 * Errors leave GraphQL with the REST envelope's code, status and data in `extensions`. AppErrors
 * pass through; GraphQL's own errors (syntax, validation, limits) pass as they are; anything else is
 * masked as INTERNAL_SERVER_ERROR and logged.
 */
export function maskError(error: unknown, _message: string, logger: Logger): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const app = original instanceof AppError ? original : original instanceof GraphQLError && original.originalError instanceof AppError ? original.originalError : null;
  if (app) {
    const { message, ...extensions } = app.toEnvelope();
    return createGraphQLError(message, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: { ...extensions, http: undefined },
    });
  }
  if (error instanceof GraphQLError && !error.originalError) return error;
  logger.error({ err: original }, 'unexpected GraphQL error');
  const { message, ...extensions } = new AppError('INTERNAL_SERVER_ERROR').toEnvelope();
  return createGraphQLError(message, { path: error instanceof GraphQLError ? error.path : undefined, extensions });
}

/** Protection against expensive documents: depth, cost, aliases, tokens; introspection switch. */
export function graphqlPlugins(config: Config): Plugin[] {
  const armor = EnvelopArmorPlugin({
    maxDepth: { n: config.GRAPHQL_MAX_DEPTH, ignoreIntrospection: true, flattenFragments: true, exposeLimits: true },
    costLimit: { maxCost: config.GRAPHQL_MAX_COST, ignoreIntrospection: true, exposeLimits: true },
    maxAliases: { n: config.GRAPHQL_MAX_ALIASES, exposeLimits: true },
    maxTokens: { n: config.GRAPHQL_MAX_TOKENS, exposeLimits: true },
    maxDirectives: { n: 50 },
    blockFieldSuggestion: { enabled: !config.INTROSPECTION },
  });
  const plugins: Plugin[] = [armor as Plugin];
  if (!config.INTROSPECTION) plugins.push(useDisableIntrospection());
  return plugins;
}
