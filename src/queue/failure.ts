import { sql } from 'kysely';
import { isPostgres, type Executor } from '../db/database.js';
import { nowIso } from '../db/values.js';

/**
 * What a job that failed for good leaves besides its own failed row: an error log in the
 * workspace named by its payload's `workspaceId` (a batch job's: its first item's) (GET /v1/error-logs shows it), with the task as
 * `action`, the error's message as `detail` and its HTTP status when it carries one (an adapter
 * error with `httpCode`, `status` or `statusCode`), else '500'.
 */

const MAX_DETAIL = 2000;

export function errorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  const message = text || 'Job failed without a message';
  return message.length > MAX_DETAIL ? `${message.slice(0, MAX_DETAIL - 1)}…` : message;
}

export function httpCodeOf(err: unknown): string {
  if (err && typeof err === 'object') {
    for (const field of ['httpCode', 'status', 'statusCode'] as const) {
      const value = (err as Record<string, unknown>)[field];
      if ((typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^\d{3}$/.test(value))) return String(value);
    }
  }
  return '500';
}

/** The payload's workspace id as a key, or null when it names none. */
export function workspaceOf(payload: unknown): number | null {
  // A batch job's items share their workspace (its batch key names it): the first one tells.
  if (Array.isArray(payload)) return payload.length > 0 ? workspaceOf(payload[0]) : null;
  if (!payload || typeof payload !== 'object') return null;
  const value = (payload as Record<string, unknown>).workspaceId;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 2_147_483_647 ? n : null;
}

/**
 * Writes the error log in `db` (the caller's transaction, with the job's own failure). Written
 * only while the workspace exists: a job of a deleted workspace leaves no log (nowhere to show
 * it), and its failure must not become a foreign-key error. Answers whether a log was written.
 */
export async function logJobFailure(db: Executor, task: string, payload: unknown, err: unknown): Promise<boolean> {
  const workspaceId = workspaceOf(payload);
  if (workspaceId === null) return false;
  const at = nowIso();
  // INSERT ... SELECT gives PostgreSQL no column types to infer the parameters from: cast them.
  const stamp = isPostgres(db) ? sql<string>`cast(${at} as timestamptz)` : sql<string>`${at}`;
  const result = await db
    .insertInto('error_logs')
    .columns(['workspace_id', 'contact_id', 'action', 'detail', 'http_code', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('workspaces')
        .select([
          'id',
          sql<null>`cast(null as integer)`.as('contact_id'),
          sql<string>`cast(${task} as text)`.as('action'),
          sql<string>`cast(${errorMessage(err)} as text)`.as('detail'),
          sql<string>`cast(${httpCodeOf(err)} as text)`.as('http_code'),
          stamp.as('created_at'),
          stamp.as('updated_at'),
        ])
        .where('id', '=', workspaceId),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
