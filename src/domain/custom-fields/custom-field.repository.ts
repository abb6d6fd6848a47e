import { sql, type Selectable } from 'kysely';
import { contactColumns } from '../../db/columns.js';
import { countRows } from '../../db/count.js';
import { uniqueViolation } from '../../db/errors.js';
import { isPostgres, type Executor } from '../../db/database.js';
import { inIds, prepared } from '../../db/prepared.js';
import type { CustomFieldsTable } from '../../db/types.js';
import { idString } from '../../db/values.js';
import { toContactScalars } from '../contacts/contact.repository.js';
import type { ContactScalars } from '../contacts/contact.schema.js';
import { sameWorkspace } from '../shared/scope.js';

export interface ContactCustomFieldRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  value: string;
  contactId: string;
  customFieldId: string;
}

export interface CustomFieldValueRecord {
  id: string;
  name: string;
  description: string;
  value: string;
  type: string;
  contactId: string;
}

/** Stored values of many contacts at once (contact objects and DataLoaders), ordered by field. */
export async function valuesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<ContactCustomFieldRecord[]> {
  if (contactIds.length === 0) return [];
  const rows = await storedValuesOf.all(db, { workspaceId, contactIds });
  return rows.map((r) => ({
    id: idString(r.id),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    value: r.value,
    contactId: idString(r.contact_id),
    customFieldId: idString(r.custom_field_id),
  }));
}

const storedValuesOf = prepared((db, p: { workspaceId: number; contactIds: readonly number[] }) =>
  db
    .selectFrom('contact_custom_fields as v')
    .innerJoin('custom_fields as f', 'f.id', 'v.custom_field_id')
    .select(['v.id', 'v.created_at', 'v.updated_at', 'v.value', 'v.contact_id', 'v.custom_field_id'])
    .where(sameWorkspace('v.workspace_id', p.workspaceId))
    .where(sameWorkspace('f.workspace_id', p.workspaceId))
    .where(inIds(db, 'v.contact_id', p.contactIds))
    .orderBy('v.custom_field_id'),
);

/**
 * Every custom field defined in the workspace, each with the contact's value ('' when unset), for
 * many contacts in one statement, by contact then field. The statement reads the three sets apart
 * (which of the contacts are the workspace's, its definitions, their stored values) and the product
 * is built here: joining contacts to definitions to values in SQL probed the values' index once per
 * (contact, field) pair and sorted the product, several times slower than reading the three sets
 * (bench/README.md).
 */
export async function fieldValuesForContacts(db: Executor, workspaceId: number, contactIds: readonly number[]): Promise<CustomFieldValueRecord[]> {
  if (contactIds.length === 0) return [];
  const rows = await definitionsAndValues.all(db, { workspaceId, contactIds });
  const contacts: number[] = [];
  const fields: FieldSetRow[] = [];
  const values = new Map<string, string>();
  for (const r of rows) {
    if (r.kind === 0) contacts.push(Number(r.contact_id));
    else if (r.kind === 1) fields.push(r);
    else values.set(`${r.contact_id}:${r.field_id}`, r.value ?? '');
  }
  contacts.sort((a, b) => a - b);
  fields.sort((a, b) => Number(a.field_id) - Number(b.field_id));
  return contacts.flatMap((contactId) =>
    fields.map((f) => ({
      id: idString(f.field_id!),
      name: f.name!,
      description: f.description!,
      value: values.get(`${contactId}:${f.field_id}`) ?? '',
      type: f.type!,
      contactId: idString(contactId),
    })),
  );
}

/** One row of definitionsAndValues: kind 0 names a contact, 1 a definition, 2 a stored value. */
interface FieldSetRow {
  kind: number;
  contact_id: number | null;
  field_id: number | null;
  name: string | null;
  description: string | null;
  type: string | null;
  value: string | null;
}

const definitionsAndValues = prepared((db, p: { workspaceId: number; contactIds: readonly number[] }) => ({
  compile: () =>
    sql<FieldSetRow>`select 0 as kind, c.id as contact_id, null as field_id, null as name, null as description, null as type, null as value
      from contacts as c where ${sameWorkspace('c.workspace_id', p.workspaceId)} and ${inIds(db, 'c.id', p.contactIds)}
      union all
      select 1, null, f.id, f.name, f.description, f.type, null from custom_fields as f where f.workspace_id = ${p.workspaceId}
      union all
      select 2, v.contact_id, v.custom_field_id, null, null, null, v.value
      from contact_custom_fields as v where ${sameWorkspace('v.workspace_id', p.workspaceId)} and ${inIds(db, 'v.contact_id', p.contactIds)}`.compile(db),
}));

// ---------------------------------------------------------------------------------------------
// Definitions

/** A custom field's definition. */
export interface CustomFieldRecord {
  id: string;
  name: string;
  description: string;
  type: string;
  /** The choices of a select field; null for every other type. */
  options: string[] | null;
  createdAt: string;
  updatedAt: string;
}

const fieldColumns = ['id', 'name', 'description', 'type', 'options', 'created_at', 'updated_at'] as const;

const toCustomField = (r: Pick<Selectable<CustomFieldsTable>, (typeof fieldColumns)[number]>): CustomFieldRecord => ({
  id: idString(r.id),
  name: r.name,
  description: r.description,
  type: r.type,
  options: r.options === null ? null : (JSON.parse(r.options) as string[]),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Custom field definitions by id in one statement; only this workspace's. */
export async function customFieldsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<CustomFieldRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('custom_fields').select(fieldColumns).where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map(toCustomField);
}

/**
 * Definitions by name, case-insensitively, in one statement. `lower(name)` on both sides is the
 * expression of the unique index custom_fields_workspace_lower_name_uq, which serves the lookup
 * (and decides what "the same name" means: on SQLite lower() folds ASCII letters only).
 */
export async function customFieldsByNames(db: Executor, workspaceId: number, names: readonly string[]): Promise<CustomFieldRecord[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('custom_fields')
    .select(fieldColumns)
    .where('workspace_id', '=', workspaceId)
    .where(
      sql`lower(name)`,
      'in',
      names.map((n) => sql<string>`lower(${n})`),
    )
    .execute();
  return rows.map(toCustomField);
}

/** The field with this name (any case) other than `exceptId`, if any. */
export async function findCustomFieldByName(db: Executor, workspaceId: number, name: string, exceptId?: number): Promise<CustomFieldRecord | null> {
  let q = db.selectFrom('custom_fields').select(fieldColumns).where('workspace_id', '=', workspaceId).where(sql`lower(name)`, '=', sql<string>`lower(${name})`);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  const row = await q.executeTakeFirst();
  return row ? toCustomField(row) : null;
}

const filteredFields = (db: Executor, workspaceId: number, type: string | undefined) => {
  const q = db.selectFrom('custom_fields').where('workspace_id', '=', workspaceId);
  return type === undefined ? q : q.where('type', '=', type);
};

export const countCustomFields = (db: Executor, workspaceId: number, type?: string): Promise<number> => countRows(filteredFields(db, workspaceId, type));

/**
 * By name case-insensitively, ties by id: the order of custom_fields_workspace_lower_name_uq.
 * PostgreSQL compares with the "C" collation so the order is code-point order on both engines,
 * as for tags.
 */
export async function listCustomFields(db: Executor, workspaceId: number, opts: { type?: string; limit: number; offset: number }): Promise<CustomFieldRecord[]> {
  const rows = await filteredFields(db, workspaceId, opts.type)
    .select(fieldColumns)
    .orderBy(isPostgres(db) ? sql`lower(name) collate "C"` : sql`lower(name)`)
    .orderBy('id')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return rows.map(toCustomField);
}

/** The unique name index refused a write: another field of the workspace has the name. */
export class DuplicateCustomFieldNameError extends Error {
  constructor() {
    super('duplicate custom field name');
  }
}

const NAME_INDEX = 'custom_fields_workspace_lower_name_uq';

function rethrowDuplicateName(err: unknown): never {
  if (uniqueViolation(err)?.includes(NAME_INDEX)) throw new DuplicateCustomFieldNameError();
  throw err;
}

export async function insertCustomField(
  db: Executor,
  workspaceId: number,
  f: { name: string; description: string; type: string; options: string[] | null; now: string },
): Promise<CustomFieldRecord> {
  const row = await db
    .insertInto('custom_fields')
    .values({
      workspace_id: workspaceId,
      name: f.name,
      description: f.description,
      type: f.type,
      options: f.options === null ? null : JSON.stringify(f.options),
      created_at: f.now,
      updated_at: f.now,
    })
    .returning(fieldColumns)
    .executeTakeFirstOrThrow()
    .catch(rethrowDuplicateName);
  return toCustomField(row);
}

export async function updateCustomFieldRow(
  db: Executor,
  workspaceId: number,
  id: number,
  f: { name: string; description: string; type: string; options: string[] | null; now: string },
): Promise<CustomFieldRecord> {
  const row = await db
    .updateTable('custom_fields')
    .set({ name: f.name, description: f.description, type: f.type, options: f.options === null ? null : JSON.stringify(f.options), updated_at: f.now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .returning(fieldColumns)
    .executeTakeFirstOrThrow()
    .catch(rethrowDuplicateName);
  return toCustomField(row);
}

/** Deletes the field and its values; false when the workspace has no such field. */
export async function deleteCustomFieldRow(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  await db.deleteFrom('contact_custom_fields').where('workspace_id', '=', workspaceId).where('custom_field_id', '=', id).execute();
  const result = await db.deleteFrom('custom_fields').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Removes a deleted field from the workspace's dynamic images: `customFieldId` of the image (the
 * column; its foreign key would null it too) and of each layout element that names it become "".
 * The images stay. Candidates are the workspace's images that name the id anywhere in their row;
 * the JSON is then checked exactly. Returns how many images changed.
 */
export async function detachFieldFromDynamicImages(db: Executor, workspaceId: number, fieldId: number, now: string): Promise<number> {
  const id = String(fieldId);
  const candidates = await db
    .selectFrom('dynamic_images')
    .select(['id', 'custom_field_id', 'data'])
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('custom_field_id', '=', fieldId), eb('data', 'like', `%${id}%`)]))
    .execute();
  let changed = 0;
  for (const image of candidates) {
    let data: { elements?: { customFieldId?: unknown }[] } | null = null;
    try {
      data = JSON.parse(image.data);
    } catch {
      data = null;
    }
    let elementsChanged = false;
    for (const element of Array.isArray(data?.elements) ? data.elements : []) {
      if (element && element.customFieldId === id) {
        element.customFieldId = '';
        elementsChanged = true;
      }
    }
    if (!elementsChanged && image.custom_field_id !== fieldId) continue;
    await db
      .updateTable('dynamic_images')
      .set({ custom_field_id: image.custom_field_id === fieldId ? null : image.custom_field_id, ...(elementsChanged ? { data: JSON.stringify(data) } : {}), updated_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', image.id)
      .execute();
    changed++;
  }
  return changed;
}

/** How many contacts have a value for each field, in one statement (DataLoader batch). */
export async function valuesCountsByFields(db: Executor, workspaceId: number, fieldIds: readonly number[]): Promise<{ id: string; count: number }[]> {
  if (fieldIds.length === 0) return [];
  const rows = await db
    .selectFrom('contact_custom_fields')
    .select(['custom_field_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('workspace_id', '=', workspaceId)
    .where('custom_field_id', 'in', [...fieldIds])
    .groupBy('custom_field_id')
    .execute();
  return rows.map((r) => ({ id: idString(r.custom_field_id), count: Number(r.n) }));
}

// ---------------------------------------------------------------------------------------------
// Values

export interface StoredValue {
  id: number;
  contactId: number;
  value: string;
}

/** Every stored value of one field, by contact id (type changes convert them). */
export async function valuesOfField(db: Executor, workspaceId: number, fieldId: number): Promise<StoredValue[]> {
  const rows = await db
    .selectFrom('contact_custom_fields')
    .select(['id', 'contact_id', 'value'])
    .where('workspace_id', '=', workspaceId)
    .where('custom_field_id', '=', fieldId)
    .orderBy('contact_id')
    .execute();
  return rows.map((r) => ({ id: r.id, contactId: r.contact_id, value: r.value }));
}

/** Rewrites stored values: one statement per distinct new value, at most 500 rows each. */
export async function rewriteValues(db: Executor, workspaceId: number, changes: { id: number; value: string }[], now: string): Promise<void> {
  const byValue = new Map<string, number[]>();
  for (const c of changes) byValue.set(c.value, [...(byValue.get(c.value) ?? []), c.id]);
  for (const [value, ids] of byValue) {
    for (let i = 0; i < ids.length; i += 500) {
      await db
        .updateTable('contact_custom_fields')
        .set({ value, updated_at: now })
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
    }
  }
}

/** The contact's stored values of these fields (field id -> value). */
export async function contactValues(db: Executor, workspaceId: number, contactId: number, fieldIds: readonly number[]): Promise<Map<number, string>> {
  if (fieldIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('contact_custom_fields')
    .select(['custom_field_id', 'value'])
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('contact_id', '=', contactId)
    .where('custom_field_id', 'in', [...fieldIds])
    .execute();
  return new Map(rows.map((r) => [r.custom_field_id, r.value]));
}

/** Every stored value of the contact with its field's name (as defined: any case). */
export async function contactValuesByFieldName(db: Executor, workspaceId: number, contactId: number): Promise<{ name: string; value: string }[]> {
  return db
    .selectFrom('contact_custom_fields as v')
    .innerJoin('custom_fields as f', 'f.id', 'v.custom_field_id')
    .select(['f.name', 'v.value'])
    .where('v.workspace_id', '=', workspaceId)
    .where('v.contact_id', '=', contactId)
    .execute();
}

/** Sets the contact's value of a field (insert, or update of the row the (contact, field) unique index finds). */
export async function upsertValue(db: Executor, workspaceId: number, contactId: number, fieldId: number, value: string, now: string): Promise<void> {
  await db
    .insertInto('contact_custom_fields')
    .values({ workspace_id: workspaceId, contact_id: contactId, custom_field_id: fieldId, value, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['contact_id', 'custom_field_id']).doUpdateSet({ value, updated_at: now }))
    .execute();
}

/** Clears the contact's value of a field; answers the value it had (null: none). */
export async function deleteValue(db: Executor, workspaceId: number, contactId: number, fieldId: number): Promise<string | null> {
  const row = await db
    .deleteFrom('contact_custom_fields')
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('contact_id', '=', contactId)
    .where('custom_field_id', '=', fieldId)
    .returning('value')
    .executeTakeFirst();
  return row?.value ?? null;
}

/**
 * Clears every value of the contact; answers the values it had, each with its field's id and name
 * (a primary-key lookup per value, in the same statement), by field id.
 */
export async function deleteValuesOfContact(db: Executor, workspaceId: number, contactId: number): Promise<{ fieldId: number; name: string; value: string }[]> {
  const rows = await db
    .deleteFrom('contact_custom_fields')
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('contact_id', '=', contactId)
    .returning((eb) => ['custom_field_id', 'value', eb.selectFrom('custom_fields as f').select('f.name').whereRef('f.id', '=', 'contact_custom_fields.custom_field_id').as('name')])
    .execute();
  return rows.map((r) => ({ fieldId: r.custom_field_id, name: r.name ?? '', value: r.value })).sort((a, b) => a.fieldId - b.fieldId);
}

/**
 * Contacts whose value of a field is exactly `value` (canonical text): the equality on
 * (workspace_id, custom_field_id, value) is served by contact_custom_fields_field_value_idx on both
 * engines, so the count and the page read only the matching rows. By contact id.
 */
const withValue = (db: Executor, workspaceId: number, fieldId: number, value: string) =>
  db.selectFrom('contact_custom_fields as v').where('v.workspace_id', '=', workspaceId).where('v.custom_field_id', '=', fieldId).where('v.value', '=', value);

export const countContactsWithValue = (db: Executor, workspaceId: number, fieldId: number, value: string): Promise<number> =>
  countRows(withValue(db, workspaceId, fieldId, value));

export async function contactsWithValue(
  db: Executor,
  workspaceId: number,
  fieldId: number,
  value: string,
  window: { limit: number; offset: number },
): Promise<ContactScalars[]> {
  const rows = await withValue(db, workspaceId, fieldId, value)
    .innerJoin('contacts as c', 'c.id', 'v.contact_id')
    .select(contactColumns.map((c) => `c.${c}` as const))
    .where(sameWorkspace('c.workspace_id', workspaceId))
    .orderBy('v.contact_id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map((r) => toContactScalars(r as never));
}

/** The values of these fields of these contacts, as `contactId:fieldId` -> value (an import batch's before). */
export async function valuesOfContactsFields(db: Executor, workspaceId: number, contactIds: readonly number[], fieldIds: readonly number[]): Promise<Map<string, string>> {
  if (contactIds.length === 0 || fieldIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('contact_custom_fields')
    .select(['contact_id', 'custom_field_id', 'value'])
    .where(sameWorkspace('workspace_id', workspaceId))
    .where('contact_id', 'in', [...contactIds])
    .where('custom_field_id', 'in', [...fieldIds])
    .execute();
  return new Map(rows.map((r) => [`${r.contact_id}:${r.custom_field_id}`, r.value]));
}

/** Sets many values at once (insert, or update of the row the (contact, field) unique index finds). */
export async function upsertValues(db: Executor, workspaceId: number, values: readonly { contactId: number; fieldId: number; value: string }[], now: string): Promise<void> {
  for (let i = 0; i < values.length; i += 1000) {
    await db
      .insertInto('contact_custom_fields')
      .values(values.slice(i, i + 1000).map((v) => ({ workspace_id: workspaceId, contact_id: v.contactId, custom_field_id: v.fieldId, value: v.value, created_at: now, updated_at: now })))
      .onConflict((oc) => oc.columns(['contact_id', 'custom_field_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: now })))
      .execute();
  }
}
