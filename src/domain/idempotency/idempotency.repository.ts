import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface KeyRecord {
  fingerprint: string;
  createdAt: string;
  /** Null while the first request is still being processed. */
  answer: StoredAnswer | null;
}

/**
 * Claims `key` for a new request: true when this request is the first with it. The primary key
 * (workspace_id, key) decides between concurrent requests on both engines.
 */
export async function claimKey(db: Executor, workspaceId: number, key: string, fingerprint: string): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ workspace_id: workspaceId, key, fingerprint, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findKey(db: Executor, workspaceId: number, key: string): Promise<KeyRecord | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status', 'response_headers', 'response_body', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return null;
  const answer = row.status === null ? null : { status: row.status, headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>, body: row.response_body ?? '' };
  return { fingerprint: row.fingerprint, createdAt: row.created_at, answer };
}

export async function storeAnswer(db: Executor, workspaceId: number, key: string, answer: StoredAnswer): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: answer.status, response_headers: JSON.stringify(answer.headers), response_body: answer.body, completed_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .execute();
}

/** Forgets a key (its request failed unexpectedly, or the key expired): the next request runs anew. */
export async function releaseKey(db: Executor, workspaceId: number, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('workspace_id', '=', workspaceId).where('key', '=', key).execute();
}

/** Keys of the workspace created before `before` are gone, answered or not. */
export async function deleteExpiredKeys(db: Executor, workspaceId: number, before: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('workspace_id', '=', workspaceId).where('created_at', '<', before).execute();
}
