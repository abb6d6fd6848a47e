import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { isPostgres, type Executor } from './database.js';
import { likeContains } from './values.js';

/**
 * Case-insensitive substring match on a column or an expression: ILIKE on PostgreSQL, LIKE on
 * SQLite (case-insensitive for ASCII). User wildcards are escaped. This is the filter that decides
 * the results; the workspace trigram indexes below only narrow the rows it is asked about.
 */
export function containsInsensitive(db: Executor, target: string | Expression<unknown>, needle: string): Expression<SqlBool> {
  const pattern = likeContains(needle);
  const value = typeof target === 'string' ? sql.ref(target) : sql`(${target})`;
  return isPostgres(db) ? sql<SqlBool>`${value} ilike ${pattern} escape '\\'` : sql<SqlBool>`${value} like ${pattern} escape '\\'`;
}

/**
 * Whether a keyword can be answered from a workspace trigram index: it needs 3 or more characters
 * (a shorter one has no trigram and is filtered with LIKE over the workspace's rows).
 */
export const usesTrigramIndex = (keyword: string | undefined): keyword is string => keyword !== undefined && [...keyword].length >= 3;

/**
 * SQLite: the FTS5 query of the workspace's trigram tokens of `keyword`, as the migration
 * 2026_11_23_0003_workspace_scoped_search builds them for a row: `w<workspace>x<hex of the UTF-8
 * bytes>` of each 3-character window of the text lowered as SQLite's lower() does (ASCII letters
 * only, as its LIKE folds). All of them must be there; or the row's text was too long to index
 * (`w<workspace>xlong`), so LIKE decides. Every token names the workspace, so the index reads only
 * that workspace's lists: the search's cost does not depend on other workspaces' rows.
 */
export function workspaceTrigramQuery(workspaceId: number, keyword: string): string {
  const chars = [...keyword.replace(/[A-Z]/g, (c) => c.toLowerCase())];
  const tokens = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) tokens.add(`w${workspaceId}x${Buffer.from(chars.slice(i, i + 3).join(''), 'utf8').toString('hex').toUpperCase()}`);
  return `(${[...tokens].join(' AND ')}) OR w${workspaceId}xlong`;
}

/** The SQLite contentless FTS5 tables of workspace trigram tokens, by the table they index. */
const sqliteTables = { contacts: 'contacts_search', error_logs: 'error_logs_search' } as const;

/**
 * `<row> may contain keyword` (3+ characters), answered from the workspace's own trigram lists:
 * SQLite, `id in (rowids of the FTS5 table matching the workspace's tokens)`, at most `limit` of
 * them; PostgreSQL, `search_tokens @@ workspace_trigram_query(...)` (the table's stored tokens of
 * every searched text, under a GIN index). Candidates only: keep the LIKE filter.
 */
export function workspaceTrigramCandidates(db: Executor, table: SearchedTable, workspaceId: number, keyword: string, limit?: number): Expression<SqlBool> {
  if (isPostgres(db)) return postgresTrigramCandidates(workspaceId, keyword);
  if (table === 'dynamic_images') throw new Error('SQLite filters image names over the workspace rows; there is no token table for them');
  return sql<SqlBool>`id in ${sqliteTrigramMatches(table, workspaceId, keyword, limit)}`;
}

/** Tables whose rows are searched by keyword. */
export type SearchedTable = keyof typeof sqliteTables | 'dynamic_images';

/**
 * PostgreSQL: `search_tokens @@ workspace_trigram_query(workspace, keyword)` (3+ character keyword):
 * the stored workspace trigram tokens of the row's searched texts (migration 0006: contact name,
 * email and phone; error-log detail and action; image name), served by their GIN index.
 * Candidates only: keep the ILIKE filter.
 */
export function postgresTrigramCandidates(workspaceId: number, keyword: string): Expression<SqlBool> {
  return sql<SqlBool>`search_tokens @@ workspace_trigram_query(${workspaceId}, ${keyword})`;
}

/** SQLite: `(select rowid ...)` of the FTS5 table's rows matching the workspace's tokens of the keyword. */
export function sqliteTrigramMatches(table: keyof typeof sqliteTables, workspaceId: number, keyword: string, limit?: number): RawBuilder<number> {
  const fts = sql.table(sqliteTables[table]);
  const capped = limit === undefined ? sql`` : sql` limit ${limit}`;
  return sql<number>`(select rowid from ${fts} where ${fts} match ${workspaceTrigramQuery(workspaceId, keyword)}${capped})`;
}
