import type { Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import type { InboxesTable } from '../../db/types.js';
import { idString, nowIso } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import { inIds, prepared } from '../../db/prepared.js';

export interface InboxRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  channel: string;
  sourceId: string;
  workspaceId: string;
  status: string;
}

export interface ContactInboxRecord {
  id: string;
  contactId: string;
  inboxId: string;
  channel: string;
}

export interface InboxTeamRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  workspaceId: string;
  name: string;
}

const toInbox = (r: Selectable<InboxesTable>): InboxRecord => ({
  id: idString(r.id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  name: r.name,
  channel: r.channel,
  sourceId: r.source_id ?? '',
  workspaceId: idString(r.workspace_id),
  status: r.status,
});

export async function inboxesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<InboxRecord[]> {
  if (ids.length === 0) return [];
  const rows = await inboxesOf.all(db, { workspaceId, ids });
  return rows.map(toInbox);
}

const inboxesOf = prepared((db, p: { workspaceId: number; ids: readonly number[] }) =>
  db.selectFrom('inboxes').selectAll().where('workspace_id', '=', p.workspaceId).where(inIds(db, 'id', p.ids)),
);

const toContactInbox = (r: { id: number; contact_id: number; inbox_id: number; channel: string }): ContactInboxRecord => ({
  id: idString(r.id),
  contactId: idString(r.contact_id),
  inboxId: idString(r.inbox_id),
  channel: r.channel,
});

/** Inbox memberships of many contacts in one statement. */
export async function contactInboxesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactInboxRecord[]> {
  if (contactIds.length === 0) return [];
  const rows = await contactInboxesOf.all(db, { workspaceId, contactIds });
  return rows.map(toContactInbox);
}

const contactInboxesOf = prepared((db, p: { workspaceId: number; contactIds: readonly number[] }) =>
  db
    .selectFrom('contact_inboxes as m')
    .innerJoin('inboxes as i', 'i.id', 'm.inbox_id')
    .select(['m.id', 'm.contact_id', 'm.inbox_id', 'm.channel'])
    .where(sameWorkspace('m.workspace_id', p.workspaceId))
    .where(sameWorkspace('i.workspace_id', p.workspaceId))
    .where(inIds(db, 'm.contact_id', p.contactIds))
    .orderBy('m.id'),
);

/** Inbox memberships by id in one statement; only this workspace's. */
export async function contactInboxesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<ContactInboxRecord[]> {
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

export async function inboxTeamsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<InboxTeamRecord[]> {
  if (ids.length === 0) return [];
  const rows = await inboxTeamsOf.all(db, { workspaceId, ids });
  return rows.map((r) => ({ id: idString(r.id), createdAt: r.created_at, updatedAt: r.updated_at, workspaceId: idString(r.workspace_id), name: r.name }));
}

const inboxTeamsOf = prepared((db, p: { workspaceId: number; ids: readonly number[] }) =>
  db.selectFrom('inbox_teams').selectAll().where('workspace_id', '=', p.workspaceId).where(inIds(db, 'id', p.ids)),
);

export async function countInboxes(db: Executor, workspaceId: number, channel?: string): Promise<number> {
  let q = db.selectFrom('inboxes').where('workspace_id', '=', workspaceId);
  if (channel !== undefined) q = q.where('channel', '=', channel);
  return countRows(q);
}

/** How many of the workspace's inboxes, whatever their status, are connected to this account of the channel. */
export async function countInboxesOfAccount(db: Executor, workspaceId: number, channel: string, sourceId: string): Promise<number> {
  return countRows(db.selectFrom('inboxes').where('workspace_id', '=', workspaceId).where('channel', '=', channel).where('source_id', '=', sourceId));
}

/** One page of the workspace's inboxes in id order (creation order), optionally of one channel. */
export async function listInboxes(
  db: Executor,
  workspaceId: number,
  opts: { channel?: string; limit: number; offset: number },
): Promise<InboxRecord[]> {
  let q = db.selectFrom('inboxes').selectAll().where('workspace_id', '=', workspaceId);
  if (opts.channel !== undefined) q = q.where('channel', '=', opts.channel);
  const rows = await q.orderBy('id').limit(opts.limit).offset(opts.offset).execute();
  return rows.map(toInbox);
}

/** Sets the given fields (and updated_at) of one inbox of the workspace; null when there is none. */
export async function updateInbox(db: Executor, workspaceId: number, id: number, fields: { name?: string; status?: string }): Promise<InboxRecord | null> {
  const row = await db
    .updateTable('inboxes')
    .set({ name: fields.name, status: fields.status, updated_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toInbox(row) : null;
}

/**
 * Members of each inbox, in one statement for any number of inboxes. Only memberships and contacts
 * of the workspace count: a row pointing at another workspace's contact adds nothing.
 */
export async function contactCountsOfInboxes(db: Executor, workspaceId: number, inboxIds: readonly number[]): Promise<{ inboxId: number; count: number }[]> {
  if (inboxIds.length === 0) return [];
  const rows = await db
    .selectFrom('contact_inboxes as m')
    .innerJoin('contacts as c', (j) => j.onRef('c.id', '=', 'm.contact_id').on(sameWorkspace('c.workspace_id', workspaceId)))
    .select(['m.inbox_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where(sameWorkspace('m.workspace_id', workspaceId))
    .where('m.inbox_id', 'in', [...inboxIds])
    .groupBy('m.inbox_id')
    .execute();
  return rows.map((r) => ({ inboxId: r.inbox_id, count: Number(r.n) }));
}

export interface ChannelSummaryRecord {
  channel: string;
  inboxCount: number;
  contactCount: number;
}

/**
 * The channels the workspace has inboxes on, by name: how many inboxes, and how many distinct
 * contacts (of the workspace) belong to at least one of them. One statement.
 */
export async function channelSummaries(db: Executor, workspaceId: number): Promise<ChannelSummaryRecord[]> {
  const rows = await db
    .selectFrom('inboxes as i')
    .leftJoin('contact_inboxes as m', (j) => j.onRef('m.inbox_id', '=', 'i.id').on(sameWorkspace('m.workspace_id', workspaceId)))
    .leftJoin('contacts as c', (j) => j.onRef('c.id', '=', 'm.contact_id').on(sameWorkspace('c.workspace_id', workspaceId)))
    .select((eb) => ['i.channel', eb.fn.count<number>('i.id').distinct().as('inbox_count'), eb.fn.count<number>('c.id').distinct().as('contact_count')])
    .where('i.workspace_id', '=', workspaceId)
    .groupBy('i.channel')
    .orderBy('i.channel')
    .execute();
  return rows.map((r) => ({ channel: r.channel, inboxCount: Number(r.inbox_count), contactCount: Number(r.contact_count) }));
}

/** Adds a contact to an inbox of the same workspace (the caller checked both). */
export async function insertContactInbox(db: Executor, workspaceId: number, m: { contactId: number; inboxId: number; channel: string }): Promise<void> {
  await db
    .insertInto('contact_inboxes')
    .values({ workspace_id: workspaceId, contact_id: m.contactId, inbox_id: m.inboxId, channel: m.channel, created_at: nowIso() })
    .execute();
}

/** The contact already linked to this person (`sourceId`, the network's id) in this inbox, or null; creates nothing. */
export async function contactIdOfSource(db: Executor, workspaceId: number, inboxId: number, sourceId: string): Promise<number | null> {
  const row = await contactOfSource.first(db, { inboxId, sourceId, workspaceId });
  return row?.contact_id ?? null;
}

/**
 * Links a contact to a person of the network in an inbox, unless the inbox already links that
 * person (to this contact or another: the index is unique per inbox and person). True when this
 * call linked them.
 */
export async function insertSourceContactInbox(db: Executor, workspaceId: number, m: { contactId: number; inboxId: number; channel: string; sourceId: string; createdAt: string }): Promise<boolean> {
  const linked = await sourceContactInbox.first(db, { workspaceId, contactId: m.contactId, inboxId: m.inboxId, channel: m.channel, sourceId: m.sourceId, createdAt: m.createdAt });
  return linked !== undefined;
}

// The statements above, compiled once (src/db/prepared.ts): every event runs them.
const contactOfSource = prepared((db, p: { inboxId: number; sourceId: string; workspaceId: number }) =>
  db.selectFrom('contact_inboxes').select('contact_id').where('inbox_id', '=', p.inboxId).where('source_id', '=', p.sourceId).where('workspace_id', '=', p.workspaceId),
);

const sourceContactInbox = prepared((db, p: { workspaceId: number; contactId: number; inboxId: number; channel: string; sourceId: string; createdAt: string }) =>
  db
    .insertInto('contact_inboxes')
    .values({ workspace_id: p.workspaceId, contact_id: p.contactId, inbox_id: p.inboxId, channel: p.channel, source_id: p.sourceId, created_at: p.createdAt })
    .onConflict((oc) => oc.columns(['inbox_id', 'source_id']).doNothing())
    .returning('id'),
);

/**
 * Adds a contact to an inbox without a network source id (a lead names no page-scoped user), unless
 * it is a member already (unique per contact and inbox).
 */
export async function insertContactInboxIfMissing(db: Executor, workspaceId: number, m: { contactId: number; inboxId: number; channel: string }): Promise<void> {
  await db
    .insertInto('contact_inboxes')
    .values({ workspace_id: workspaceId, contact_id: m.contactId, inbox_id: m.inboxId, channel: m.channel, source_id: null, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['contact_id', 'inbox_id']).doNothing())
    .execute();
}

/** Adds contacts to an inbox, those not in it yet; answers the ids of the contacts it added. */
export async function addContactsToInbox(db: Executor, workspaceId: number, inbox: { id: number; channel: string }, contactIds: readonly number[]): Promise<number[]> {
  if (contactIds.length === 0) return [];
  const now = nowIso();
  const added: number[] = [];
  for (let i = 0; i < contactIds.length; i += 1000) {
    const rows = await db
      .insertInto('contact_inboxes')
      .values(contactIds.slice(i, i + 1000).map((contactId) => ({ workspace_id: workspaceId, contact_id: contactId, inbox_id: inbox.id, channel: inbox.channel, source_id: null, created_at: now })))
      .onConflict((oc) => oc.columns(['contact_id', 'inbox_id']).doNothing())
      .returning('contact_id')
      .execute();
    added.push(...rows.map((r) => r.contact_id));
  }
  return added;
}
