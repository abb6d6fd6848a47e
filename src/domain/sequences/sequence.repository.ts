import type { Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import type { SequencesTable } from '../../db/types.js';
import { bool, idString, nowIso, toBool } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import { timestamp } from '../tags/tag.repository.js';
import type { Sequence } from './sequence.schema.js';
import { inIds, prepared } from '../../db/prepared.js';

export interface SubscriptionRecord {
  sequenceId: string;
  sequenceName: string;
  contactId: string;
}

const sequenceColumns = ['id', 'workspace_id', 'name', 'is_active', 'folder_id', 'created_at', 'updated_at'] as const;

const toSequence = (r: Pick<Selectable<SequencesTable>, (typeof sequenceColumns)[number]>): Sequence => ({
  id: idString(r.id),
  name: r.name,
  isActive: toBool(r.is_active),
  folderId: r.folder_id === null ? null : idString(r.folder_id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Sequence subscriptions of many contacts in one statement, in subscription order. */
export async function subscriptionsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<SubscriptionRecord[]> {
  if (contactIds.length === 0) return [];
  const rows = await subscriptionsOf.all(db, { workspaceId, contactIds });
  return rows.map((r) => ({ sequenceId: idString(r.sequence_id), sequenceName: r.name, contactId: idString(r.contact_id) }));
}

const subscriptionsOf = prepared((db, p: { workspaceId: number; contactIds: readonly number[] }) =>
  db
    .selectFrom('sequence_subscriptions as s')
    .innerJoin('sequences as q', 'q.id', 's.sequence_id')
    .select(['q.id as sequence_id', 'q.name', 's.contact_id'])
    .where(sameWorkspace('s.workspace_id', p.workspaceId))
    .where(sameWorkspace('q.workspace_id', p.workspaceId))
    .where(inIds(db, 's.contact_id', p.contactIds))
    .orderBy('s.id'),
);

export async function countSequences(db: Executor, workspaceId: number): Promise<number> {
  return countRows(db.selectFrom('sequences').where('workspace_id', '=', workspaceId));
}

/** A page of the workspace's sequences in creation order (id ascending). */
export async function listSequences(db: Executor, workspaceId: number, window: { limit: number; offset: number }): Promise<Sequence[]> {
  const rows = await db
    .selectFrom('sequences')
    .select(sequenceColumns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toSequence);
}

/** Sequences by id in one statement; only this workspace's. */
export async function sequencesByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<Sequence[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('sequences').select(sequenceColumns).where('id', 'in', [...ids]).where('workspace_id', '=', workspaceId).execute();
  return rows.map(toSequence);
}

export async function findSequenceById(db: Executor, workspaceId: number, id: number): Promise<Sequence | null> {
  return (await sequencesByIds(db, workspaceId, [id]))[0] ?? null;
}

/** The sequences of the workspace among these ids, with their names (one statement). */
export async function sequencesAmong(db: Executor, workspaceId: number, ids: readonly number[]): Promise<{ id: number; name: string }[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('sequences').select(['id', 'name']).where('id', 'in', [...ids]).where('workspace_id', '=', workspaceId).execute();
}

/** Which of these ids are sequences of the workspace (one statement). */
export async function sequenceIdsAmong(db: Executor, workspaceId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('sequences').select('id').where('id', 'in', [...ids]).where('workspace_id', '=', workspaceId).execute();
  return rows.map((r) => r.id);
}

export async function insertSequence(db: Executor, workspaceId: number, s: { name: string; isActive: boolean; folderId: number | null }): Promise<Sequence> {
  const now = nowIso();
  const row = await db
    .insertInto('sequences')
    .values({ workspace_id: workspaceId, name: s.name, is_active: bool(s.isActive), folder_id: s.folderId, created_at: now, updated_at: now })
    .returning(sequenceColumns)
    .executeTakeFirstOrThrow();
  return toSequence(row);
}

/** Changes the given fields (and updatedAt); null when the workspace has no such sequence. */
export async function updateSequence(
  db: Executor,
  workspaceId: number,
  id: number,
  s: { name?: string; isActive?: boolean; folderId?: number | null },
): Promise<Sequence | null> {
  const row = await db
    .updateTable('sequences')
    .set({
      ...(s.name !== undefined ? { name: s.name } : {}),
      ...(s.isActive !== undefined ? { is_active: bool(s.isActive) } : {}),
      ...(s.folderId !== undefined ? { folder_id: s.folderId } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .returning(sequenceColumns)
    .executeTakeFirst();
  return row ? toSequence(row) : null;
}

/** Deletes a sequence and its subscriptions; false when the workspace has no such sequence. */
export async function deleteSequence(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  // The foreign key cascades too; deleting the subscriptions first does not rely on it.
  await db.deleteFrom('sequence_subscriptions').where('sequence_id', '=', id).where('workspace_id', '=', workspaceId).execute();
  const result = await db.deleteFrom('sequences').where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Subscribers of many sequences in one statement (served by sequence_subscriptions_sequence_idx); 0 when none. */
export async function subscriberCounts(db: Executor, workspaceId: number, sequenceIds: readonly number[]): Promise<Map<number, number>> {
  if (sequenceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('sequence_subscriptions')
    .select((eb) => ['sequence_id', eb.fn.countAll<number>().as('n')])
    .where('sequence_id', 'in', [...sequenceIds])
    .where(sameWorkspace('workspace_id', workspaceId))
    .groupBy('sequence_id')
    .execute();
  return new Map(rows.map((r) => [r.sequence_id, Number(r.n)]));
}

/** A sequence a contact was subscribed to or unsubscribed from: its id and name (what the events report). */
export interface ChangedSubscription {
  id: number;
  name: string;
  /** The subscription row (gone, for one removed). */
  subscriptionId: number;
}

/** The changed rows' sequences, with their names (a primary-key lookup per row changed, in the same statement), by sequence id. */
const changedSubscriptions = (rows: { id: number; sequence_id: number; name: string | null }[]): ChangedSubscription[] =>
  rows.map((r) => ({ id: r.sequence_id, name: r.name ?? '', subscriptionId: r.id })).sort((a, b) => a.id - b.id);

/**
 * Subscribes a contact; subscriptions it has stay as they are (one statement, in the order given).
 * Answers the sequences it was not subscribed to.
 */
export async function subscribeContact(db: Executor, workspaceId: number, contactId: number, sequenceIds: readonly number[]): Promise<ChangedSubscription[]> {
  if (sequenceIds.length === 0) return [];
  const now = nowIso();
  const rows = await db
    .insertInto('sequence_subscriptions')
    .values(sequenceIds.map((sequenceId) => ({ workspace_id: workspaceId, contact_id: contactId, sequence_id: sequenceId, created_at: now })))
    .onConflict((oc) => oc.columns(['contact_id', 'sequence_id']).doNothing())
    .returning((eb) => ['id', 'sequence_id', eb.selectFrom('sequences as q').select('q.name').whereRef('q.id', '=', 'sequence_subscriptions.sequence_id').as('name')])
    .execute();
  return changedSubscriptions(rows);
}

/** Unsubscribes a contact from these sequences. Answers those it was subscribed to. */
export async function unsubscribeContact(db: Executor, workspaceId: number, contactId: number, sequenceIds: readonly number[]): Promise<ChangedSubscription[]> {
  if (sequenceIds.length === 0) return [];
  const rows = await db
    .deleteFrom('sequence_subscriptions')
    .where('contact_id', '=', contactId)
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('sequence_id', 'in', [...sequenceIds])
    .returning((eb) => ['id', 'sequence_id', eb.selectFrom('sequences as q').select('q.name').whereRef('q.id', '=', 'sequence_subscriptions.sequence_id').as('name')])
    .execute();
  return changedSubscriptions(rows);
}

/** Unsubscribes a contact from every sequence but these. Answers those it was unsubscribed from. */
export async function unsubscribeContactExcept(db: Executor, workspaceId: number, contactId: number, keep: readonly number[]): Promise<ChangedSubscription[]> {
  let q = db.deleteFrom('sequence_subscriptions').where('contact_id', '=', contactId).where(sameWorkspace('workspace_id', workspaceId));
  if (keep.length > 0) q = q.where('sequence_id', 'not in', [...keep]);
  const rows = await q
    .returning((eb) => ['id', 'sequence_id', eb.selectFrom('sequences as q').select('q.name').whereRef('q.id', '=', 'sequence_subscriptions.sequence_id').as('name')])
    .execute();
  return changedSubscriptions(rows);
}

/**
 * Subscribes every one of the contacts to every one of the sequences in one INSERT ... SELECT
 * (existing subscriptions stay as they are); both lists must already be known to be the
 * workspace's. Answers the (contact, sequence) subscriptions it added, by contact then sequence.
 */
export async function subscribeContacts(
  db: Executor,
  workspaceId: number,
  contactIds: readonly number[],
  sequenceIds: readonly number[],
): Promise<{ contactId: number; sequenceId: number; subscriptionId: number }[]> {
  if (contactIds.length === 0 || sequenceIds.length === 0) return [];
  const inserted = await db
    .insertInto('sequence_subscriptions')
    .columns(['workspace_id', 'contact_id', 'sequence_id', 'created_at'])
    .expression(
      db
        .selectFrom('contacts as c')
        .innerJoin('sequences as q', (join) => join.on('q.id', 'in', [...sequenceIds]))
        .select(['c.workspace_id', 'c.id as contact_id', 'q.id as sequence_id', timestamp(db, nowIso()).as('created_at')])
        .where('c.id', 'in', [...contactIds])
        .where(sameWorkspace('c.workspace_id', workspaceId))
        .where('q.workspace_id', '=', workspaceId)
        // Subscriptions get ids in this order, the order a contact's list shows them in.
        .orderBy('c.id')
        .orderBy('q.id'),
    )
    .onConflict((oc) => oc.columns(['contact_id', 'sequence_id']).doNothing())
    .returning(['id', 'contact_id', 'sequence_id'])
    .execute();
  return inserted.map((r) => ({ contactId: r.contact_id, sequenceId: r.sequence_id, subscriptionId: r.id })).sort((a, b) => a.contactId - b.contactId || a.sequenceId - b.sequenceId);
}
