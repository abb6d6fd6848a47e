import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import RelayPlugin from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { getNamedType, isLeafType, isListType, isNonNullType, Kind, valueFromASTUntyped, type GraphQLOutputType, type ValueNode } from 'graphql';
import { AppError } from '../errors/catalogue.js';
import AccessPlugin from './authorize.js';
import { DEFAULT_FIRST, MAX_FIRST } from './connection.js';
import type { GraphQLContext } from './context.js';

const isList = (type: GraphQLOutputType): boolean => isListType(isNonNullType(type) ? type.ofType : type);

/** Multiplier of list fields that do not say how many items they return (a contact's tags, notes, ...). */
const DEFAULT_LIST_MULTIPLIER = 10;

/**
 * The Pothos builder: plugins and scalars only; types live in src/graphql/types, one per file.
 * Validation failures become the same 422 invalidRequestData as on REST. Every root field states
 * its access rule (`access`, see authorize.ts).
 *
 * Cost model (enforced per operation in yoga-options.ts, limit GRAPHQL_MAX_COST): an object field
 * costs 1, a scalar or enum field 0; a list's selection counts once per item it may hold: `first`
 * for connections, `perPage` for pages, 10 for other lists. So `contacts(first: 100)` costs about
 * 100 times `contacts(first: 1)`.
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: string; Output: string };
    SafeInt: { Input: number; Output: number };
    FilterValue: { Input: string | number | boolean | object; Output: unknown };
    WebhookEntry: { Input: object; Output: unknown };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [ComplexityPlugin, RelayPlugin, ValidationPlugin, AccessPlugin],
  defaultFieldNullability: false,
  complexity: {
    fieldComplexity: (_args, _ctx, field) =>
      isLeafType(getNamedType(field.type)) ? 0 : isList(field.type) ? { field: 1, multiplier: DEFAULT_LIST_MULTIPLIER } : 1,
  },
  relay: {
    clientMutationId: 'omit',
    // node and nodes are defined in types/node.type.ts: they decode ids leniently (null for a
    // garbled id) and apply each type's access rule, which the plugin's fields cannot.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    nodeTypeOptions: { description: 'A record with a global id: `node(id:)` fetches any of them.' },
    idFieldOptions: { description: 'Global id (Relay): base64 of `Type:rawId`; `node(id:)` resolves it' },
    cursorType: 'String',
    // A connection field multiplies its selection by `first`: its edges list must not multiply
    // again, and pageInfo (computed from the page already loaded) costs nothing.
    edgesFieldOptions: { complexity: { field: 0, multiplier: 1 } },
    pageInfoFieldOptions: { complexity: 0 },
    firstArgOptions: { description: `How many items, 1 to ${MAX_FIRST} (default ${DEFAULT_FIRST}); more is an error, never clamped` },
    afterArgOptions: { description: 'endCursor of the previous page' },
    // Only `conversations` pages backwards (its description says so); elsewhere they are refused.
    lastArgOptions: { description: 'Backward pagination, where the field says it pages both ways (conversations); elsewhere leave it out' },
    beforeArgOptions: { description: 'startCursor of the next page, where the field pages both ways (conversations); elsewhere leave it out' },
  },
  validation: {
    validationError: (result) =>
      new AppError('invalidRequestData', {
        data: {
          issues: result.issues.flatMap((i) => {
            const path = (i.path ?? []).map((p) => {
              const key = typeof p === 'object' && p !== null && 'key' in p ? p.key : p;
              return typeof key === 'number' ? key : String(key);
            });
            // As REST's toIssues: each unknown key at its own path (a flat input type, such as
            // FlowItemInput, holds fields its item's kind refuses).
            const unknown = i as { code?: string; keys?: string[] };
            if (unknown.code === 'unrecognized_keys' && unknown.keys) return unknown.keys.map((key) => ({ message: `Unrecognized key: "${key}"`, path: [...path, key] }));
            return [{ message: i.message, path }];
          }),
        },
      }),
  },
});

// A scalar refuses a value with a TypeError, as graphql-js expects: GraphQL quotes its message in
// its own ("Variable "$page" got invalid value ...; SafeInt must be ..."), which then becomes the
// issue of a 422 invalidRequestData (yoga-options.ts), like every rejection of the document.
const dateTime = (v: unknown): string => {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new TypeError('DateTime must be an ISO 8601 string');
  return v;
};

builder.scalarType('DateTime', {
  description: 'ISO 8601 date-time in UTC, e.g. 2026-11-22T10:00:00.000Z',
  serialize: (v) => v,
  parseValue: dateTime,
  // Its own one-argument parseLiteral: graphql-js's default takes (node, variables), and graphql-jit
  // (jit.ts) then wrote "Scalar with variable inputs detected" to stderr, outside the log, for every
  // document it compiled with a DateTime literal. A literal holds no variable here: a variable in
  // place of the whole value is coerced by parseValue.
  parseLiteral: (ast) => dateTime(ast.kind === Kind.STRING ? ast.value : undefined),
});

/** `{ success: true }`, as the REST write endpoints answer. */
export const SuccessType = builder.objectRef<{ success: boolean }>('Success').implement({
  fields: (t) => ({ success: t.exposeBoolean('success') }),
});

builder.scalarType('SafeInt', {
  description: 'A whole number from -(2^53-1) to 2^53-1 (page numbers go beyond GraphQL Int)',
  serialize: (v) => v,
  parseValue: (v) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new TypeError('SafeInt must be a whole number up to 9007199254740991');
    return v;
  },
  parseLiteral: (ast) => {
    const n = ast.kind === Kind.INT ? Number(ast.value) : NaN;
    if (!Number.isSafeInteger(n)) throw new TypeError('SafeInt must be a whole number up to 9007199254740991');
    return n;
  },
});

/**
 * A JSON-like scalar written into the document. A variable inside it (`value: [$tag, "12"]`) is
 * refused with a message that says what to do. graphql-jit passes no variables to a scalar's
 * literal parser (and a parser that takes them makes it write to stderr, see DateTime), so the
 * variable read as nothing and the value failed the domain's check with a message about the value
 * instead ("value must be a list of digit-string ids"). The whole value as one variable
 * (`value: $tags`) works, as does a literal without variables.
 */
function untypedLiteral(ast: ValueNode, scalar: string): unknown {
  if (holdsVariable(ast)) throw new TypeError(`a ${scalar} cannot hold a variable: send the whole value as one variable of type ${scalar}`);
  return valueFromASTUntyped(ast);
}

const holdsVariable = (ast: ValueNode): boolean =>
  ast.kind === Kind.VARIABLE ||
  (ast.kind === Kind.LIST && ast.values.some(holdsVariable)) ||
  (ast.kind === Kind.OBJECT && ast.fields.some((f) => holdsVariable(f.value)));

/**
 * The `value` of a search condition: a string, number, boolean or a list of them, as JSON has it.
 * Which one a condition takes depends on its field and operator, checked by the domain's search
 * rules (422 at the value's path), as on REST.
 */
builder.scalarType('FilterValue', {
  description: 'A condition value: a string, number, boolean or list of them (see contactFilterFields for what each field takes)',
  serialize: (v) => v,
  // Null never reaches a scalar parser; every other JSON value is passed on for the domain to check.
  parseValue: (v) => v as string | number | boolean | object,
  parseLiteral: (ast) => untypedLiteral(ast, 'FilterValue') as string | number | boolean | object,
});

/** One entry of a network webhook body, as the network sends it (checked by the webhooks' own schema). */
builder.scalarType('WebhookEntry', {
  description: 'An entry of a webhook body as JSON: {id, time, changes: [{field, value}], messaging: [...]} (see docs/engine.md, Events in)',
  serialize: (v) => v,
  parseValue: (v) => v as object,
  parseLiteral: (ast) => untypedLiteral(ast, 'WebhookEntry') as object,
});

/**
 * Any JSON value as stored (an event's body), for output only: no argument takes one, so a value
 * sent as one is refused as every wrong input is.
 */
const outputOnly = (): never => {
  throw new TypeError('JSON is an output type: no argument takes it');
};
builder.scalarType('JSON', {
  description: 'Any JSON value (an object, list, string, number, boolean or null), as stored',
  serialize: (v) => v,
  parseValue: outputOnly,
  parseLiteral: outputOnly,
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
