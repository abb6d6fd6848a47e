import type { Executor } from '../../db/database.js';
import { idString } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';

export interface SubscriptionRow {
  sequenceId: string;
  sequenceName: string;
  contactId: string;
}

/** Sequence subscriptions of many contacts in one statement, in subscription order. */
export async function subscriptionsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<SubscriptionRow[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('sequence_subscriptions as s')
    .innerJoin('sequences as q', 'q.id', 's.sequence_id')
    .select(['q.id as sequence_id', 'q.name', 's.contact_id'])
    .where(sameWorkspace('s.workspace_id', workspaceId))
    .where(sameWorkspace('q.workspace_id', workspaceId))
    .where('s.contact_id', 'in', [...contactIds])
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({ sequenceId: idString(r.sequence_id), sequenceName: r.name, contactId: idString(r.contact_id) }));
}
