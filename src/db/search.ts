import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { isPostgres, type Executor } from './database.js';
import { likeContains } from './values.js';

/**
 * Case-insensitive substring match on a column or an expression: ILIKE on PostgreSQL (served by
 * pg_trgm indexes), LIKE on SQLite (case-insensitive for ASCII). User wildcards are escaped.
 */
export function containsInsensitive(db: Executor, target: string | Expression<unknown>, needle: string): Expression<SqlBool> {
  const pattern = likeContains(needle);
  const value = typeof target === 'string' ? sql.ref(target) : sql`(${target})`;
  return isPostgres(db) ? sql<SqlBool>`${value} ilike ${pattern} escape '\\'` : sql<SqlBool>`${value} like ${pattern} escape '\\'`;
}

/** The SQLite FTS5 `trigram` tables of the migrations. */
type TrigramTable = 'error_logs_fts' | 'contacts_fts';

/**
 * Whether SQLite can answer this keyword from a trigram table: it needs 3 or more characters (a
 * shorter one has no trigram). PostgreSQL's pg_trgm indexes serve ILIKE directly, so never there.
 */
export const usesTrigramTable = (db: Executor, keyword: string | undefined): keyword is string =>
  keyword !== undefined && !isPostgres(db) && [...keyword].length >= 3;

/**
 * `(select rowid ...)`: the rows of a trigram table whose text contains the keyword, taken
 * literally (a quoted FTS5 phrase; the trigram tokenizer keeps every character); at most `limit`.
 */
export function trigramMatches(table: TrigramTable, keyword: string, limit?: number): RawBuilder<number> {
  const phrase = `"${keyword.replace(/"/g, '""')}"`;
  const capped = limit === undefined ? sql`` : sql` limit ${limit}`;
  return sql<number>`(select rowid from ${sql.table(table)} where ${sql.table(table)} match ${phrase}${capped})`;
}
