import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { LeadAdAutomationsTable } from '../../db/types.js';
import { idString, parseJson, toBool } from '../../db/values.js';
import type { LeadAdAutomation } from './lead-ad.schema.js';

const toLeadAd = (r: Selectable<LeadAdAutomationsTable>): LeadAdAutomation => ({
  id: idString(r.id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  name: r.name,
  pageId: r.page_id,
  formIds: parseJson<string[]>(r.form_ids),
  isActive: toBool(r.is_active),
  reply: parseJson(r.reply),
});

export async function listLeadAdAutomations(db: Executor, workspaceId: number): Promise<LeadAdAutomation[]> {
  const rows = await db.selectFrom('lead_ad_automations').selectAll().where('workspace_id', '=', workspaceId).orderBy('id', 'desc').execute();
  return rows.map(toLeadAd);
}

/** Lead-ad automations by id in one statement; only this workspace's. */
export async function leadAdAutomationsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<LeadAdAutomation[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('lead_ad_automations').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
  return rows.map(toLeadAd);
}

/** Permanent deletion; false when there is no such automation in this workspace. */
export async function deleteLeadAdAutomation(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('lead_ad_automations').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
