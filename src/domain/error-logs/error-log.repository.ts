import { sql } from 'kysely';
import { errorLogColumns } from '../../db/columns.js';
import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import type { Selectable } from 'kysely';
import type { ErrorLogsTable } from '../../db/types.js';
import { containsInsensitive, usesTrigramIndex, workspaceTrigramCandidates } from '../../db/search.js';
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
  const like = containsInsensitive(db, 'detail', keyword);
  const likeAction = containsInsensitive(db, 'action', keyword);
  if (!usesTrigramIndex(keyword)) return logs.where('workspace_id', '=', workspaceId).where((eb) => eb.or([like, likeAction]));
  return logs
    .where(sameWorkspace('workspace_id', workspaceId))
    .where(workspaceTrigramCandidates(db, 'error_logs', workspaceId, keyword))
    .where((eb) => eb.or([like, likeAction]));
}

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

export async function countErrorLogs(db: Executor, workspaceId: number, keyword?: string): Promise<number> {
  return countRows(filtered(db, workspaceId, keyword));
}

export async function listErrorLogs(db: Executor, workspaceId: number, opts: { keyword?: string; limit: number; offset: number }): Promise<ErrorLog[]> {
  const rows = await filtered(db, workspaceId, opts.keyword)
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
  const rows = await db.selectFrom('error_logs').select(errorLogColumns).where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
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
