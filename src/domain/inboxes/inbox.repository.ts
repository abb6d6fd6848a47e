import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { InboxesTable } from '../../db/types.js';
import { idString } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';

export interface InboxRow {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  channel: string;
  sourceId: string;
  workspaceId: string;
  status: string;
}

export interface ContactInboxRow {
  id: string;
  contactId: string;
  inboxId: string;
  channel: string;
}

export interface InboxTeamRow {
  id: string;
  createdAt: string;
  updatedAt: string;
  workspaceId: string;
  name: string;
}

const toInbox = (r: Selectable<InboxesTable>): InboxRow => ({
  id: idString(r.id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  name: r.name,
  channel: r.channel,
  sourceId: r.source_id ?? '',
  workspaceId: idString(r.workspace_id),
  status: r.status,
});

export async function inboxesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<InboxRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('inboxes').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
  return rows.map(toInbox);
}

const toContactInbox = (r: { id: number; contact_id: number; inbox_id: number; channel: string }): ContactInboxRow => ({
  id: idString(r.id),
  contactId: idString(r.contact_id),
  inboxId: idString(r.inbox_id),
  channel: r.channel,
});

/** Inbox memberships of many contacts in one statement. */
export async function contactInboxesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactInboxRow[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('contact_inboxes as m')
    .innerJoin('inboxes as i', 'i.id', 'm.inbox_id')
    .select(['m.id', 'm.contact_id', 'm.inbox_id', 'm.channel'])
    .where(sameWorkspace('m.workspace_id', workspaceId))
    .where(sameWorkspace('i.workspace_id', workspaceId))
    .where('m.contact_id', 'in', [...contactIds])
    .orderBy('m.id')
    .execute();
  return rows.map(toContactInbox);
}

/** Inbox memberships by id in one statement; only this workspace's. */
export async function contactInboxesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ContactInboxRow[]> {
  if (ids.length === 0) return [];
  // As contactInboxesForContacts: a membership of another workspace's inbox is not there.
  const rows = await db
    .selectFrom('contact_inboxes as m')
    .innerJoin('inboxes as i', 'i.id', 'm.inbox_id')
    .select(['m.id', 'm.contact_id', 'm.inbox_id', 'm.channel'])
    .where('m.workspace_id', '=', workspaceId)
    .where(sameWorkspace('i.workspace_id', workspaceId))
    .where('m.id', 'in', [...ids])
    .execute();
  return rows.map(toContactInbox);
}

export async function inboxTeamsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<InboxTeamRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('inbox_teams').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...ids]).execute();
  return rows.map((r) => ({ id: idString(r.id), createdAt: r.created_at, updatedAt: r.updated_at, workspaceId: idString(r.workspace_id), name: r.name }));
}
