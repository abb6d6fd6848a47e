import { sql, type Expression, type SqlBool } from 'kysely';
import { isPostgres, type Executor } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import { inIds, prepared } from '../../db/prepared.js';
import { idString, nowIso } from '../../db/values.js';
import { listingOnly } from '../shared/listing.js';
import { sameWorkspace } from '../shared/scope.js';
import type { TagListing } from './tag.schema.js';

export interface TagRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  deletedAt: string | null;
  folderId: string | null;
  workspaceId: string;
}

export interface ContactTagRecord extends TagRecord {
  contactId: string;
}

const tagColumns = ['id', 'name', 'created_at', 'updated_at', 'deleted_at', 'folder_id', 'workspace_id'] as const;

const toTag = (r: { id: number; name: string; created_at: string; updated_at: string; deleted_at: string | null; folder_id: number | null; workspace_id: number }): TagRecord => ({
  id: idString(r.id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  name: r.name,
  deletedAt: r.deleted_at,
  folderId: r.folder_id === null ? null : idString(r.folder_id),
  workspaceId: idString(r.workspace_id),
});

/**
 * `lower(name) = lower(<given>)`: the expression of the unique index tags_workspace_live_lower_name_uq
 * (migration 2026_11_23_0007), so the lookup is served by it and matches exactly what it refuses.
 * Both sides go through the engine's lower(): SQLite's folds ASCII letters only, PostgreSQL's
 * every letter, and the check agrees with the index on each.
 */
const sameName = (name: string): Expression<SqlBool> => sql<SqlBool>`lower(name) = lower(${name})`;

/** A timestamp parameter in a select list (INSERT ... SELECT): PostgreSQL needs its type said. */
export const timestamp = (db: Executor, at: string) => (isPostgres(db) ? sql<string>`cast(${at} as timestamptz)` : sql<string>`${at}`);

/** A live tag's name is taken: the partial unique index refused an insert or a rename. */
export class DuplicateTagNameError extends Error {
  constructor() {
    super('duplicate live tag name');
  }
}

/** Whether a failed statement is the unique index on live tag names, from either driver's error. */
function isDuplicateName(err: unknown): boolean {
  return uniqueViolation(err)?.includes('tags_workspace_live_lower_name_uq') ?? false;
}

const rethrowDuplicate = (err: unknown): never => {
  throw isDuplicateName(err) ? new DuplicateTagNameError() : err;
};

/**
 * Live tags of the workspace, by name (case-insensitive, ties by id). PostgreSQL compares with the
 * "C" collation so the order is code-point order on both engines, whatever the database's locale.
 */
export async function listTags(db: Executor, workspaceId: number): Promise<TagRecord[]> {
  return (await liveTags.all(db, { workspaceId })).map(toTag);
}

// GET /v1/tags, the cheapest read there is: compiled once (src/db/prepared.ts).
const liveTags = prepared((db, p: { workspaceId: number }) =>
  db
    .selectFrom('tags')
    .select(tagColumns)
    .where('workspace_id', '=', p.workspaceId)
    .where('deleted_at', 'is', null)
    .orderBy(isPostgres(db) ? sql`lower(name) collate "C"` : sql`lower(name)`)
    .orderBy('id'),
);

/** Tags of many contacts in one statement, each contact's in the order of the tag list (by name, case-insensitively). */
export async function tagsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactTagRecord[]> {
  if (contactIds.length === 0) return [];
  const rows = await tagsOfContacts.all(db, { workspaceId, contactIds });
  return rows.map((r) => ({ ...toTag(r), contactId: idString(r.contact_id) }));
}

/** The same tags as listings: their ids and names (a GraphQL selection of nothing more, contact.type.ts). */
export async function tagListingsForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<(TagListing & { contactId: string })[]> {
  if (contactIds.length === 0) return [];
  const rows = await tagListingsOfContacts.all(db, { workspaceId, contactIds });
  return rows.map((r) => ({ [listingOnly]: true, id: idString(r.id), name: r.name, contactId: idString(r.contact_id) }));
}

// The tags of contacts, compiled once with every column and with a listing's.
const ofContacts = <C extends `t.${(typeof tagColumns)[number]}`>(columns: readonly C[]) =>
  prepared((db, p: { workspaceId: number; contactIds: readonly number[] }) =>
    db
      .selectFrom('contact_tags as ct')
      .innerJoin('tags as t', 't.id', 'ct.tag_id')
      .select([...columns, 'ct.contact_id'])
      .where(sameWorkspace('ct.workspace_id', p.workspaceId))
      .where(sameWorkspace('t.workspace_id', p.workspaceId))
      .where(inIds(db, 'ct.contact_id', p.contactIds))
      .where('t.deleted_at', 'is', null)
      .orderBy(isPostgres(db) ? sql`lower(t.name) collate "C"` : sql`lower(t.name)`)
      .orderBy('t.id'),
  );
const tagsOfContacts = ofContacts(tagColumns.map((column) => `t.${column}` as const));
const tagListingsOfContacts = ofContacts(['t.id', 't.name'] as const);

/** Tags by id in one statement (deleted ones too: a record's id still names it); only this workspace's. */
export async function tagsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<TagRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('tags').select(tagColumns).where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map(toTag);
}

/** A live tag by id (primary key), null when absent, deleted or another workspace's. */
export async function findLiveTagById(db: Executor, workspaceId: number, id: number): Promise<TagRecord | null> {
  const row = await db
    .selectFrom('tags')
    .select(tagColumns)
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toTag(row) : null;
}

/** The live tag with this name, case-insensitively (served by the unique index), or null. */
export async function findLiveTagByName(db: Executor, workspaceId: number, name: string): Promise<TagRecord | null> {
  const row = await db
    .selectFrom('tags')
    .select(tagColumns)
    .where('workspace_id', '=', workspaceId)
    .where(sameName(name))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toTag(row) : null;
}

/** Which of these ids are live tags of the workspace (one statement). */
export async function liveTagIdsAmong(db: Executor, workspaceId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('tags')
    .select('id')
    .where('id', 'in', [...ids])
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/** The live tags of the workspace among these ids, with their names (one statement). */
export async function liveTagsAmong(db: Executor, workspaceId: number, ids: readonly number[]): Promise<{ id: number; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('tags')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Which of these ids are contacts of the workspace (one statement, by the primary key; the
 * workspace check a plain filter as in `sameWorkspace`). For the bulk calls of tags and sequences.
 */
export async function contactIdsAmong(db: Executor, workspaceId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('contacts').select('id').where('id', 'in', [...ids]).where(sameWorkspace('workspace_id', workspaceId)).execute();
  return rows.map((r) => r.id);
}

/** Inserts a live tag; a live tag of the same name (any case) raises DuplicateTagNameError. */
export async function insertTag(db: Executor, workspaceId: number, name: string): Promise<TagRecord> {
  const now = nowIso();
  const row = await db
    .insertInto('tags')
    .values({ workspace_id: workspaceId, name, folder_id: null, deleted_at: null, created_at: now, updated_at: now })
    .returning(tagColumns)
    .executeTakeFirstOrThrow()
    .catch(rethrowDuplicate);
  return toTag(row);
}

/** Renames a live tag; null when there is none with this id. Raises DuplicateTagNameError as insertTag. */
export async function renameTag(db: Executor, workspaceId: number, id: number, name: string): Promise<TagRecord | null> {
  const row = await db
    .updateTable('tags')
    .set({ name, updated_at: nowIso() })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .returning(tagColumns)
    .executeTakeFirst()
    .catch(rethrowDuplicate);
  return row ? toTag(row) : null;
}

/** Marks a live tag deleted (its name is free again); false when there is none with this id. */
export async function softDeleteTag(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .updateTable('tags')
    .set({ deleted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Takes a tag off every contact that has it (served by contact_tags_tag_idx). */
export async function untagAllContacts(db: Executor, workspaceId: number, tagId: number): Promise<void> {
  await db.deleteFrom('contact_tags').where('tag_id', '=', tagId).where(sameWorkspace('workspace_id', workspaceId)).execute();
}

/**
 * Creates a live tag for each name no live tag has yet (any case); names already taken are left
 * alone, also when a concurrent request took them a moment ago (ON CONFLICT DO NOTHING on the
 * unique index). Of two names equal but for case in one call, the first is created.
 */
export async function insertMissingTags(db: Executor, workspaceId: number, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const now = nowIso();
  await db
    .insertInto('tags')
    .values(names.map((name) => ({ workspace_id: workspaceId, name, folder_id: null, deleted_at: null, created_at: now, updated_at: now })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Ids of the live tags with any of these names, case-insensitively (one statement, by the unique index). */
export async function liveTagIdsByNames(db: Executor, workspaceId: number, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('tags')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .where(sql`lower(name)`, 'in', names.map((name) => sql<string>`lower(${name})`))
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** A tag a contact gained or lost: its id and name (what tagApplied and tagRemoved report). */
export interface ChangedTag {
  id: number;
  name: string;
}

/** The changed rows' tags, with their names (a primary-key lookup per row changed, in the same statement), by tag id. */
const changedTags = (rows: { tag_id: number; name: string | null }[]): ChangedTag[] =>
  rows.map((r) => ({ id: r.tag_id, name: r.name ?? '' })).sort((a, b) => a.id - b.id);

/** Gives a contact these tags; those it has stay as they are (one statement). Answers the tags it did not have. */
export async function addContactTags(db: Executor, workspaceId: number, contactId: number, tagIds: readonly number[]): Promise<ChangedTag[]> {
  if (tagIds.length === 0) return [];
  const now = nowIso();
  const rows = await db
    .insertInto('contact_tags')
    .values(tagIds.map((tagId) => ({ workspace_id: workspaceId, contact_id: contactId, tag_id: tagId, created_at: now })))
    .onConflict((oc) => oc.columns(['contact_id', 'tag_id']).doNothing())
    .returning((eb) => ['tag_id', eb.selectFrom('tags as t').select('t.name').whereRef('t.id', '=', 'contact_tags.tag_id').as('name')])
    .execute();
  return changedTags(rows);
}

/** Takes these tags off a contact (the primary key (contact_id, tag_id) serves it). Answers the tags it had. */
export async function removeContactTags(db: Executor, workspaceId: number, contactId: number, tagIds: readonly number[]): Promise<ChangedTag[]> {
  if (tagIds.length === 0) return [];
  const rows = await db
    .deleteFrom('contact_tags')
    .where('contact_id', '=', contactId)
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('tag_id', 'in', [...tagIds])
    .returning((eb) => ['tag_id', eb.selectFrom('tags as t').select('t.name').whereRef('t.id', '=', 'contact_tags.tag_id').as('name')])
    .execute();
  return changedTags(rows);
}

/** Takes every tag but these off a contact. Answers the tags it took off. */
export async function removeContactTagsExcept(db: Executor, workspaceId: number, contactId: number, keep: readonly number[]): Promise<ChangedTag[]> {
  let q = db.deleteFrom('contact_tags').where('contact_id', '=', contactId).where(sameWorkspace('workspace_id', workspaceId));
  if (keep.length > 0) q = q.where('tag_id', 'not in', [...keep]);
  const rows = await q.returning((eb) => ['tag_id', eb.selectFrom('tags as t').select('t.name').whereRef('t.id', '=', 'contact_tags.tag_id').as('name')]).execute();
  return changedTags(rows);
}

/**
 * Gives every one of the contacts every one of the tags in one INSERT ... SELECT (rows they have
 * stay as they are); both lists must already be known to be the workspace's. Answers the
 * (contact, tag) pairs it added, by contact then tag.
 */
export async function tagContacts(db: Executor, workspaceId: number, contactIds: readonly number[], tagIds: readonly number[]): Promise<{ contactId: number; tagId: number }[]> {
  if (contactIds.length === 0 || tagIds.length === 0) return [];
  const now = nowIso();
  const inserted = await db
    .insertInto('contact_tags')
    .columns(['workspace_id', 'contact_id', 'tag_id', 'created_at'])
    .expression(
      db
        .selectFrom('contacts as c')
        .innerJoin('tags as t', (join) => join.on('t.id', 'in', [...tagIds]))
        .select(['c.workspace_id', 'c.id as contact_id', 't.id as tag_id', timestamp(db, now).as('created_at')])
        .where('c.id', 'in', [...contactIds])
        .where(sameWorkspace('c.workspace_id', workspaceId))
        .where('t.workspace_id', '=', workspaceId)
        .where('t.deleted_at', 'is', null),
    )
    .onConflict((oc) => oc.columns(['contact_id', 'tag_id']).doNothing())
    .returning(['contact_id', 'tag_id'])
    .execute();
  return inserted.map((r) => ({ contactId: r.contact_id, tagId: r.tag_id })).sort((a, b) => a.contactId - b.contactId || a.tagId - b.tagId);
}
