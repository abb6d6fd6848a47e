import { GraphQLError, Kind, type ASTNode, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { createGraphQLError, isAsyncIterable, processRegularResult, type Plugin } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { documentLimitsPlugin } from './document-limits.js';
import { jitPlugins } from './jit.js';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { complexityFromQuery } from '@pothos/plugin-complexity';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/catalogue.js';
import { describeError } from '../errors/describe.js';
import type { Logger } from '../observability/logger.js';
import { logUnexpected } from '../http/responses.js';
import { accessDenial } from './authorize.js';
import type { GraphQLContext } from './context.js';
import { schema } from './schema.js';

/**
 * An AppError as a GraphQL error: the envelope's code, status, defined and data in `extensions`,
 * and a `message` that says what happened (describeError), since that is what clients show.
 */
function fromAppError(app: AppError, at: { nodes?: readonly ASTNode[]; path?: readonly (string | number)[] } = {}): GraphQLError {
  const { message: _default, ...extensions } = app.toEnvelope();
  return createGraphQLError(describeError(app), { nodes: at.nodes, path: at.path, extensions: { ...extensions, http: undefined } });
}

interface HttpExtension {
  status?: number;
  headers?: Record<string, string>;
  /** Yoga's mark for errors the GraphQL-over-HTTP spec answers 200 to under application/json. */
  spec?: boolean;
}

/**
 * The request errors GraphQL and Yoga produce before anything executes, in the envelope. Their
 * statuses follow the GraphQL-over-HTTP spec for application/json:
 *
 * - the document (syntax, validation against the schema, document limits, an operation that cannot
 *   be chosen, variables that do not fit their types) is the request's input: 422
 *   invalidRequestData in `extensions`, GraphQL's own text as the one issue at `query`,
 *   `variables.<name>` or `operationName` and as the message (limits reworded as found vs limit). HTTP 200 under application/json, as
 *   the spec asks of a well-formed request; 422 under application/graphql-response+json;
 * - parameters that are not a GraphQL request (no `query`, a `query` that is not a string, `variables`
 *   that are not an object, another field, a batch): 400 badRequest with Yoga's wording;
 * - a mutation over GET: 405 methodNotAllowed with `Allow: POST`.
 */
function fromRequestError(error: GraphQLError): GraphQLError {
  const http = error.extensions.http as HttpExtension | undefined;
  let app: AppError;
  let status: HttpExtension;
  if (http?.status === 405) {
    app = new AppError('methodNotAllowed', { message: error.message });
    status = { status: 405, headers: http.headers };
  } else if (error.extensions.code === 'BAD_REQUEST') {
    app = new AppError('badRequest', { message: error.message });
    status = { status: 400 };
  } else {
    const variable = /^Variable "\$(\w+)"/.exec(error.message)?.[1];
    const path = variable ? ['variables', variable] : error.extensions.code === 'OPERATION_RESOLUTION_FAILURE' ? ['operationName'] : ['query'];
    // armor words its limit errors as syntax errors; they are not.
    const detail = error.message.replace(/^Syntax Error: (?=.* limit of \d+ exceeded)/, '');
    app = new AppError('invalidRequestData', { data: { issues: [{ message: detail, path }] } });
    status = { spec: true, status: 422 };
  }
  const { message: _default, ...extensions } = app.toEnvelope();
  return createGraphQLError(describeError(app), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...extensions, http: status },
  });
}

/** The error a resolver threw that is not ours to show (not an AppError, not GraphQL's own), or null. */
function unexpectedOriginal(error: unknown): unknown {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (error instanceof GraphQLError && !original) return null;
  if (original instanceof AppError || (original instanceof GraphQLError && original.originalError instanceof AppError)) return null;
  return original ?? null;
}

/**
 * Errors raised while executing: AppErrors carry their envelope; GraphQL's own request errors
 * pass (envelopeErrorsPlugin gives them theirs); anything else is masked as INTERNAL_SERVER_ERROR
 * (never a stack or SQL). It was logged with the request id just before (logUnexpectedErrorsPlugin).
 */
export function maskError(error: unknown, _message: string): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const app = original instanceof AppError ? original : original instanceof GraphQLError && original.originalError instanceof AppError ? original.originalError : null;
  if (app) return fromAppError(app, error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {});
  if (unexpectedOriginal(error) === null) return error as Error;
  const { message, ...extensions } = new AppError('INTERNAL_SERVER_ERROR').toEnvelope();
  const at = error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {};
  return createGraphQLError(message, { ...at, extensions });
}

/**
 * Logs the unexpected errors of an execution with the request's id (from the context), with the
 * failed statement when SQL raised it. It runs before Yoga's masking (a user plugin's
 * onExecuteDone comes first), which would leave nothing to log; maskError cannot see the context.
 */
export function logUnexpectedErrorsPlugin(logger: Logger): Plugin<GraphQLContext> {
  const logErrors = (result: ExecutionResult, requestId: string | undefined) => {
    for (const error of result.errors ?? []) {
      const original = unexpectedOriginal(error);
      if (original !== null) logUnexpected(logger, original, requestId, 'unexpected GraphQL error', { path: error.path });
    }
  };
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if ('errors' in result) logErrors(result, args.contextValue.state?.requestId);
        },
      };
    },
    // A subscription fails as it starts (one result), or its events are executed one by one,
    // each with its own errors.
    onSubscribe({ args }) {
      const requestId = args.contextValue.state?.requestId;
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) {
            logErrors(result, requestId);
            return;
          }
          return { onNext: ({ result: event }) => logErrors(event, requestId) };
        },
      };
    },
  };
}

/**
 * Every error leaves /graphql with the REST envelope's code, status and defined (and data) in
 * `extensions`. Errors of execution already have it (maskError); this gives it to the request
 * errors GraphQL and Yoga produce before execution (parameters, syntax, validation, limits,
 * variables), which error masking does not see.
 *
 * And every answer is one Yoga can write: when the Accept header allows none of the media types it
 * serves, the result (already computed: Yoga negotiates last) is sent as application/json, which
 * the GraphQL-over-HTTP spec allows in place of an empty 406.
 */
export function envelopeErrorsPlugin(): Plugin {
  return {
    onResultProcess({ result, setResult, resultProcessor, setResultProcessor }) {
      if (!resultProcessor) setResultProcessor(processRegularResult, 'application/json');
      if (Array.isArray(result) || !('errors' in result) || !result.errors?.length) return;
      const errors = result.errors.map((e) => (e instanceof GraphQLError && e.extensions.defined === undefined ? fromRequestError(e) : e));
      setResult({ ...result, errors });
    },
  };
}

/**
 * The cost limit (GRAPHQL_MAX_COST), computed per request from the operation and its variables
 * with @pothos/plugin-complexity's field costs (see builder.ts): list sizes count, so
 * `contacts(first: 100)` costs about 100 times `contacts(first: 1)`. It runs before any resolver,
 * so an over-budget mutation changes nothing. (Not a validation rule: Yoga caches validation
 * results per document, and the cost depends on the variables.)
 *
 * Costing reads each field's validated arguments, so an invalid argument (first: 101) surfaces
 * here: it is reported at its root field, as execution would report it (after the field's access
 * rule, which REST also checks first), and nothing executes.
 *
 * Field costs read only arguments, so a document's cost with the same operation and variables is
 * the same for every request: it is kept per parsed document (Yoga's parser cache answers the same
 * DocumentNode for the same text), for a bounded number of small variable sets: costing walks the
 * whole selection, which a nested page would otherwise pay on every request. A costing that failed
 * is not kept.
 */
export function costLimitPlugin(schema: GraphQLSchema, maxCost: number): Plugin {
  const knownCosts = new WeakMap<DocumentNode, Map<string, number>>();
  // A subscription is costed as its first event would be, before it starts: every event it
  // delivers runs the same selection.
  type Hook = (payload: { args: ExecutionArgs; setResultAndStopExecution: (result: ExecutionResult) => void }) => Promise<void>;
  const limitCost: Hook = async ({ args, setResultAndStopExecution }) => {
    const document = args.document as DocumentNode;
    const key = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}`;
    const costs = knownCosts.get(document);
    const known = costs?.get(key);
    if (known !== undefined) {
      if (known > maxCost) setResultAndStopExecution({ errors: [costLimitError(maxCost, known)] });
      return;
    }
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const operation = args.operationName ? operations.find((o) => o.name?.value === args.operationName) : operations[0];
    if (!operation) return; // execution reports the unknown operation
    const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
    const options = { schema, ctx: args.contextValue as object, variables: (args.variableValues ?? {}) as Record<string, unknown> };

    let cost = 0;
    for (const selection of operation.selectionSet.selections) {
      const single: OperationDefinitionNode = { ...operation, selectionSet: { kind: Kind.SELECTION_SET, selections: [selection] } };
      try {
        cost += complexityFromQuery({ kind: Kind.DOCUMENT, definitions: [single, ...fragments] }, options).complexity;
      } catch (err) {
        const at = selection.kind === Kind.FIELD ? { nodes: [selection], path: [(selection.alias ?? selection.name).value] } : {};
        if (err instanceof AppError) {
          const field = selection.kind === Kind.FIELD ? schema.getRootType(operation.operation)?.getFields()[selection.name.value] : undefined;
          const denied = await accessDenial(field, args.contextValue as unknown as GraphQLContext);
          return setResultAndStopExecution({ data: null, errors: [fromAppError(denied instanceof AppError ? denied : err, at)] });
        }
        if (err instanceof GraphQLError) return setResultAndStopExecution({ errors: [err] });
        throw err;
      }
    }
    if (key.length <= MAX_COST_KEY_LENGTH) {
      const kept = costs ?? new Map<string, number>();
      if (kept.size >= MAX_COSTS_PER_DOCUMENT) kept.delete(kept.keys().next().value!);
      kept.set(key, cost);
      if (!costs) knownCosts.set(document, kept);
    }
    if (cost > maxCost) setResultAndStopExecution({ errors: [costLimitError(maxCost, cost)] });
  };
  return { onExecute: limitCost, onSubscribe: limitCost } as Plugin;
}

const MAX_COST_KEY_LENGTH = 1024;
const MAX_COSTS_PER_DOCUMENT = 64;
const costLimitError = (maxCost: number, cost: number) => fromRequestError(createGraphQLError(`Query cost limit of ${maxCost} exceeded, found ${cost}.`));

/**
 * Protection against expensive documents, cheapest first: tokens while parsing (armor); fields,
 * spreads, depth, aliases and directives measured on the parsed document before validation
 * (document-limits.ts); cost with the variables before execution (above); compilation only for
 * documents small enough to compile quickly (jit.ts). Introspection switch.
 */
export function graphqlPlugins(config: Config, logger: Logger): Plugin[] {
  // armor counts tokens as the parser reads them and hides "Did you mean" suggestions; the rest of
  // its limits are measured by documentLimitsPlugin, in one pass that also counts fields.
  const armor = EnvelopArmorPlugin({
    maxTokens: { n: config.GRAPHQL_MAX_TOKENS, exposeLimits: true },
    maxDepth: { enabled: false },
    maxAliases: { enabled: false },
    maxDirectives: { enabled: false },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: !config.INTROSPECTION },
  });
  const plugins: Plugin[] = [
    armor as Plugin,
    documentLimitsPlugin({
      maxFields: config.GRAPHQL_MAX_FIELDS,
      maxDepth: config.GRAPHQL_MAX_DEPTH,
      maxAliases: config.GRAPHQL_MAX_ALIASES,
      maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
      maxSpreads: config.GRAPHQL_MAX_FRAGMENT_SPREADS,
      maxFieldDirectives: config.GRAPHQL_MAX_DIRECTIVES_PER_FIELD,
    }),
    costLimitPlugin(schema, config.GRAPHQL_MAX_COST),
    envelopeErrorsPlugin(),
    logUnexpectedErrorsPlugin(logger) as Plugin,
    ...jitPlugins(schema, config.GRAPHQL_JIT_MAX_FIELDS),
  ];
  if (!config.INTROSPECTION) plugins.push(useDisableIntrospection());
  return plugins;
}
