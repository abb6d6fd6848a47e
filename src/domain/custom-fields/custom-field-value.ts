import { z } from 'zod';
import { phoneNumberSchema } from '../contacts/contact.schema.js';

/**
 * Typed custom-field values. Values are stored as text in one canonical form per type, so an exact
 * match on the stored text (find-by-custom-field, the search tree's `equals`) is an exact match on
 * the value, and one function answers "is this a valid value, and how is it written":
 * `canonicalValue(type, options, raw)`.
 *
 * | type      | accepts                                          | canonical form                           |
 * |-----------|--------------------------------------------------|------------------------------------------|
 * | shortText | a string of 1-255 characters                     | as sent                                  |
 * | longText  | a string of 1-10,000 characters                  | as sent                                  |
 * | number    | a finite JSON number, or a decimal string        | shortest plain decimal: 3.0 -> "3",      |
 * |           | ("-1.50", "2e3")                                 | "-1.50" -> "-1.5", 2e3 -> "2000"         |
 * | boolean   | true/false, or "true"/"false" (any case)         | "true" / "false"                         |
 * | date      | "YYYY-MM-DD", a real calendar date               | as sent (trimmed)                        |
 * | datetime  | ISO 8601 date-time with Z or an offset           | UTC, milliseconds: 2026-03-01T09:00:00.000Z |
 * | email     | an email address (the contacts' rule)            | lower-cased                              |
 * | phone     | an optional + and 7 to 20 digits (contacts' rule)| as sent (trimmed)                        |
 * | url       | an absolute http or https URL                    | the WHATWG URL serialisation (`href`)    |
 * | select    | one of the field's options (any case)            | the option as defined                    |
 *
 * Strings are trimmed for every type but the two text types. A text field takes only strings; a
 * number, boolean or select field also takes its string forms, so GraphQL (whose `value` is a
 * String) and REST accept the same values.
 */
export const customFieldTypes = ['shortText', 'longText', 'number', 'boolean', 'date', 'datetime', 'email', 'phone', 'url', 'select'] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

export const SHORT_TEXT_MAX = 255;
export const LONG_TEXT_MAX = 10_000;
/** A number written out in plain decimal (no exponent) is at most this long. */
export const NUMBER_TEXT_MAX = 64;
export const URL_MAX = 2048;
export const EMAIL_MAX = 320;

/** What a value may arrive as: JSON scalars (REST) or a string (GraphQL). */
export type RawValue = string | number | boolean;

export type Canonical = { ok: true; value: string } | { ok: false; message: string };

const ok = (value: string): Canonical => ({ ok: true, value });
const fail = (message: string): Canonical => ({ ok: false, message });

const isCustomFieldType = (type: string): type is CustomFieldType => (customFieldTypes as readonly string[]).includes(type);

/**
 * The canonical stored text of `raw` for a field of this type (and, for `select`, these options),
 * or the message saying why it is not a value of that type. The message reads after the value's
 * name ("value must be a number ..."), as zod's messages do.
 */
export function canonicalValue(type: string, options: readonly string[] | null, raw: unknown): Canonical {
  if (!isCustomFieldType(type)) return fail(`cannot be checked: the field's type "${type}" is unknown`);
  switch (type) {
    case 'shortText':
    case 'longText': {
      if (typeof raw !== 'string') return fail('must be a string');
      const max = type === 'shortText' ? SHORT_TEXT_MAX : LONG_TEXT_MAX;
      if (raw.length === 0) return fail('must not be empty');
      if (raw.length > max) return fail(`must be at most ${max.toLocaleString('en-US')} characters for a ${type} field`);
      return ok(raw);
    }
    case 'number':
      return canonicalNumber(raw);
    case 'boolean': {
      if (typeof raw === 'boolean') return ok(String(raw));
      const text = typeof raw === 'string' ? raw.trim().toLowerCase() : null;
      return text === 'true' || text === 'false' ? ok(text) : fail('must be true or false (or the string "true" or "false")');
    }
    case 'date': {
      const text = typeof raw === 'string' ? raw.trim() : null;
      return text !== null && isCalendarDate(text) ? ok(text) : fail('must be a calendar date written YYYY-MM-DD, e.g. 2026-03-01');
    }
    case 'datetime': {
      const iso = typeof raw === 'string' ? utcDateTime(raw.trim()) : null;
      return iso ? ok(iso) : fail('must be an ISO 8601 date-time with a time zone, e.g. 2026-03-01T10:00:00Z or 2026-03-01T11:00:00+01:00');
    }
    case 'email': {
      const text = typeof raw === 'string' ? raw.trim() : null;
      return text !== null && text.length <= EMAIL_MAX && emailSchema.safeParse(text).success ? ok(text.toLowerCase()) : fail('must be a valid email address');
    }
    case 'phone': {
      const text = typeof raw === 'string' ? raw.trim() : null;
      return text !== null && phoneNumberSchema.safeParse(text).success ? ok(text) : fail('must be an optional + followed by 7 to 20 digits');
    }
    case 'url':
      return canonicalUrl(raw);
    case 'select': {
      if (typeof raw !== 'string') return fail('must be a string, one of the options');
      const text = raw.trim();
      const choices = options ?? [];
      const exact = choices.find((o) => o === text);
      if (exact !== undefined) return ok(exact);
      const folded = choices.find((o) => o.toLowerCase() === text.toLowerCase());
      return folded !== undefined ? ok(folded) : fail(`must be one of the options: ${listed(choices)}`);
    }
  }
}

const emailSchema = z.email();

const listed = (options: readonly string[]) => {
  const shown = options.slice(0, 20).map((o) => JSON.stringify(o)).join(', ');
  return options.length > 20 ? `${shown} (and ${options.length - 20} more)` : shown;
};

/**
 * Converts a stored value of a field whose type changes from `from` to `to` (or whose options
 * change): the value read as the new type, with two conversions between the date types: a date
 * becomes midnight UTC of that day, a date-time becomes its UTC day.
 */
export function convertValue(from: string, to: string, options: readonly string[] | null, stored: string): Canonical {
  if (from === 'date' && to === 'datetime' && isCalendarDate(stored)) return ok(`${stored}T00:00:00.000Z`);
  if (from === 'datetime' && to === 'date') {
    const iso = utcDateTime(stored);
    if (iso) return ok(iso.slice(0, 10));
  }
  return canonicalValue(to, options, stored);
}

/**
 * Orders two canonical values of a type: numbers by value (exactly, as decimals), every other type
 * by its canonical text (which for dates and date-times is chronological). Negative, 0 or positive.
 */
export function compareCanonical(type: string, a: string, b: string): number {
  if (type === 'number') {
    const x = parseDecimal(a);
    const y = parseDecimal(b);
    if (x && y) {
      const scale = Math.max(x.scale, y.scale);
      const diff = x.digits * 10n ** BigInt(scale - x.scale) - y.digits * 10n ** BigInt(scale - y.scale);
      return diff < 0n ? -1 : diff > 0n ? 1 : 0;
    }
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `a + b` of two canonical numbers, exactly (0.1 + 0.2 is 0.3), as a canonical number. */
export function addNumbers(a: string, b: string): Canonical {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return fail('must be a number');
  const scale = Math.max(x.scale, y.scale);
  const sum = x.digits * 10n ** BigInt(scale - x.scale) + y.digits * 10n ** BigInt(scale - y.scale);
  return canonicalNumber(formatDecimal(sum, scale));
}

// ---------------------------------------------------------------------------------------------
// number

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;
const NUMBER_MESSAGE = 'must be a number: a JSON number or a decimal string such as "3.5"';

function canonicalNumber(raw: unknown): Canonical {
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return fail(NUMBER_MESSAGE);
    text = String(raw);
  } else if (typeof raw === 'string') {
    text = raw.trim();
  } else {
    return fail(NUMBER_MESSAGE);
  }
  const m = DECIMAL.exec(text);
  if (!m) return fail(NUMBER_MESSAGE);
  const [, sign, whole, fraction = '', exponent = '0'] = m;
  if (whole === '' && fraction === '') return fail(NUMBER_MESSAGE);
  let digits = whole + fraction;
  // The decimal point sits after `point` digits of `digits`.
  let point = whole.length + Number(exponent);
  const leading = /^0*/.exec(digits)![0].length;
  digits = digits.slice(leading);
  point -= leading;
  digits = digits.replace(/0+$/, '');
  if (digits === '') return ok('0');
  const tooLong = `must be at most ${NUMBER_TEXT_MAX} characters written out in plain decimal`;
  if (point > NUMBER_TEXT_MAX || -point > NUMBER_TEXT_MAX) return fail(tooLong);
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  if (sign === '-') out = `-${out}`;
  return out.length <= NUMBER_TEXT_MAX ? ok(out) : fail(tooLong);
}

/** A canonical (plain) decimal as an integer and a scale: "-1.25" is -125 at scale 2. */
function parseDecimal(text: string): { digits: bigint; scale: number } | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const [, sign, whole, fraction = ''] = m;
  const digits = BigInt(whole + fraction);
  return { digits: sign ? -digits : digits, scale: fraction.length };
}

function formatDecimal(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

// ---------------------------------------------------------------------------------------------
// dates

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
const validDay = (y: number, m: number, d: number) => y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);

function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/** An ISO 8601 date-time with a zone as UTC with milliseconds (further digits cut), or null. */
function utcDateTime(text: string): string | null {
  const m = DATETIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', zulu, sign, oh = '0', om = '0'] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (!validDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  if (!zulu && (Number(oh) > 23 || Number(om) > 59)) return null;
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, Number(frac.padEnd(3, '0').slice(0, 3)));
  const offsetMinutes = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const utc = new Date(at.getTime() - offsetMinutes * 60_000);
  const utcYear = utc.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return null;
  return utc.toISOString();
}

// ---------------------------------------------------------------------------------------------
// url

function canonicalUrl(raw: unknown): Canonical {
  const message = 'must be an absolute http or https URL, e.g. https://example.com/page';
  if (typeof raw !== 'string') return fail(message);
  const text = raw.trim();
  if (text.length > URL_MAX) return fail(`must be at most ${URL_MAX} characters`);
  if (/\s/.test(text)) return fail(message);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(message);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return fail(message);
  return url.href.length <= URL_MAX ? ok(url.href) : fail(`must be at most ${URL_MAX} characters`);
}
