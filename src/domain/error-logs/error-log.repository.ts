import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import { containsInsensitive, trigramMatches, usesTrigramTable } from '../../db/search.js';
import { idString } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import type { ErrorLog } from './error-log.schema.js';

/**
 * Keyword search must not scan a million rows. PostgreSQL: ILIKE served by the pg_trgm indexes on
 * detail and action. SQLite: the FTS5 trigram table answers a phrase query for 3+ characters, and
 * each match is looked up by key; the workspace check is a plain filter (`sameWorkspace`) because
 * SQLite would otherwise walk the workspace's whole created_at index and probe the match list for
 * every row (100 ms for a keyword with 7 matches among 1,000,000 logs, instead of 0.4 ms). A keyword
 * of 1 or 2 characters has no trigram and falls back to LIKE within the workspace.
 */
function filtered(db: Executor, workspaceId: number, keyword: string | undefined) {
  const logs = db.selectFrom('error_logs');
  if (usesTrigramTable(db, keyword)) {
    return logs.where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', trigramMatches('error_logs_fts', keyword));
  }
  const inWorkspace = logs.where('workspace_id', '=', workspaceId);
  if (!keyword) return inWorkspace;
  return inWorkspace.where((eb) => eb.or([containsInsensitive(db, 'detail', keyword), containsInsensitive(db, 'action', keyword)]));
}

export async function countErrorLogs(db: Executor, workspaceId: number, keyword?: string): Promise<number> {
  return countRows(filtered(db, workspaceId, keyword));
}

export async function listErrorLogs(db: Executor, workspaceId: number, opts: { keyword?: string; limit: number; offset: number }): Promise<ErrorLog[]> {
  const rows = await filtered(db, workspaceId, opts.keyword)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return rows.map((r) => ({
    id: idString(r.id),
    workspaceId: idString(r.workspace_id),
    contactId: r.contact_id === null ? '' : idString(r.contact_id),
    action: r.action,
    detail: r.detail,
    httpCode: r.http_code,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}
