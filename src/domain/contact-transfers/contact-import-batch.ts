import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import { contactChangeEvents, newContactEvent } from '../contacts/contact.service.js';
import { contactsMatchingKeys, insertContacts, updateContactFields, type EditableContactColumns } from '../contacts/contact.repository.js';
import type { ContactScalars } from '../contacts/contact.schema.js';
import { customFieldValueEvent } from '../custom-fields/contact-custom-field.service.js';
import { upsertValues, valuesOfContactsFields } from '../custom-fields/custom-field.repository.js';
import { addContactsToInbox } from '../inboxes/inbox.repository.js';
import { tagContacts } from '../tags/tag.repository.js';
import { tagEvent } from '../tags/tag.service.js';
import { recordEvents } from '../workspace-events/workspace-event.service.js';
import type { NewEvent } from '../workspace-events/workspace-event.schema.js';
import { countMonthlyActiveContacts, workspaceMacLimit } from '../workspaces/plan.repository.js';
import type { Candidate, RowError } from './contact-import-rows.js';
import { firstRowsOf, insertFirstRows } from './contact-import.repository.js';

/** What every contact of an import gets besides its row: the inbox it joins, the tag it is given. */
export interface ImportTarget {
  inbox: { id: number; channel: string };
  tag: { id: number; name: string } | null;
}

export interface BatchResult {
  created: number;
  updated: number;
  /** Matches that changed nothing. */
  unchanged: number;
  /** Rows not taken: failed, and repeats (duplicateInFile, skipped). */
  errors: RowError[];
}

type Plan =
  | { kind: 'create'; c: Candidate }
  | { kind: 'update'; c: Candidate; contact: ContactScalars; fields: Partial<EditableContactColumns> };

const editable = ['email', 'phoneNumber', 'firstName', 'lastName'] as const;

/** A row's identifiers, as keys compared across rows (emails in any case), with the field each is. */
const keysOf = (c: { contactId?: number; email?: string | null; phoneNumber?: string | null }) => [
  ...(c.contactId !== undefined ? [[`id:${c.contactId}`, 'contactId'] as const] : []),
  ...(c.email ? [[`email:${c.email.toLowerCase()}`, 'email'] as const] : []),
  ...(c.phoneNumber ? [[`phone:${c.phoneNumber}`, 'phoneNumber'] as const] : []),
];
const words = { contactId: 'contact id', email: 'email', phoneNumber: 'phone number' } as const;

/** A row that does what an earlier row of the file did: skipped, naming that row. */
function repeat(c: Candidate, firstRow: number, field: keyof typeof words): RowError {
  const value = field === 'contactId' ? String(c.contactId) : (c[field] ?? null);
  return { row: c.row, column: null, path: field, code: 'duplicateInFile', reason: `Row ${firstRow} has the same ${words[field]}; this row is skipped`, value, matchedContactId: null, cells: c.cells };
}

/**
 * Writes one batch of an import's rows in the caller's transaction, with the rules of the contact
 * services (POST /v1/contacts, the upsert) applied to the batch at once, in a fixed number of
 * statements per batch: a row is matched by contact id, else email (any case), else phone number;
 * a match gets only the row's non-blank mapped cells (a blank never clears a value); a row that
 * matches nobody is created, while the workspace is under its monthly-active-contact limit (a
 * new contact is active this month). A match whose email or phone number another contact has is
 * refused (identifierConflict), as the update of that contact would be. Every contact joins the
 * import's inbox and gets its tag. Events are those the single operations record: newContact,
 * contactInfoUpdated, customFieldValueChanged, tagApplied. A match that changes nothing is left
 * unchanged.
 *
 * A row that finds a contact an earlier row of the file wrote (this batch's, or one
 * `contact_import_rows` holds), or would create a contact with an identifier an earlier row of the
 * batch gave one, is a repeat of that row (duplicateInFile). A unique index that still fires (a
 * contact created by another request meanwhile) raises DuplicateContactError: the caller runs the
 * batch again, which then finds that contact.
 */
export async function writeImportBatch(trx: Executor, workspaceId: number, importId: number, candidates: readonly Candidate[], target: ImportTarget): Promise<BatchResult> {
  const errors: RowError[] = [];
  const found = await contactsMatchingKeys(trx, workspaceId, {
    ids: candidates.flatMap((c) => (c.contactId === undefined ? [] : [c.contactId])),
    emails: candidates.flatMap((c) => (c.email === undefined ? [] : [c.email])),
    phones: candidates.flatMap((c) => (c.phoneNumber === undefined ? [] : [c.phoneNumber])),
  });
  const byId = new Map(found.map((c) => [Number(c.id), c]));
  const byEmail = new Map(found.flatMap((c) => (c.email ? [[c.email.toLowerCase(), c] as const] : [])));
  const byPhone = new Map(found.flatMap((c) => (c.phoneNumber ? [[c.phoneNumber, c] as const] : [])));
  // Which earlier row wrote each contact found (earlier batches), and, as this batch goes, which of
  // its rows wrote a contact or an identifier.
  const writtenBy = await firstRowsOf(trx, importId, [...byId.keys()]);
  const written = new Map<number, number>();
  const claimed = new Map<string, number>();

  const limit = await workspaceMacLimit(trx, workspaceId);
  let room = limit === null ? Infinity : Math.max(0, limit - (await countMonthlyActiveContacts(trx, workspaceId, new Date())));

  const plans: Plan[] = [];
  for (const c of candidates) {
    const refuse = (code: RowError['code'], reason: string, path: string | null, value: string | null, matched: number | null) =>
      errors.push({ row: c.row, column: null, path, code, reason, value, matchedContactId: matched, cells: c.cells });
    let contact: ContactScalars | undefined;
    let by: keyof typeof words | undefined;
    if (c.contactId !== undefined) {
      contact = byId.get(c.contactId);
      by = 'contactId';
      if (!contact) {
        refuse('contactNotFound', `No contact of the workspace has the id ${c.contactId}`, 'contactId', String(c.contactId), null);
        continue;
      }
    } else if (c.email !== undefined && byEmail.has(c.email.toLowerCase())) {
      contact = byEmail.get(c.email.toLowerCase());
      by = 'email';
    } else if (c.phoneNumber !== undefined && byPhone.has(c.phoneNumber)) {
      contact = byPhone.get(c.phoneNumber);
      by = 'phoneNumber';
    }
    const firstWriter = contact ? (written.get(Number(contact.id)) ?? writtenBy.get(Number(contact.id))) : undefined;
    if (firstWriter !== undefined) {
      errors.push(repeat(c, firstWriter, by!));
      continue;
    }
    const taken = keysOf(c).find(([key]) => claimed.has(key));
    if (taken) {
      errors.push(repeat(c, claimed.get(taken[0])!, taken[1]));
      continue;
    }
    const emailOwner = c.email !== undefined ? byEmail.get(c.email.toLowerCase()) : undefined;
    const phoneOwner = c.phoneNumber !== undefined ? byPhone.get(c.phoneNumber) : undefined;
    if (emailOwner && emailOwner.id !== contact?.id) {
      refuse('identifierConflict', `Contact ${emailOwner.id} has the email ${c.email}`, 'email', c.email!, Number(emailOwner.id));
      continue;
    }
    if (phoneOwner && phoneOwner.id !== contact?.id) {
      refuse('identifierConflict', `Contact ${phoneOwner.id} has the phone number ${c.phoneNumber}`, 'phoneNumber', c.phoneNumber!, Number(phoneOwner.id));
      continue;
    }
    if (!contact) {
      if (room <= 0) {
        refuse('macLimitReached', `The workspace is at its limit of ${limit} monthly active contacts: no contact can be created`, null, null, null);
        continue;
      }
      room--;
      for (const [key] of keysOf(c)) claimed.set(key, c.row);
      plans.push({ kind: 'create', c });
      continue;
    }
    const fields: Partial<EditableContactColumns> = {};
    for (const key of editable) {
      const value = c[key];
      if (value === undefined) continue;
      const now = contact[key];
      const same = key === 'email' ? now?.toLowerCase() === value.toLowerCase() : now === value;
      if (!same) fields[key] = value;
    }
    written.set(Number(contact.id), c.row);
    // The identifiers it will have: a later row of the batch that would create a contact with one repeats this row.
    for (const [key] of keysOf({ ...contact, ...fields })) claimed.set(key, c.row);
    plans.push({ kind: 'update', c, contact, fields });
  }

  const events: NewEvent[] = [];
  const changed = new Set<number>();
  // Updates, one statement each (a batch of new contacts has none).
  for (const p of plans) {
    if (p.kind !== 'update' || Object.keys(p.fields).length === 0) continue;
    const after = await updateContactFields(trx, workspaceId, Number(p.contact.id), p.fields);
    if (!after) continue;
    events.push(...contactChangeEvents(p.contact, after));
    changed.add(Number(p.contact.id));
  }
  // Creates, in one statement; matched back to their rows by email or phone number (both unique).
  const creates = plans.filter((p): p is Extract<Plan, { kind: 'create' }> => p.kind === 'create');
  const inserted = await insertContacts(
    trx,
    workspaceId,
    creates.map(({ c }) => ({ email: c.email ?? null, phoneNumber: c.phoneNumber ?? null, firstName: c.firstName ?? null, lastName: c.lastName ?? null })),
  );
  const newByKey = new Map(inserted.flatMap((n) => [...(n.email ? [[`e:${n.email.toLowerCase()}`, n] as const] : []), ...(n.phoneNumber ? [[`p:${n.phoneNumber}`, n] as const] : [])]));
  const createdOf = (c: Candidate) => (c.email !== undefined ? newByKey.get(`e:${c.email.toLowerCase()}`) : newByKey.get(`p:${c.phoneNumber}`))!;

  // Custom-field values: those that differ from what a matched contact has; all of a new one's.
  const now = nowIso();
  const fieldIds = [...new Set(candidates.flatMap((c) => c.values.map((v) => v.fieldId)))];
  const updates = plans.filter((p): p is Extract<Plan, { kind: 'update' }> => p.kind === 'update');
  const before = await valuesOfContactsFields(trx, workspaceId, updates.map((p) => Number(p.contact.id)), fieldIds);
  const writes: { contactId: number; fieldId: number; value: string }[] = [];
  for (const p of updates) {
    const contactId = Number(p.contact.id);
    for (const v of p.c.values) {
      const was = before.get(`${contactId}:${v.fieldId}`) ?? null;
      if (was === v.value) continue;
      writes.push({ contactId, fieldId: v.fieldId, value: v.value });
      events.push(customFieldValueEvent(contactId, v.name, was, v.value));
      changed.add(contactId);
    }
  }
  const createdRows = new Map<number, number>();
  for (const { c } of creates) {
    const contact = createdOf(c);
    createdRows.set(Number(contact.id), c.row);
    for (const v of c.values) writes.push({ contactId: Number(contact.id), fieldId: v.fieldId, value: v.value });
    events.push(newContactEvent(contact, Object.fromEntries(c.values.map((v) => [v.name, v.value]))));
  }
  await upsertValues(trx, workspaceId, writes, now);

  // The inbox and the tag, for every contact of the batch.
  const all = [...updates.map((p) => Number(p.contact.id)), ...inserted.map((n) => Number(n.id))];
  for (const id of await addContactsToInbox(trx, workspaceId, target.inbox, all)) changed.add(id);
  if (target.tag) {
    const tag = target.tag;
    for (const a of await tagContacts(trx, workspaceId, all, [tag.id])) {
      events.push(tagEvent('tagApplied', a.contactId, { id: tag.id, name: tag.name }));
      changed.add(a.contactId);
    }
  }
  await recordEvents(trx, workspaceId, events, now);

  for (const n of inserted) written.set(Number(n.id), createdRows.get(Number(n.id))!);
  await insertFirstRows(trx, importId, written);

  const updated = updates.filter((p) => changed.has(Number(p.contact.id))).length;
  return { created: creates.length, updated, unchanged: updates.length - updated, errors };
}
