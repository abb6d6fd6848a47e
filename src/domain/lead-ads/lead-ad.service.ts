import type { Executor } from '../../db/database.js';
import { idNumber } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { deleteLeadAdAutomation, listLeadAdAutomations } from './lead-ad.repository.js';

export { listLeadAdAutomations };

/**
 * Deletes the row itself: nothing is left that could match a new lead, so replying stops at once.
 * Unknown ids, and other workspaces' ids, are 404.
 */
export async function deleteNetLeadAd(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  const key = idNumber(id);
  if (key === null || !(await deleteLeadAdAutomation(db, workspaceId, key))) throw notFound('Lead-ad automation');
  return { success: true };
}
