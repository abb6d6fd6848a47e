import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';

/** A flow sent to a contact: by the API (`api`); its state, and why it was not sent. */
export interface FlowRunRecord {
  id: number;
  workspaceId: number;
  flowId: number;
  contactId: number;
  conversationId: number | null;
  status: 'pending' | 'sending' | 'sent' | 'failed';
  reason: string | null;
}

export async function insertFlowRun(db: Executor, r: { workspaceId: number; flowId: number; contactId: number; conversationId: number; source: string }): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('flow_runs')
    .values({ workspace_id: r.workspaceId, flow_id: r.flowId, contact_id: r.contactId, conversation_id: r.conversationId, source: r.source, status: 'pending', reason: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** How many flows the contact was sent by `source` since `since` (flow_runs_contact_idx). */
export async function countRecentRuns(db: Executor, contactId: number, source: string, since: string): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('flow_runs')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('contact_id', '=', contactId)
    .where('created_at', '>', since)
    .where('source', '=', source)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest === null ? null : new Date(row.oldest as string).toISOString() };
}

export async function findFlowRun(db: Executor, workspaceId: number, id: number): Promise<FlowRunRecord | null> {
  const r = await db.selectFrom('flow_runs').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (!r) return null;
  return { id: r.id, workspaceId: r.workspace_id, flowId: r.flow_id, contactId: r.contact_id, conversationId: r.conversation_id, status: r.status as FlowRunRecord['status'], reason: r.reason };
}

/** Moves a run from one state to another; false when it was no longer in `from` (another runner has it). */
export async function moveFlowRun(db: Executor, id: number, from: FlowRunRecord['status'], to: FlowRunRecord['status'], reason: string | null = null): Promise<boolean> {
  const result = await db.updateTable('flow_runs').set({ status: to, reason, updated_at: nowIso() }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
