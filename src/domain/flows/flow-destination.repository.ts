import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { AdapterInbox } from '../channels/channel-adapter.js';
import type { Channel } from '../comment-automations/comment-automation.schema.js';

/** Where a flow reaches a contact: a conversation, its inbox, the person's id there, and when they last wrote. */
export interface FlowDestination {
  conversationId: number;
  inbox: AdapterInbox;
  /** The network's id of the person in the inbox; null when the inbox has never heard from them. */
  recipientId: string | null;
  contactInboxId: number | null;
  /** The person's last message in it: the networks' 24-hour messaging window counts from it. */
  contactRepliedAt: string | null;
}

/**
 * Each contact's conversation a flow goes to (one statement for many contacts): in `inboxId`
 * when given, else the one the contact wrote in last (then the latest active).
 */
export async function destinationsOf(db: Executor, workspaceId: number, contactIds: readonly number[], inboxId?: number): Promise<Map<number, FlowDestination>> {
  if (contactIds.length === 0) return new Map();
  let q = db
    .selectFrom('conversations as v')
    .innerJoin('inboxes as i', 'i.id', 'v.inbox_id')
    .leftJoin('contact_inboxes as ci', (join) => join.onRef('ci.contact_id', '=', 'v.contact_id').onRef('ci.inbox_id', '=', 'v.inbox_id'))
    .select(['v.id', 'v.contact_id', 'v.contact_replied_at', 'v.last_activity_at', 'i.id as inbox_id', 'i.channel', 'i.source_id as inbox_source', 'ci.id as contact_inbox_id', 'ci.source_id as person_id'])
    .where('v.contact_id', 'in', [...contactIds])
    // `+` keeps SQLite on the contact index: on the workspace index it read every conversation of
    // the workspace for each batch (bench/README.md).
    .where(sql<number>`+v.workspace_id`, '=', workspaceId);
  if (inboxId !== undefined) q = q.where('v.inbox_id', '=', inboxId);
  const rows = await q.execute();
  const stamp = (v: string | null) => (v === null ? 0 : Date.parse(String(v)));
  rows.sort((a, b) => stamp(b.contact_replied_at) - stamp(a.contact_replied_at) || stamp(b.last_activity_at) - stamp(a.last_activity_at) || b.id - a.id);
  const found = new Map<number, FlowDestination>();
  for (const r of rows) {
    if (found.has(r.contact_id)) continue;
    found.set(r.contact_id, {
      conversationId: r.id,
      inbox: { id: r.inbox_id, channel: r.channel as Channel, sourceId: r.inbox_source ?? '' },
      recipientId: r.person_id,
      contactInboxId: r.contact_inbox_id,
      contactRepliedAt: r.contact_replied_at === null ? null : new Date(r.contact_replied_at).toISOString(),
    });
  }
  return found;
}

/** The contact's destination in this conversation (the run's own, whichever the contact wrote in since). */
export async function conversationDestination(db: Executor, workspaceId: number, contactId: number, conversationId: number): Promise<FlowDestination | undefined> {
  const row = await db.selectFrom('conversations').select('inbox_id').where('id', '=', conversationId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (!row || row.inbox_id === null) return undefined;
  const found = (await destinationsOf(db, workspaceId, [contactId], row.inbox_id)).get(contactId);
  return found?.conversationId === conversationId ? found : undefined;
}
