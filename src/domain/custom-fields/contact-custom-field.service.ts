import { inTransaction, type Executor } from '../../db/database.js';
import { idNumber, nowIso } from '../../db/values.js';
import { AppError } from '../../errors/catalogue.js';
import { invalidRequestData, type Issue } from '../../errors/validation.js';
import { lockContactRow } from '../contacts/contact.repository.js';
import { resolveContact } from '../contacts/contact.service.js';
import type { ContactScalars } from '../contacts/contact.schema.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { addNumbers, canonicalValue } from './custom-field-value.js';
import {
  contactsWithValue,
  contactValues,
  countContactsWithValue,
  customFieldsByIds,
  customFieldsByNames,
  deleteValue,
  deleteValuesOfContact,
  fieldValuesForContacts,
  upsertValue,
  type CustomFieldRecord,
} from './custom-field.repository.js';
import type { CustomFieldOperation, CustomFieldValue, CustomValueInput, SetCustomFieldsInput } from './custom-field.schema.js';
import { resolveCustomField, type IssuePath } from './custom-field.service.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import type { NewEvent } from '../workspace-events/workspace-event.schema.js';

/**
 * customFieldValueChanged: the contact's value of the field (by its name) went from `oldValue` to
 * `newValue`, each the stored text or null when unset. Record it only when they differ.
 */
export const customFieldValueEvent = (contactId: number, name: string, oldValue: string | null, newValue: string | null): NewEvent => ({
  type: 'customFieldValueChanged',
  contactId,
  data: { custom_field: { name, old_value: oldValue, new_value: newValue } },
});

/**
 * A contact's custom-field values. Every value is checked against its field's type and stored in
 * the type's canonical form (custom-field-value.ts); `null` or `""` clears a value. Writes answer
 * the contact's value in the shape of the list item (`{id, name, description, value, type}`, value
 * "" when unset), the operations batch the whole list, clears `{success: true}`.
 */

const itemOf = (field: CustomFieldRecord, value: string | null): CustomFieldValue => ({
  id: field.id,
  name: field.name,
  description: field.description,
  value: value ?? '',
  type: field.type,
});

/** Every field of the workspace with the contact's value ("" when unset), by field id. */
export async function listContactCustomFields(db: Executor, workspaceId: number, identifier: string): Promise<CustomFieldValue[]> {
  const contact = await resolveContact(db, workspaceId, identifier);
  return listOf(db, workspaceId, Number(contact.id));
}

const listOf = async (db: Executor, workspaceId: number, contactId: number) =>
  (await fieldValuesForContacts(db, workspaceId, [contactId])).map(({ contactId: _omit, ...row }) => row);

export async function getContactCustomField(db: Executor, workspaceId: number, identifier: string, idOrName: string): Promise<CustomFieldValue> {
  const contact = await resolveContact(db, workspaceId, identifier);
  const field = await resolveCustomField(db, workspaceId, idOrName);
  const values = await contactValues(db, workspaceId, Number(contact.id), [Number(field.id)]);
  return itemOf(field, values.get(Number(field.id)) ?? null);
}

/** The canonical text to store, null to clear, or the issue at `at`. */
function checked(field: CustomFieldRecord, value: CustomValueInput, at: IssuePath): { value: string | null } | { issue: Issue } {
  if (value === null || value === '') return { value: null };
  const canonical = canonicalValue(field.type, field.options, value);
  return canonical.ok ? { value: canonical.value } : { issue: { message: `value ${canonical.message}`, path: at } };
}

/**
 * Sets (or, with null or "", clears) the contact's value of one field, in one transaction (the
 * contact's row locked on PostgreSQL, as the batch does). A value that is not of the field's type
 * is 422 invalidRequestData at `at` (["body", "value"] on REST). A value that differs from the
 * stored one records customFieldValueChanged.
 */
export async function setContactCustomField(
  db: Executor,
  workspaceId: number,
  identifier: string,
  idOrName: string,
  value: CustomValueInput,
  at: IssuePath,
): Promise<CustomFieldValue> {
  // Joins the caller's transaction when given one (a flow's action inside a sequence run).
  return inTransaction(db, async (trx) => {
    const contactId = Number((await resolveContact(trx, workspaceId, identifier, { lock: true })).id);
    const field = await resolveCustomField(trx, workspaceId, idOrName);
    const result = checked(field, value, at);
    if ('issue' in result) throw invalidRequestData([result.issue]);
    const fieldId = Number(field.id);
    let previous: string | null;
    if (result.value === null) previous = await deleteValue(trx, workspaceId, contactId, fieldId);
    else {
      previous = (await contactValues(trx, workspaceId, contactId, [fieldId])).get(fieldId) ?? null;
      await upsertValue(trx, workspaceId, contactId, fieldId, result.value, nowIso());
    }
    if (previous !== result.value) await recordEvents(trx, workspaceId, [customFieldValueEvent(contactId, field.name, previous, result.value)]);
    return itemOf(field, result.value);
  });
}

/** Clears the contact's value of one field (in one transaction); a value there was records customFieldValueChanged. */
export async function clearContactCustomField(db: Executor, workspaceId: number, identifier: string, idOrName: string): Promise<{ success: true }> {
  return db.transaction().execute(async (trx) => {
    const contactId = Number((await resolveContact(trx, workspaceId, identifier, { lock: true })).id);
    const field = await resolveCustomField(trx, workspaceId, idOrName);
    const previous = await deleteValue(trx, workspaceId, contactId, Number(field.id));
    if (previous !== null) await recordEvents(trx, workspaceId, [customFieldValueEvent(contactId, field.name, previous, null)]);
    return { success: true as const };
  });
}

/** Clears every value of the contact (in one transaction): one customFieldValueChanged per value cleared. */
export async function clearContactCustomFields(db: Executor, workspaceId: number, identifier: string): Promise<{ success: true }> {
  return db.transaction().execute(async (trx) => {
    const contactId = Number((await resolveContact(trx, workspaceId, identifier, { lock: true })).id);
    const cleared = await deleteValuesOfContact(trx, workspaceId, contactId);
    // A workspace's fields are not capped: so many values that one insert cannot bind them take several.
    await recordEvents(trx, workspaceId, cleared.map((v) => customFieldValueEvent(contactId, v.name, v.value, null)));
    return { success: true as const };
  });
}

/**
 * Applies 1-20 operations in order, all or nothing, in one transaction: `set` (null or "" clears),
 * `clear`, `increment` (number fields only; an unset value counts as 0; exact decimal sums). Fields
 * are named by id or by name. Unknown ones are 404 notFound with `data: {resource: 'Custom field',
 * ids, names}` naming them; values that do not fit are 422 invalidRequestData at
 * `[...at, i, 'value']` (an increment of a field that is not a number at `[...at, i, 'op']`), every
 * issue of the batch at once. Answers the contact's whole list, as GET .../custom-fields.
 * On PostgreSQL the contact row is locked for the transaction, so concurrent batches on one contact
 * (two increments) apply one after the other instead of losing one. Each field whose final value
 * differs from its value before the call records one customFieldValueChanged.
 */
export async function applyCustomFieldOperations(
  db: Executor,
  workspaceId: number,
  identifier: string,
  operations: CustomFieldOperation[],
  at: IssuePath,
): Promise<CustomFieldValue[]> {
  return db.transaction().execute(async (trx) => {
    const contact = await resolveContact(trx, workspaceId, identifier);
    const contactId = Number(contact.id);
    await lockContactRow(trx, workspaceId, contactId);

    const ids = [...new Set(operations.flatMap((op) => (op.customFieldId === undefined ? [] : [op.customFieldId])))];
    const names = [...new Set(operations.flatMap((op) => (op.name === undefined ? [] : [op.name])))];
    const byId = new Map(
      (await customFieldsByIds(trx, workspaceId, ids.map(idNumber).filter((n): n is number => n !== null))).map((f) => [f.id, f]),
    );
    const named = await customFieldsByNames(trx, workspaceId, names);
    const fieldByName = (name: string) => named.find((f) => asciiLower(f.name) === asciiLower(name)) ?? named.find((f) => f.name.toLowerCase() === name.toLowerCase());
    const missingIds = ids.filter((id) => !byId.has(String(idNumber(id) ?? id)));
    const missingNames = names.filter((n) => !fieldByName(n));
    if (missingIds.length > 0 || missingNames.length > 0) {
      throw new AppError('notFound', { data: { resource: 'Custom field', ids: missingIds, names: missingNames } });
    }
    const fieldOf = (op: CustomFieldOperation) => (op.customFieldId !== undefined ? byId.get(String(idNumber(op.customFieldId)))! : fieldByName(op.name!)!);

    const fieldIds = [...new Set(operations.map((op) => Number(fieldOf(op).id)))];
    const nameOf = new Map(operations.map((op) => [Number(fieldOf(op).id), fieldOf(op).name]));
    const before = await contactValues(trx, workspaceId, contactId, fieldIds);
    const state = new Map<number, string | null>(fieldIds.map((id) => [id, before.get(id) ?? null]));
    const issues: Issue[] = [];
    operations.forEach((op, i) => {
      const field = fieldOf(op);
      const id = Number(field.id);
      if (op.op === 'clear') return void state.set(id, null);
      if (op.op === 'set') {
        const result = checked(field, op.value, [...at, i, 'value']);
        if ('issue' in result) issues.push(result.issue);
        else state.set(id, result.value);
        return;
      }
      if (field.type !== 'number') {
        issues.push({ message: `increment needs a number field; ${JSON.stringify(field.name)} is a ${field.type} field`, path: [...at, i, 'op'] });
        return;
      }
      const by = canonicalValue('number', null, op.value);
      if (!by.ok) return void issues.push({ message: `value ${by.message}`, path: [...at, i, 'value'] });
      const current = state.get(id) ?? '0';
      const sum = addNumbers(current, by.value);
      if (!sum.ok) {
        const stored = canonicalValue('number', null, current);
        const message = stored.ok ? `the sum ${sum.message}` : `cannot increment: the contact's value ${JSON.stringify(current)} is not a number`;
        return void issues.push({ message, path: [...at, i, stored.ok ? 'value' : 'op'] });
      }
      state.set(id, sum.value);
    });
    if (issues.length > 0) throw invalidRequestData(issues);

    const now = nowIso();
    const events: NewEvent[] = [];
    for (const [id, value] of state) {
      const previous = before.get(id) ?? null;
      if (value === previous) continue;
      if (value === null) await deleteValue(trx, workspaceId, contactId, id);
      else await upsertValue(trx, workspaceId, contactId, id, value, now);
      events.push(customFieldValueEvent(contactId, nameOf.get(id)!, previous, value));
    }
    await recordEvents(trx, workspaceId, events);
    return listOf(trx, workspaceId, contactId);
  });
}

/**
 * Sets several values by field id in one transaction, all or nothing: the older form of the
 * operations that automation tools still send (`{fields: [{customFieldId, value}]}`), as `set`
 * operations. Each value is checked as setContactCustomField checks it; issues at
 * `[...at, i, 'value']`. Answers the contact's whole list afterwards.
 */
export function setContactCustomFields(
  db: Executor,
  workspaceId: number,
  identifier: string,
  fields: SetCustomFieldsInput['fields'],
  at: IssuePath,
): Promise<CustomFieldValue[]> {
  return applyCustomFieldOperations(db, workspaceId, identifier, fields.map((f) => ({ op: 'set', customFieldId: f.customFieldId, value: f.value })), at);
}

/**
 * The name lookup's SQL is `lower(name) = lower(?)`: SQLite's lower() folds ASCII letters only,
 * PostgreSQL's every letter. Among the fields the engine matched, ASCII folding decides first.
 */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * Contacts whose value of the field equals `value` in its canonical form for the field's type
 * (value=3.0 finds "3" of a number field; TRUE finds "true"), by contact id: their scalars, for
 * GraphQL (which loads relations itself). An unknown field id (or another workspace's) is 422 at
 * `[...at, 'customFieldId']` (a query parameter, not a path: there is no record to be 404 about);
 * a value that is not of the field's type is 422 at `[...at, 'value']`.
 */
export async function contactsByCustomFieldPage(
  db: Executor,
  workspaceId: number,
  q: PageRequest & { customFieldId: string; value: string },
  at: IssuePath,
): Promise<Page<ContactScalars>> {
  const n = idNumber(q.customFieldId);
  const field = n === null ? undefined : (await customFieldsByIds(db, workspaceId, [n]))[0];
  if (!field) throw invalidRequestData([{ message: 'customFieldId names no custom field of this workspace', path: [...at, 'customFieldId'] }]);
  const canonical = canonicalValue(field.type, field.options, q.value);
  if (!canonical.ok) throw invalidRequestData([{ message: `value ${canonical.message}`, path: [...at, 'value'] }]);
  const fieldId = Number(field.id);
  return fetchPage(
    q,
    () => countContactsWithValue(db, workspaceId, fieldId, canonical.value),
    (w) => contactsWithValue(db, workspaceId, fieldId, canonical.value, w),
  );
}
