import { inTransaction, type Executor } from '../../db/database.js';
import { idNumber, nowIso } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import { resolveContact } from '../contacts/contact.service.js';
import {
  addContactTags,
  contactIdsAmong,
  DuplicateTagNameError,
  findLiveTagById,
  findLiveTagByName,
  insertMissingTags,
  insertTag,
  listTags,
  liveTagIdsAmong,
  liveTagIdsByNames,
  liveTagsAmong,
  removeContactTags,
  removeContactTagsExcept,
  renameTag,
  softDeleteTag,
  tagContacts,
  tagsForContacts,
  untagAllContacts,
  type ChangedTag,
  type TagRecord,
} from './tag.repository.js';
import type { BulkAddTagsInput, CreateTagInput, UpdateTagInput } from './tag.schema.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import type { NewEvent } from '../workspace-events/workspace-event.schema.js';

/** tagApplied or tagRemoved: the contact gained or lost the tag (its source). */
export const tagEvent = (type: 'tagApplied' | 'tagRemoved', contactId: number, tag: ChangedTag): NewEvent => ({
  type,
  contactId,
  sourceId: tag.id,
  data: { tag: tag.name },
});

/** The workspace's tags by name; not paginated (the contract returns them all). */
export const listWorkspaceTags = (db: Executor, workspaceId: number) => listTags(db, workspaceId);

/** 422 validation naming `name`: another live tag of the workspace has it (in any case). */
const duplicateName = () => new AppError('validation', { data: { field: 'name', reason: 'alreadyExists' } });

const success = { success: true } as const;

/**
 * Distinct digit-string ids, in first-seen order, split into keys and ids that cannot name any row
 * (beyond a 32-bit key): the latter are simply unknown.
 */
export function distinctIds(ids: readonly string[]): { keys: number[]; impossible: string[] } {
  const keys: number[] = [];
  const impossible: string[] = [];
  for (const id of new Set(ids)) {
    const key = idNumber(id);
    if (key === null) impossible.push(id);
    else keys.push(key);
  }
  return { keys, impossible };
}

/**
 * Checks that every id names a row of the workspace (`existing` reads which do, in one statement);
 * otherwise 404 notFound with `data: {resource, ids}` listing the unknown ids as sent, in order.
 */
export async function assertAllExist(
  ids: readonly string[],
  resource: string,
  existing: (keys: number[]) => Promise<readonly number[]>,
): Promise<number[]> {
  const { keys, impossible } = distinctIds(ids);
  const found = new Set((await existing(keys)).map(Number));
  const missing = new Set([...impossible, ...keys.filter((k) => !found.has(k)).map(String)]);
  if (missing.size > 0) throw new AppError('notFound', { data: { resource, ids: [...new Set(ids)].filter((id) => missing.has(id)) } });
  return keys;
}

/** Tag ids that must all be live tags of the workspace (deleted ones are unknown). */
const liveTagKeys = (db: Executor, workspaceId: number, tagIds: readonly string[]) =>
  assertAllExist(tagIds, 'Tag', (keys) => liveTagIdsAmong(db, workspaceId, keys));

/**
 * Creates a tag. Names are unique among the workspace's live tags, case-insensitively: the
 * pre-check names the field, the partial unique index closes the race between two creates.
 */
export async function createTag(db: Executor, workspaceId: number, input: CreateTagInput): Promise<TagRecord> {
  if (await findLiveTagByName(db, workspaceId, input.name)) throw duplicateName();
  try {
    return await insertTag(db, workspaceId, input.name);
  } catch (err) {
    if (err instanceof DuplicateTagNameError) throw duplicateName();
    throw err;
  }
}

/**
 * A live tag by id or name: digits are tried as an id first, then (a tag may be named "2024") as a
 * name; anything else is a name, matched case-insensitively. Deleted tags are not found.
 */
export async function getTag(db: Executor, workspaceId: number, idOrNameSent: string): Promise<TagRecord> {
  // Names are stored trimmed: surrounding spaces cannot be part of one.
  const idOrName = idOrNameSent.trim();
  const key = /^\d+$/.test(idOrName) ? idNumber(idOrName) : null;
  const found = (key !== null ? await findLiveTagById(db, workspaceId, key) : null) ?? (await findLiveTagByName(db, workspaceId, idOrName));
  if (!found) throw notFound('Tag');
  return found;
}

/** Renames a live tag (a change of case only is allowed); the new name follows create's rule. */
export async function updateTag(db: Executor, workspaceId: number, id: string, input: UpdateTagInput): Promise<TagRecord> {
  const key = idNumber(id);
  if (key === null) throw notFound('Tag');
  return db.transaction().execute(async (trx) => {
    if (!(await findLiveTagById(trx, workspaceId, key))) throw notFound('Tag');
    const holder = await findLiveTagByName(trx, workspaceId, input.name);
    if (holder && holder.id !== String(key)) throw duplicateName();
    try {
      const renamed = await renameTag(trx, workspaceId, key, input.name);
      if (!renamed) throw notFound('Tag');
      return renamed;
    } catch (err) {
      if (err instanceof DuplicateTagNameError) throw duplicateName();
      throw err;
    }
  });
}

/**
 * Soft delete: the tag keeps its row with `deletedAt` set (so its id still names it for Relay's
 * `node`), leaves every list and every contact (its contact rows are removed), and its name is
 * free for a new tag. A deleted tag is 404 to every operation, deleting it again included.
 * Leaving its contacts records no tagRemoved: the tag is gone, not taken off anyone.
 */
export async function deleteTag(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  const key = idNumber(id);
  if (key === null) throw notFound('Tag');
  return db.transaction().execute(async (trx) => {
    if (!(await softDeleteTag(trx, workspaceId, key))) throw notFound('Tag');
    await untagAllContacts(trx, workspaceId, key);
    return success;
  });
}

/** The contact's live tags, by name. */
export async function listContactTags(db: Executor, workspaceId: number, identifier: string): Promise<TagRecord[]> {
  const contact = await resolveContact(db, workspaceId, identifier);
  const rows = await tagsForContacts(db, workspaceId, [Number(contact.id)]);
  return rows.map(({ contactId: _omit, ...tag }) => tag);
}

type TagChange = 'add' | 'remove' | 'set';

/**
 * Adds, removes or sets exactly (`set`) the contact's tags, in one transaction: the contact is
 * resolved (404 Contact), then every id must be a live tag of the workspace (404 Tag with
 * `data.ids`, nothing changed). Adding a tag the contact has, or removing one it lacks, is harmless
 * (and records nothing). Each tag the contact gains records tagApplied, each it loses tagRemoved
 * (`set`: the difference).
 */
export async function changeContactTags(db: Executor, workspaceId: number, identifier: string, change: TagChange, tagIds: readonly string[]) {
  // Joins the caller's transaction when given one (a flow's action inside a sequence run).
  return inTransaction(db, async (trx) => {
    const contactId = Number((await resolveContact(trx, workspaceId, identifier)).id);
    const keys = await liveTagKeys(trx, workspaceId, tagIds);
    let applied: ChangedTag[] = [];
    let removed: ChangedTag[] = [];
    if (change === 'add') applied = await addContactTags(trx, workspaceId, contactId, keys);
    else if (change === 'remove') removed = await removeContactTags(trx, workspaceId, contactId, keys);
    else {
      removed = await removeContactTagsExcept(trx, workspaceId, contactId, keys);
      applied = await addContactTags(trx, workspaceId, contactId, keys);
    }
    await recordEvents(trx, workspaceId, [...removed.map((tag) => tagEvent('tagRemoved', contactId, tag)), ...applied.map((tag) => tagEvent('tagApplied', contactId, tag))]);
    return success;
  });
}

/**
 * Tags the contact by name, in one transaction: each name matches a live tag case-insensitively,
 * and names no live tag has are created first (the first spelling sent wins). Each tag the contact
 * gains (one created on the way too) records tagApplied.
 */
export async function addContactTagsByName(db: Executor, workspaceId: number, identifier: string, names: readonly string[]) {
  const distinct = [...new Set(names)];
  return db.transaction().execute(async (trx) => {
    const contactId = Number((await resolveContact(trx, workspaceId, identifier)).id);
    await insertMissingTags(trx, workspaceId, distinct);
    const applied = await addContactTags(trx, workspaceId, contactId, await liveTagIdsByNames(trx, workspaceId, distinct));
    await recordEvents(trx, workspaceId, applied.map((tag) => tagEvent('tagApplied', contactId, tag)));
    return success;
  });
}

/**
 * Gives every contact every tag, in one transaction. Unknown contact ids (404 Contact) and then
 * unknown or deleted tag ids (404 Tag) are refused with `data.ids`, before anything changes.
 * `affected`: how many of the contacts gained at least one tag. Each (contact, tag) added records
 * tagApplied.
 */
export async function bulkAddTags(db: Executor, workspaceId: number, input: BulkAddTagsInput): Promise<{ success: true; affected: number }> {
  return db.transaction().execute(async (trx) => {
    const contactKeys = await assertAllExist(input.contactIds, 'Contact', (keys) => contactIdsAmong(trx, workspaceId, keys));
    // The tags' names come with the check that they are live (the same statement).
    const names = new Map<number, string>();
    const tagKeys = await assertAllExist(input.tagIds, 'Tag', async (keys) => {
      const tags = await liveTagsAmong(trx, workspaceId, keys);
      for (const tag of tags) names.set(tag.id, tag.name);
      return tags.map((tag) => tag.id);
    });
    const added = await tagContacts(trx, workspaceId, contactKeys, tagKeys);
    await recordEvents(trx, workspaceId, added.map((a) => tagEvent('tagApplied', a.contactId, { id: a.tagId, name: names.get(a.tagId) ?? '' })));
    return { success: true, affected: new Set(added.map((a) => a.contactId)).size };
  });
}
