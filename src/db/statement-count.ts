import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { Executor } from './database.js';

/** Where a request's statements are counted (its X-Db-Statements header and access log line). */
export interface StatementTally {
  statements: number;
}

/** Counts every statement run through a handle that carries it (Kysely calls transformResult once per statement run). */
class CountStatements implements KyselyPlugin {
  constructor(readonly tally: StatementTally) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.tally.statements++;
    return args.result;
  }
}

/**
 * The database as one request uses it: every statement run through it, or through a transaction
 * begun on it, is counted on `tally` (begin and commit too, as the database runs them). The
 * request passes it on explicitly (route context, GraphQL context, loaders): counting needs no
 * AsyncLocalStorage, whose promise hooks cost every promise of the process (bench/README.md).
 */
export function countedDatabase(db: Executor, tally: StatementTally): Executor {
  const counted = db.withPlugin(new CountStatements(tally));
  // Kysely runs begin and commit (or rollback) below its plugins: the transaction builder counts them.
  return new Proxy(counted, {
    get(target, property) {
      if (property === 'transaction') return () => countTransaction(target.transaction(), tally);
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

type TransactionBuilder = ReturnType<Executor['transaction']>;

function countTransaction(builder: TransactionBuilder, tally: StatementTally): TransactionBuilder {
  return new Proxy(builder, {
    get(target, property) {
      if (property === 'execute') {
        return async <T>(fn: (trx: Executor) => Promise<T>): Promise<T> => {
          tally.statements++; // begin
          try {
            return await target.execute(fn);
          } finally {
            tally.statements++; // commit, or rollback
          }
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      // setIsolationLevel and setAccessMode answer a new builder: it counts as well.
      return typeof value === 'function' ? (...args: unknown[]) => wrapBuilder((value as (...a: unknown[]) => unknown).apply(target, args), tally) : value;
    },
  });
}

const wrapBuilder = (value: unknown, tally: StatementTally) =>
  value && typeof value === 'object' && 'execute' in value ? countTransaction(value as TransactionBuilder, tally) : value;

/** The tally a handle (or a transaction begun on one) counts on, if any: for statements run outside Kysely's executor (database.ts). */
export function tallyOf(db: Executor): StatementTally | undefined {
  for (const plugin of db.getExecutor().plugins) if (plugin instanceof CountStatements) return plugin.tally;
  return undefined;
}
