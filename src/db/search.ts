import { sql, type Expression, type SqlBool } from 'kysely';
import { isPostgres, type Executor } from './database.js';
import { likeContains } from './values.js';

/**
 * Case-insensitive substring match on a column: ILIKE on PostgreSQL (served by pg_trgm indexes),
 * LIKE on SQLite (case-insensitive for ASCII). User wildcards are escaped.
 */
export function containsInsensitive(db: Executor, column: string, needle: string): Expression<SqlBool> {
  const pattern = likeContains(needle);
  return isPostgres(db)
    ? sql<SqlBool>`${sql.ref(column)} ilike ${pattern} escape '\\'`
    : sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
}
