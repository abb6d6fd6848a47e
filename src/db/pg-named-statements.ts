import type * as PgModule from 'pg';

/**
 * PostgreSQL parses, analyses and plans an unnamed statement on every run; a named one is parsed
 * once per connection and may keep a generic plan after five runs. Outside a transaction the
 * prepared statements (prepared.ts) run by name on the pool (database.ts, runByName). Inside one
 * they go through Kysely's connection, which sends only the SQL text: this module gives that text
 * its name again, so that a transaction's hot statements (the engine's chunk of events runs about
 * twelve an event) are not planned anew each time. Measured in bench/README.md.
 *
 * Only the texts prepared.ts registers are named: there is a fixed number of them, so each
 * connection keeps a bounded set, where naming every text (a multi-row insert has one per row
 * count) would grow each connection's memory without end.
 */
const namesByText = new Map<string, string>();

/**
 * prepared.ts: run `text` under `name` in transactions too. Not a text that answers whole rows
 * (`select *`, `returning *`): a migration run meanwhile by another process (a rolling deploy)
 * that adds a column makes PostgreSQL refuse its kept plan, and inside a transaction it cannot be
 * run again unnamed, as runByName does outside one. A text that lists its columns keeps its plan.
 */
export function nameStatement(text: string, name: string): void {
  if (!answersWholeRows.test(text)) namesByText.set(text, name);
}

/** `*` or `"table".*` as a column (not `count(*)`). */
const answersWholeRows = /(^|[\s,])("[^"]+"\.)?\*(\s|,|$)/;

/** PostgreSQL's refusal to run a kept plan whose result columns changed under it (by routine: messages may be translated). */
export const isStalePlan = (error: unknown) => {
  const e = error as { code?: string; routine?: string } | null;
  return e?.code === '0A000' && e.routine === 'RevalidateCachedQuery';
};

/** The part of pg's Pool that Kysely's PostgresDialect uses. */
interface KyselyPool {
  connect(): Promise<PgModule.PoolClient>;
  end(): Promise<void>;
}

const named = new WeakSet<PgModule.PoolClient>();
const stale = new WeakSet<PgModule.PoolClient>();

/**
 * The pool as Kysely sees it: each client it checks out runs a registered text by its name. Should
 * a kept plan go stale all the same (a column's type changed under it), its statement fails, and
 * with it the transaction: the client is closed when released, so that a new try gets a fresh one.
 */
export function namingPool(pool: PgModule.Pool): KyselyPool {
  return {
    async connect() {
      const client = await pool.connect();
      if (!named.has(client)) {
        named.add(client);
        const query = client.query.bind(client) as (config: unknown, values?: unknown) => Promise<PgModule.QueryResult>;
        client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
          const name = typeof config === 'string' && Array.isArray(values) && callback === undefined ? namesByText.get(config) : undefined;
          if (name === undefined) return (query as (...args: unknown[]) => unknown)(config, values, callback);
          return query({ name, text: config, values }).catch((error: unknown) => {
            if (isStalePlan(error)) stale.add(client);
            throw error;
          });
        }) as typeof client.query;
      }
      // pg-pool gives each checkout its own release.
      const release = client.release;
      client.release = (err?: Error | boolean) => release(err ?? (stale.has(client) ? true : undefined));
      return client;
    },
    end: () => pool.end(),
  };
}
