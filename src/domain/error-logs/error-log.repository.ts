import { sql, type SqlBool } from 'kysely';
import { errorLogColumns } from '../../db/columns.js';
import { countRows } from '../../db/count.js';
import { isPostgres, type Executor } from '../../db/database.js';
import type { Selectable } from 'kysely';
import type { ErrorLogsTable } from '../../db/types.js';
import { containsInsensitive, usesTrigramIndex, workspaceTrigramCandidates, workspaceTrigramQuery } from '../../db/search.js';
import { workspaceRowCount } from '../shared/row-count.repository.js';
import { idString, nowIso } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import type { ErrorLog } from './error-log.schema.js';

/**
 * Keyword search must not scan a million rows, and its cost must depend only on the workspace's own
 * logs. A keyword of 3+ characters is answered from the workspace's trigram tokens of detail and
 * action (src/db/search.ts: the FTS5 table error_logs_search on SQLite, the GIN indexes on
 * workspace_trigrams() on PostgreSQL), then checked with LIKE (ILIKE), so the results are exactly
 * LIKE's. On SQLite each candidate is looked up by key and the workspace check is a plain filter
 * (`sameWorkspace`): SQLite would otherwise walk the workspace's whole created_at index probing the
 * candidates for every log. A keyword of 1 or 2 characters has no trigram: LIKE within the workspace.
 */
function filtered(db: Executor, workspaceId: number, keyword: string | undefined) {
  const logs = db.selectFrom('error_logs');
  if (!keyword) return logs.where('workspace_id', '=', workspaceId);
  if (!usesTrigramIndex(keyword)) return walked(db, workspaceId, keyword);
  return logs
    .where(sameWorkspace('workspace_id', workspaceId))
    .where(workspaceTrigramCandidates(db, 'error_logs', workspaceId, keyword))
    .where(matching(db, keyword));
}

/** The workspace's logs in (workspace_id, created_at) index order, each checked with LIKE (ILIKE). */
const walked = (db: Executor, workspaceId: number, keyword: string) => db.selectFrom('error_logs').where('workspace_id', '=', workspaceId).where(matching(db, keyword));

/** LIKE (ILIKE) on detail or action: what decides a match, whichever rows are asked. */
const matching = (db: Executor, keyword: string) => sql<SqlBool>`(${containsInsensitive(db, 'error_logs.detail', keyword)} or ${containsInsensitive(db, 'error_logs.action', keyword)})`;

const toErrorLog = (r: Selectable<ErrorLogsTable>): ErrorLog => ({
  id: idString(r.id),
  workspaceId: idString(r.workspace_id),
  contactId: r.contact_id === null ? '' : idString(r.contact_id),
  action: r.action,
  detail: r.detail,
  httpCode: r.http_code,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * The workspace's logs matching `keyword`, counting at most `upTo`, so that a keyword a third of a
 * million logs hold costs what a rare one does. SQLite walks the FTS5 matches joined to their logs,
 * checking LIKE, and stops at `upTo`. PostgreSQL asks its GIN index, whose bitmap has every
 * candidate before the first is checked: dearer for a common keyword (the service remembers that
 * a keyword is common for a while). Without a keyword: the workspace's row count (triggers keep it).
 */
export async function countErrorLogs(db: Executor, workspaceId: number, keyword?: string, upTo?: number): Promise<number> {
  if (!keyword) return workspaceRowCount(db, workspaceId, 'error_logs');
  if (usesTrigramIndex(keyword) && !isPostgres(db)) {
    const limit = upTo === undefined ? sql`` : sql` limit ${upTo}`;
    const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from error_logs_search join error_logs on error_logs.id = error_logs_search.rowid
      where error_logs_search match ${workspaceTrigramQuery(workspaceId, keyword)} and ${sameWorkspace('error_logs.workspace_id', workspaceId)} and ${matching(db, keyword)}${limit})`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  const matches = filtered(db, workspaceId, keyword).select(sql`1`.as('one'));
  return countRows(db.selectFrom((upTo === undefined ? matches : matches.limit(upTo)).as('matches')));
}

/**
 * A page, newest first. `common`: the keyword matches many logs (more than a search counts), so
 * the workspace's logs are walked in that order along (workspace_id, created_at) and a page is
 * found after a few rows each; asking the trigram index instead would read every candidate first.
 */
export async function listErrorLogs(db: Executor, workspaceId: number, opts: { keyword?: string; limit: number; offset: number; common?: boolean }): Promise<ErrorLog[]> {
  const logs = opts.common && opts.keyword ? walked(db, workspaceId, opts.keyword) : filtered(db, workspaceId, opts.keyword);
  const rows = await logs
    .select(errorLogColumns)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return rows.map(toErrorLog);
}

/** Error logs by id in one statement; only this workspace's. */
export async function errorLogsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ErrorLog[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('error_logs').select(errorLogColumns).where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map(toErrorLog);
}

/** What a failure leaves for GET /v1/error-logs: the action that failed (a channel, a task), the provider's words and its HTTP status. */
export interface NewErrorLog {
  /** The contact the failure concerns; a contact deleted since leaves the log without one. */
  contactId: number | null;
  action: string;
  detail: string;
  /** The HTTP status as text; '500' when the failure had none (no answer, not an HTTP call). */
  httpCode: string;
}

const MAX_DETAIL = 2000;

/** Writes an error log of the workspace (in the caller's transaction when given one); answers its id. */
export async function insertErrorLog(db: Executor, workspaceId: number, e: NewErrorLog): Promise<number> {
  const at = nowIso();
  const detail = e.detail.length > MAX_DETAIL ? `${e.detail.slice(0, MAX_DETAIL - 1)}…` : e.detail;
  // The contact as it is now: a job acting for a contact deleted meanwhile must still log its
  // failure (the foreign key would refuse the row, and the job's transaction with it).
  const contactId = e.contactId === null ? null : sql<number | null>`(select c.id from contacts c where c.id = ${e.contactId} and c.workspace_id = ${workspaceId})`;
  const row = await db
    .insertInto('error_logs')
    .values({ workspace_id: workspaceId, contact_id: contactId, action: e.action, detail: detail || 'Failed without a message', http_code: e.httpCode, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
