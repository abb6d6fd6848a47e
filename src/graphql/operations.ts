import type { AnyOperation, InputPaths, OperationCall } from '../domain/shared/operation.js';
import type { GraphQLContext } from './context.js';

/**
 * A root field runs its operation (src/domain/<area>/<area>.operations.ts) as the REST route does:
 * the field declares `access: op.access` (the access plugin applies it before arguments are
 * validated, as REST does) and its arguments' validation with the operation's schemas
 * (`.validate(op.body)`); its resolver hands the validated input to `runOperation`. What the field
 * adds is GraphQL's own: its name and type, the arguments' shape where it differs from REST's
 * (global ids, an `input` argument, `at`: where its parts sit for issue paths), and what it
 * resolves from the operation's result.
 */
/**
 * Where input parts usually sit in a field's arguments: params and query fields are arguments of
 * their own, the body is the `input` argument. A field whose arguments differ says so (`at`).
 */
const graphqlInputPaths: InputPaths = { params: [], query: [], body: ['input'] };

export function runOperation<Op extends AnyOperation>(
  op: Op,
  ctx: GraphQLContext,
  input: { params?: unknown; query?: unknown; body?: unknown; at?: Partial<InputPaths> } = {},
): ReturnType<Op['run']> {
  const call: OperationCall = {
    db: ctx.db,
    who: ctx.who,
    queue: ctx.deps.queue,
    adapter: ctx.deps.adapter,
    logger: ctx.state.logger,
    outbound: { allowedHosts: ctx.deps.config.OUTBOUND_ALLOWED_HOSTS },
    images: ctx.deps.images,
    files: ctx.deps.files,
    params: input.params ?? {},
    query: input.query ?? {},
    body: input.body ?? {},
    at: { ...graphqlInputPaths, ...input.at },
  };
  return op.run(call) as ReturnType<Op['run']>;
}
