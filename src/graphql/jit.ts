import { useGraphQlJit } from '@envelop/graphql-jit';
import { getNamedType, isInputObjectType, Kind, type ExecutionArgs, type GraphQLInputObjectType, type GraphQLSchema, type TypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlExecutions } from '../observability/metrics.js';
import { measureOf } from './document-limits.js';
import { restoreErrorLocationsPlugin } from './error-locations.js';

/**
 * Execution compiled to JavaScript, once per document (graphql-jit through @envelop/graphql-jit):
 * a nested page of contacts resolves thousands of fields, and graphql-js walks every resolver,
 * with its checks, anew per field and per request. Validation, the depth, alias and cost limits
 * and the access rules run as before (they are not execution).
 *
 * graphql-jit cannot coerce variables of a recursive input type (ContactFilterInput holds
 * ContactFilterInputs: it recurses forever, graphql-jit#81): an operation with such a variable runs
 * on graphql-js, as every operation did before. Inline literals of those types compile fine.
 *
 * Compiling costs time on the event loop once per document, about in proportion to its fields
 * spread out: an operation with more than GRAPHQL_JIT_MAX_FIELDS runs on graphql-js, which needs
 * no compiling. Only documents that passed every limit get this far (document-limits.ts).
 *
 * Subscriptions run on graphql-js too: graphql-jit hands a subscription field's `subscribe` the
 * operation's variables in place of the field's arguments (its compileSubscriptionOperation), so
 * `events(after: "10")` would subscribe as if no `after` were given.
 */
export function jitPlugins(schema: GraphQLSchema, maxFields: number): Plugin[] {
  const recursive = recursiveInputTypes(schema);
  const enableIf = (args: ExecutionArgs) => {
    const compiled = !isSubscription(args) && measureOf(args.document).fields <= maxFields && !hasVariableOfType(args, recursive);
    graphqlExecutions.inc({ executor: compiled ? 'jit' : 'graphql-js' });
    return compiled;
  };
  return [useGraphQlJit({}, { enableIf }) as Plugin, restoreErrorLocationsPlugin()];
}

/** Input object types that can contain themselves, directly or through other input types. */
function recursiveInputTypes(schema: GraphQLSchema): Set<string> {
  const inputs = Object.values(schema.getTypeMap()).filter(isInputObjectType);
  const reaches = (from: GraphQLInputObjectType, target: string, seen: Set<string>): boolean =>
    Object.values(from.getFields()).some((field) => {
      const type = getNamedType(field.type);
      if (!isInputObjectType(type)) return false;
      if (type.name === target) return true;
      if (seen.has(type.name)) return false;
      seen.add(type.name);
      return reaches(type, target, seen);
    });
  return new Set(inputs.filter((t) => reaches(t, t.name, new Set())).map((t) => t.name));
}

function hasVariableOfType(args: ExecutionArgs, names: Set<string>): boolean {
  if (names.size === 0) return false;
  const named = (type: TypeNode): string => (type.kind === Kind.NAMED_TYPE ? type.name.value : named(type.type));
  return args.document.definitions.some(
    (d) => d.kind === Kind.OPERATION_DEFINITION && (d.variableDefinitions ?? []).some((v) => names.has(named(v.type))),
  );
}

function isSubscription(args: ExecutionArgs): boolean {
  const operations = args.document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = args.operationName ? operations.find((o) => o.name?.value === args.operationName) : operations[0];
  return operation?.operation === 'subscription';
}
