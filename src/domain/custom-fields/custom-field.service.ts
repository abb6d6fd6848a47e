import type { Executor } from '../../db/database.js';
import { idNumber, nowIso } from '../../db/values.js';
import { AppError, notFound } from '../../errors/catalogue.js';
import { invalidRequestData } from '../../errors/validation.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { convertValue } from './custom-field-value.js';
import {
  countCustomFields,
  customFieldsByIds,
  deleteCustomFieldRow,
  detachFieldFromDynamicImages,
  DuplicateCustomFieldNameError,
  findCustomFieldByName,
  insertCustomField,
  listCustomFields,
  rewriteValues,
  updateCustomFieldRow,
  valuesOfField,
  type CustomFieldRecord,
} from './custom-field.repository.js';
import type { CreateCustomFieldInput, CustomField, UpdateCustomFieldInput } from './custom-field.schema.js';

/** At most this many values are named when a type change does not fit them. */
export const MAX_NAMED_VALUES = 20;

/** Where an input's issues are reported: ['body'] on REST, the argument's path on GraphQL. */
export type IssuePath = (string | number)[];

export const presentCustomField = (row: CustomFieldRecord): CustomField => row as CustomField;

/** 422 validation: another field of the workspace has this name (any case). */
const duplicateName = () => new AppError('validation', { data: { field: 'name', reason: 'alreadyExists' } });

export const listCustomFieldsPage = (db: Executor, workspaceId: number, q: PageRequest & { type?: string }): Promise<Page<CustomField>> =>
  fetchPage(
    q,
    () => countCustomFields(db, workspaceId, q.type),
    async (w) => (await listCustomFields(db, workspaceId, { type: q.type, ...w })).map(presentCustomField),
  );

/** A field by digit id, or by name (case-insensitive, trimmed) for anything else; null when none. */
export async function findCustomField(db: Executor, workspaceId: number, idOrName: string): Promise<CustomFieldRecord | null> {
  if (/^\d+$/.test(idOrName)) {
    const id = idNumber(idOrName);
    return id === null ? null : ((await customFieldsByIds(db, workspaceId, [id]))[0] ?? null);
  }
  const name = idOrName.trim();
  return name ? findCustomFieldByName(db, workspaceId, name) : null;
}

/** As findCustomField, or 404 notFound (`resource: CustomField`). */
export async function resolveCustomField(db: Executor, workspaceId: number, idOrName: string): Promise<CustomFieldRecord> {
  const field = await findCustomField(db, workspaceId, idOrName);
  if (!field) throw notFound('Custom field');
  return field;
}

export const getCustomField = async (db: Executor, workspaceId: number, idOrName: string): Promise<CustomField> =>
  presentCustomField(await resolveCustomField(db, workspaceId, idOrName));

/** The field by digit id only (PUT and DELETE take ids), or 404. */
async function fieldById(db: Executor, workspaceId: number, id: string): Promise<CustomFieldRecord> {
  const n = idNumber(id);
  const field = n === null ? undefined : (await customFieldsByIds(db, workspaceId, [n]))[0];
  if (!field) throw notFound('Custom field');
  return field;
}

/**
 * Creates a field. Names are unique per workspace, case-insensitively: the pre-check names the
 * field in a 422 validation, and the unique index custom_fields_workspace_lower_name_uq closes the
 * race between two creates (the loser gets the same 422).
 */
export async function createCustomField(db: Executor, workspaceId: number, input: CreateCustomFieldInput): Promise<CustomField> {
  if (await findCustomFieldByName(db, workspaceId, input.name)) throw duplicateName();
  try {
    const row = await insertCustomField(db, workspaceId, {
      name: input.name,
      description: input.description ?? '',
      type: input.type,
      options: input.type === 'select' ? (input.options ?? null) : null,
      now: nowIso(),
    });
    return presentCustomField(row);
  } catch (err) {
    if (err instanceof DuplicateCustomFieldNameError) throw duplicateName();
    throw err;
  }
}

const sameOptions = (a: readonly string[] | null, b: readonly string[] | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Changes any of name, description, type and options, in one transaction. When the type or the
 * options change, every stored value is converted to the new type's canonical form
 * (`convertValue`); if any does not fit, nothing changes and the answer is 422 validation with
 * `data: {field: 'type' | 'options', reason: 'valuesDoNotFit', count, values: [{contactId, value,
 * message}]}` naming the first 20 by contact id. Converting the stored values records no
 * customFieldValueChanged: the value is the same, written in the new type's form.
 */
export async function updateCustomField(db: Executor, workspaceId: number, id: string, input: UpdateCustomFieldInput, at: IssuePath): Promise<CustomField> {
  return db.transaction().execute(async (trx) => {
    const field = await fieldById(trx, workspaceId, id);
    const name = input.name ?? field.name;
    if (input.name !== undefined && (await findCustomFieldByName(trx, workspaceId, name, Number(field.id)))) throw duplicateName();
    const type = input.type ?? field.type;
    let options: string[] | null;
    if (type !== 'select') {
      if (input.options !== undefined) throw invalidRequestData([{ message: 'options are only for select fields', path: [...at, 'options'] }]);
      options = null;
    } else {
      options = input.options ?? (field.type === 'select' ? field.options : null);
      if (options === null) throw invalidRequestData([{ message: 'options are required for a select field', path: [...at, 'options'] }]);
    }

    const now = nowIso();
    if (type !== field.type || !sameOptions(options, field.options)) {
      const failures: { contactId: string; value: string; message: string }[] = [];
      const changes: { id: number; value: string }[] = [];
      for (const stored of await valuesOfField(trx, workspaceId, Number(field.id))) {
        const converted = convertValue(field.type, type, options, stored.value);
        if (!converted.ok) failures.push({ contactId: String(stored.contactId), value: stored.value, message: `value ${converted.message}` });
        else if (converted.value !== stored.value) changes.push({ id: stored.id, value: converted.value });
      }
      if (failures.length > 0) {
        throw new AppError('validation', {
          data: { field: type !== field.type ? 'type' : 'options', reason: 'valuesDoNotFit', count: failures.length, values: failures.slice(0, MAX_NAMED_VALUES) },
        });
      }
      await rewriteValues(trx, workspaceId, changes, now);
    }

    try {
      return presentCustomField(
        await updateCustomFieldRow(trx, workspaceId, Number(field.id), { name, description: input.description ?? field.description, type, options, now }),
      );
    } catch (err) {
      if (err instanceof DuplicateCustomFieldNameError) throw duplicateName();
      throw err;
    }
  });
}

/**
 * Deletes the field and every contact's value of it, in one transaction. Dynamic images that use
 * the field keep existing, without it: their `customFieldId` and their layout elements'
 * `customFieldId` that named it become "" (a deleted field cannot be rendered; the image stays
 * editable rather than disappearing or blocking the delete). The values going with the field record
 * no customFieldValueChanged: the field is gone, no contact's value was changed.
 */
export async function deleteCustomField(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  return db.transaction().execute(async (trx) => {
    const field = await fieldById(trx, workspaceId, id);
    await detachFieldFromDynamicImages(trx, workspaceId, Number(field.id), nowIso());
    await deleteCustomFieldRow(trx, workspaceId, Number(field.id));
    return { success: true as const };
  });
}
