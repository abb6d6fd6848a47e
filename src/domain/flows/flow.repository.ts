import type { Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import type { FlowsTable } from '../../db/types.js';
import { idString, nowIso, parseJson } from '../../db/values.js';
import type { Flow, FlowItem } from './flow.schema.js';

const flowColumns = ['id', 'workspace_id', 'name', 'items', 'created_at', 'updated_at'] as const;

const toFlow = (r: Pick<Selectable<FlowsTable>, (typeof flowColumns)[number]>): Flow => ({
  id: idString(r.id),
  name: r.name,
  items: parseJson<FlowItem[]>(r.items),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function findFlowById(db: Executor, workspaceId: number, id: number): Promise<Flow | null> {
  const row = await db.selectFrom('flows').select(flowColumns).where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row ? toFlow(row) : null;
}

/** Flows by id in one statement; only this workspace's. */
export async function flowsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<Flow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('flows').select(flowColumns).where('id', 'in', [...ids]).where('workspace_id', '=', workspaceId).execute();
  return rows.map(toFlow);
}

export async function countFlows(db: Executor, workspaceId: number): Promise<number> {
  return countRows(db.selectFrom('flows').where('workspace_id', '=', workspaceId));
}

/** A page of the workspace's flows in creation order (id ascending). */
export async function listFlows(db: Executor, workspaceId: number, window: { limit: number; offset: number }): Promise<Flow[]> {
  const rows = await db
    .selectFrom('flows')
    .select(flowColumns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toFlow);
}

/** Which of these ids are flows of the workspace (one statement). */
export async function flowIdsAmong(db: Executor, workspaceId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('flows').select('id').where('id', 'in', [...ids]).where('workspace_id', '=', workspaceId).execute();
  return rows.map((r) => r.id);
}

export async function insertFlow(db: Executor, workspaceId: number, f: { name: string; items: readonly FlowItem[]; now?: string }): Promise<Flow> {
  const now = f.now ?? nowIso();
  const row = await db
    .insertInto('flows')
    .values({ workspace_id: workspaceId, name: f.name, items: JSON.stringify(f.items), created_at: now, updated_at: now })
    .returning(flowColumns)
    .executeTakeFirstOrThrow();
  return toFlow(row);
}

/** Changes the given fields (and updatedAt); null when the workspace has no such flow. */
export async function updateFlow(db: Executor, workspaceId: number, id: number, f: { name?: string; items?: readonly FlowItem[] }): Promise<Flow | null> {
  const row = await db
    .updateTable('flows')
    .set({
      ...(f.name !== undefined ? { name: f.name } : {}),
      ...(f.items !== undefined ? { items: JSON.stringify(f.items) } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .returning(flowColumns)
    .executeTakeFirst();
  return row ? toFlow(row) : null;
}

/**
 * Deletes a flow; false when the workspace has no such flow. Sequence steps that send it keep
 * their row with flow_id null (the foreign key sets it), and its runs go with it (cascade).
 */
export async function deleteFlow(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('flows').where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
