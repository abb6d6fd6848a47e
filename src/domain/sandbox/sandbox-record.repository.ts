import type { Executor } from '../../db/database.js';
import { nowIso, parseJson } from '../../db/values.js';

export type SandboxRecordKind = 'lead' | 'profile';

/** A lead or profile the sandbox adapter answers fetches with; null when the workspace has none by that id. */
export async function findSandboxRecord<T>(db: Executor, workspaceId: number, kind: SandboxRecordKind, externalId: string): Promise<T | null> {
  const row = await db
    .selectFrom('sandbox_records')
    .select('data')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row ? parseJson<T>(row.data) : null;
}

/** Stores (or replaces) a lead or profile by the network's id, in one statement. */
export async function upsertSandboxRecord(db: Executor, workspaceId: number, kind: SandboxRecordKind, externalId: string, data: unknown): Promise<void> {
  const now = nowIso();
  const json = JSON.stringify(data);
  await db
    .insertInto('sandbox_records')
    .values({ workspace_id: workspaceId, kind, external_id: externalId, data: json, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['workspace_id', 'kind', 'external_id']).doUpdateSet({ data: json, updated_at: now }))
    .execute();
}
