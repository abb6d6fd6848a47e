import { parsePhoneNumberFromString, type CountryCallingCode } from 'libphonenumber-js';
import type { CustomFieldRecord } from '../custom-fields/custom-field.repository.js';
import { canonicalValue } from '../custom-fields/custom-field-value.js';
import { emailSchema, nameSchema, phoneNumberSchema } from '../contacts/contact.schema.js';
import type { ImportColumnKey, ImportErrorCode } from './contact-transfer.schema.js';
import { unescapeFormula } from './csv-format.js';

/**
 * One row of an import file read into what it asks for, before the database is asked anything:
 * every rule that depends on the row alone (a valid email, a phone number that normalises to
 * E.164, values of the custom fields' types, an identifier at all) is here, so an import that is
 * resumed reads its earlier rows exactly as the first run did.
 */

/** Where each mapped column is in the file. */
export interface ImportPlan {
  columns: { key: ImportColumnKey; column: string; index: number }[];
  fields: { field: CustomFieldRecord; column: string; index: number }[];
  /** The calling code of numbers written without one ("1" for +1). */
  callingCode: string | undefined;
}

export interface Candidate {
  row: number;
  cells: string[];
  contactId?: number;
  email?: string;
  phoneNumber?: string;
  firstName?: string;
  lastName?: string;
  /** Canonical values by custom field, only for cells that are not blank. */
  values: { fieldId: number; name: string; value: string }[];
}

/** A row not taken: its record in the import's error list. */
export interface RowError {
  row: number;
  column: string | null;
  path: string | null;
  code: ImportErrorCode;
  reason: string;
  value: string | null;
  matchedContactId: number | null;
  cells: string[];
}

const pathOf: Record<ImportColumnKey, string> = { contactId: 'contactId', email: 'email', phoneNumber: 'phoneNumber', firstName: 'firstName', lastName: 'lastName' };

/** A cell as the user meant it: trimmed, an export's formula escape taken off; '' when blank. */
const cellOf = (cells: string[], index: number) => unescapeFormula((cells[index] ?? '').trim());

/** A phone number in E.164 (the calling code added when written without one), or null when it is no valid number. */
export function normalisePhone(text: string, callingCode: string | undefined): string | null {
  const parsed = parsePhoneNumberFromString(text, callingCode ? { defaultCallingCode: callingCode as CountryCallingCode } : undefined);
  if (!parsed || !parsed.isValid()) return null;
  return phoneNumberSchema.safeParse(parsed.number).success ? parsed.number : null;
}

export function readRow(plan: ImportPlan, row: number, cells: string[]): { ok: true; candidate: Candidate } | { ok: false; error: RowError } {
  const candidate: Candidate = { row, cells, values: [] };
  const fail = (code: ImportErrorCode, reason: string, column: string | null, path: string | null, value: string | null): { ok: false; error: RowError } => ({
    ok: false,
    error: { row, column, path, code, reason, value, matchedContactId: null, cells },
  });
  for (const { key, column, index } of plan.columns) {
    const value = cellOf(cells, index);
    if (value === '') continue;
    const bad = (code: ImportErrorCode, reason: string) => fail(code, reason, column, pathOf[key], value);
    switch (key) {
      case 'contactId':
        if (!/^\d{1,15}$/.test(value)) return bad('invalidContactId', `${column}: a contact id is a digit string`);
        candidate.contactId = Number(value);
        break;
      case 'email':
        if (!emailSchema.safeParse(value).success) return bad('invalidEmail', `${column}: "${value}" is not a valid email address`);
        candidate.email = value;
        break;
      case 'phoneNumber': {
        const phone = normalisePhone(value, plan.callingCode);
        if (phone === null) {
          const hint = plan.callingCode ? `with the calling code +${plan.callingCode}` : 'in international form (+ and the calling code), as the import names no countryCode';
          return bad('invalidPhone', `${column}: "${value}" is not a valid phone number ${hint}`);
        }
        candidate.phoneNumber = phone;
        break;
      }
      case 'firstName':
      case 'lastName':
        if (!nameSchema.safeParse(value).success) return bad('invalidName', `${column}: a name is at most 255 characters`);
        candidate[key] = value;
        break;
    }
  }
  for (const { field, column, index } of plan.fields) {
    const value = cellOf(cells, index);
    if (value === '') continue;
    const checked = canonicalValue(field.type, field.options, value);
    if (!checked.ok) return fail('customFieldInvalid', `${column}: value ${checked.message} (custom field "${field.name}", ${field.type})`, column, `customFields.${field.id}`, value);
    candidate.values.push({ fieldId: Number(field.id), name: field.name, value: checked.value });
  }
  if (candidate.contactId === undefined && candidate.email === undefined && candidate.phoneNumber === undefined) {
    return fail('missingIdentifier', 'The row has no contact id, email or phone number: nothing to match or create a contact by', null, null, null);
  }
  return { ok: true, candidate };
}

/** Header aliases, compared without case, spaces, dashes, dots or underscores. */
const aliases: Record<ImportColumnKey, readonly string[]> = {
  contactId: ['contactid', 'id'],
  email: ['email', 'emailaddress', 'mail'],
  phoneNumber: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'mobilenumber', 'cell', 'cellphone', 'tel', 'telephone', 'whatsapp'],
  firstName: ['firstname', 'first', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
};

export const headerKey = (header: string) => header.toLowerCase().replace(/[\s\-_.]+/g, '');

/** The contact field each header looks like (the first header wins a field). */
export function suggestColumnMap(headers: readonly string[]): Partial<Record<ImportColumnKey, string>> {
  const map: Partial<Record<ImportColumnKey, string>> = {};
  for (const header of headers) {
    const key = headerKey(header);
    for (const [field, names] of Object.entries(aliases) as [ImportColumnKey, readonly string[]][]) {
      if (map[field] === undefined && names.includes(key)) map[field] = header;
    }
  }
  return map;
}
