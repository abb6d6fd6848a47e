import { inTransaction, type Executor } from '../../db/database.js';
import type { JobQueue } from '../../queue/enqueue.js';
import { startSubscriptions } from './sequence-progress.service.js';
import { subscriptionsOfSequence } from './sequence-step.repository.js';
import { idNumber } from '../../db/values.js';
import { notFound } from '../../errors/catalogue.js';
import { resolveContact } from '../contacts/contact.service.js';
import { folderRef } from '../folders/folder.service.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { contactIdsAmong } from '../tags/tag.repository.js';
import { assertAllExist } from '../tags/tag.service.js';
import {
  countSequences,
  deleteSequence as deleteSequenceRow,
  findSequenceById,
  insertSequence,
  listSequences,
  sequenceIdsAmong,
  sequencesAmong,
  subscribeContact,
  subscribeContacts,
  subscriptionsForContacts,
  unsubscribeContact,
  unsubscribeContactExcept,
  updateSequence as updateSequenceRow,
  type ChangedSubscription,
} from './sequence.repository.js';
import type { BulkSubscribeSequencesInput, CreateSequenceInput, Sequence, UpdateSequenceInput } from './sequence.schema.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import type { NewEvent } from '../workspace-events/workspace-event.schema.js';

/** subscribedToSequence or unsubscribedFromSequence: the contact joined or left the sequence (its source). */
export const sequenceEvent = (type: 'subscribedToSequence' | 'unsubscribedFromSequence', contactId: number, sequence: ChangedSubscription): NewEvent => ({
  type,
  contactId,
  sourceId: sequence.id,
  data: { sequence_id: String(sequence.id), sequence_name: sequence.name },
});

const success = { success: true } as const;

/** The workspace's sequences in creation order, a page at a time. */
export const listSequencesPage = (db: Executor, workspaceId: number, p: PageRequest): Promise<Page<Sequence>> =>
  fetchPage(p, () => countSequences(db, workspaceId), (w) => listSequences(db, workspaceId, w));

export async function getSequence(db: Executor, workspaceId: number, id: string): Promise<Sequence> {
  const key = idNumber(id);
  const found = key === null ? null : await findSequenceById(db, workspaceId, key);
  if (!found) throw notFound('Sequence');
  return found;
}

/**
 * Names are not unique (no index asks it): two sequences may share a name, as steps tell them
 * apart. A folderId must name a sequence folder of the workspace (404 Folder).
 */
export async function createSequence(db: Executor, workspaceId: number, input: CreateSequenceInput): Promise<Sequence> {
  const { name, isActive, folderId = null } = input;
  if (folderId === null) return insertSequence(db, workspaceId, { name, isActive, folderId });
  return db.transaction().execute(async (trx) => insertSequence(trx, workspaceId, { name, isActive, folderId: await folderRef(trx, workspaceId, 'sequence', folderId) }));
}

/** The given fields change; folderId files it (a sequence folder of the workspace, or 404 Folder) or, null, takes it out of its folder. */
export async function updateSequence(db: Executor, queue: JobQueue, workspaceId: number, id: string, input: UpdateSequenceInput): Promise<Sequence> {
  const key = idNumber(id);
  if (key === null) throw notFound('Sequence');
  const { folderId, ...fields } = input;
  return inTransaction(db, async (trx) => {
    // The sequence is what the call is about: a missing one is 404 Sequence whatever the folder.
    if (folderId !== undefined && folderId !== null && !(await findSequenceById(trx, workspaceId, key))) throw notFound('Sequence');
    const folder = folderId === undefined || folderId === null ? folderId : await folderRef(trx, workspaceId, 'sequence', folderId);
    const updated = await updateSequenceRow(trx, workspaceId, key, { ...fields, folderId: folder });
    if (!updated) throw notFound('Sequence');
    // Switched (back) on: subscribers held while it was off go on from the step they were due for.
    if (input.isActive === true) {
      const held = await subscriptionsOfSequence(trx, workspaceId, key, { held: 'sequenceInactive' });
      await startSubscriptions(trx, queue, workspaceId, held.map((h) => h.id), new Date(), new Map(held.map((h) => [h.id, h.nextStepId])));
    }
    return updated;
  });
}

/**
 * Hard delete: the sequence and every subscription to it, in one transaction. Its subscribers
 * leaving with it records no unsubscribedFromSequence: the sequence is gone, nobody was unsubscribed.
 */
export async function deleteSequence(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  const key = idNumber(id);
  if (key === null) throw notFound('Sequence');
  return db.transaction().execute(async (trx) => {
    if (!(await deleteSequenceRow(trx, workspaceId, key))) throw notFound('Sequence');
    return success;
  });
}

/** The sequences the contact is subscribed to, in subscription order. */
export async function listContactSequences(db: Executor, workspaceId: number, identifier: string) {
  const contact = await resolveContact(db, workspaceId, identifier);
  const rows = await subscriptionsForContacts(db, workspaceId, [Number(contact.id)]);
  return rows.map(({ contactId: _omit, ...row }) => row);
}

const sequenceKeys = (db: Executor, workspaceId: number, ids: readonly string[]) =>
  assertAllExist(ids, 'Sequence', (keys) => sequenceIdsAmong(db, workspaceId, keys));

/**
 * Subscribes, unsubscribes or sets exactly (`set`) the contact's sequences, in one transaction:
 * the contact is resolved (404 Contact), then every id must be a sequence of the workspace (404
 * Sequence with `data.ids`, nothing changed). An existing subscription is left untouched (it keeps
 * its place and time); unsubscribing from a sequence the contact is not in is harmless. Inactive
 * sequences take subscriptions too (they wait until it is switched on). Each subscription added
 * records subscribedToSequence, each removed unsubscribedFromSequence (`set`: the difference);
 * one left as it was records nothing.
 */
export async function changeContactSequences(
  db: Executor,
  queue: JobQueue,
  workspaceId: number,
  identifier: string,
  change: 'subscribe' | 'unsubscribe' | 'set',
  sequenceIds: readonly string[],
) {
  // Joins the caller's transaction when given one (a flow's action inside a sequence run).
  return inTransaction(db, async (trx) => {
    const contactId = Number((await resolveContact(trx, workspaceId, identifier)).id);
    const keys = await sequenceKeys(trx, workspaceId, sequenceIds);
    let subscribed: ChangedSubscription[] = [];
    let unsubscribed: ChangedSubscription[] = [];
    if (change === 'subscribe') subscribed = await subscribeContact(trx, workspaceId, contactId, keys);
    else if (change === 'unsubscribe') unsubscribed = await unsubscribeContact(trx, workspaceId, contactId, keys);
    else {
      unsubscribed = await unsubscribeContactExcept(trx, workspaceId, contactId, keys);
      subscribed = await subscribeContact(trx, workspaceId, contactId, keys);
    }
    await recordEvents(trx, workspaceId, [
      ...unsubscribed.map((s) => sequenceEvent('unsubscribedFromSequence', contactId, s)),
      ...subscribed.map((s) => sequenceEvent('subscribedToSequence', contactId, s)),
    ]);
    await startSubscriptions(trx, queue, workspaceId, subscribed.map((s) => s.subscriptionId));
    return success;
  });
}

/**
 * Subscribes every contact to every sequence, in one transaction. Unknown contact ids (404
 * Contact), then unknown sequence ids (404 Sequence), are refused with `data.ids` before anything
 * changes. `affected`: how many of the contacts gained at least one subscription. Each subscription
 * added records subscribedToSequence.
 */
export async function bulkSubscribeSequences(db: Executor, queue: JobQueue, workspaceId: number, input: BulkSubscribeSequencesInput): Promise<{ success: true; affected: number }> {
  return db.transaction().execute(async (trx) => {
    const contactKeys = await assertAllExist(input.contactIds, 'Contact', (keys) => contactIdsAmong(trx, workspaceId, keys));
    // The sequences' names come with the check that they exist (the same statement).
    const names = new Map<number, string>();
    const keys = await assertAllExist(input.sequenceIds, 'Sequence', async (ids) => {
      const sequences = await sequencesAmong(trx, workspaceId, ids);
      for (const s of sequences) names.set(s.id, s.name);
      return sequences.map((s) => s.id);
    });
    const added = await subscribeContacts(trx, workspaceId, contactKeys, keys);
    await recordEvents(trx, workspaceId, added.map((a) => sequenceEvent('subscribedToSequence', a.contactId, { id: a.sequenceId, name: names.get(a.sequenceId) ?? '', subscriptionId: a.subscriptionId })));
    await startSubscriptions(trx, queue, workspaceId, added.map((a) => a.subscriptionId));
    return { success: true, affected: new Set(added.map((a) => a.contactId)).size };
  });
}
