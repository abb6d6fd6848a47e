import type { Lead } from '../../domain/channels/channel-adapter.js';
import { emailSchema, phoneNumberSchema } from '../../domain/contacts/contact.schema.js';
import { splitName } from '../../domain/contacts/contact-link.service.js';

/**
 * A lead's answers, read the way the networks name the standard questions of a lead form:
 * `email`, `phone_number` (or `phone`), `full_name`, `first_name`, `last_name`. Question keys
 * match case-insensitively; the first non-blank value of a question is its answer.
 */
export interface LeadPerson {
  email: string | null;
  phoneNumber: string | null;
  firstName: string | null;
  lastName: string | null;
  /** Answers the contact cannot take as they are (an email that is not one), to be logged. */
  rejected: { question: string; value: string; reason: string }[];
}

const firstValue = (lead: Lead, ...keys: string[]): { key: string; value: string } | null => {
  for (const key of keys) {
    const field = lead.fields.find((f) => f.name.toLowerCase() === key);
    const value = field?.values.map((v) => v.trim()).find((v) => v !== '');
    if (field && value !== undefined) return { key: field.name, value };
  }
  return null;
};

/** Phone numbers as forms collect them ("+1 (555) 010-2030"): separators dropped, then the contacts' rule. */
export const normalisePhone = (raw: string): string => raw.replace(/[\s().\-\/]/g, '');

const NAME_MAX = 255;
const name = (v: string | null | undefined): string | null => (v ? v.trim().slice(0, NAME_MAX) || null : null);

export function leadPerson(lead: Lead): LeadPerson {
  const rejected: LeadPerson['rejected'] = [];
  const email = firstValue(lead, 'email');
  const phone = firstValue(lead, 'phone_number', 'phone');
  let emailValue: string | null = null;
  if (email) {
    if (emailSchema.safeParse(email.value).success) emailValue = email.value;
    else rejected.push({ question: email.key, value: email.value, reason: 'is not a valid email address' });
  }
  let phoneValue: string | null = null;
  if (phone) {
    const normalised = normalisePhone(phone.value);
    if (phoneNumberSchema.safeParse(normalised).success) phoneValue = normalised;
    else rejected.push({ question: phone.key, value: phone.value, reason: 'is not a phone number (an optional + and 7 to 20 digits)' });
  }
  const full = splitName(firstValue(lead, 'full_name')?.value ?? null);
  return {
    email: emailValue,
    phoneNumber: phoneValue,
    firstName: name(firstValue(lead, 'first_name')?.value ?? full.firstName),
    lastName: name(firstValue(lead, 'last_name')?.value ?? full.lastName),
    rejected,
  };
}

/**
 * The answer to `questionKey` as one custom-field value: a single value as given, several (a
 * multiple-choice question) joined by ", "; null when the lead did not answer it.
 */
export function answerOf(lead: Lead, questionKey: string): string | null {
  const field = lead.fields.find((f) => f.name === questionKey) ?? lead.fields.find((f) => f.name.toLowerCase() === questionKey.toLowerCase());
  const values = (field?.values ?? []).filter((v) => v.trim() !== '');
  return values.length === 0 ? null : values.join(', ');
}
