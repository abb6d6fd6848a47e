import { idNumber } from '../../db/values.js';

/** How a contact identifier selects a contact. */
export type ContactLookup = { by: 'id'; id: number | null; orPhone?: string } | { by: 'email'; email: string } | { by: 'phone'; phone: string };

/**
 * `id:`, `email:` and `phone:` prefixes match exactly. A bare value is an id when all digits (and
 * then a phone number if no such id exists), an email when it contains `@`, otherwise a phone number.
 */
export function parseIdentifier(raw: string): ContactLookup {
  const prefixed = /^(id|email|phone):(.+)$/s.exec(raw);
  if (prefixed) {
    const [, kind, value] = prefixed;
    if (kind === 'id') return { by: 'id', id: idNumber(value) };
    if (kind === 'email') return { by: 'email', email: value };
    return { by: 'phone', phone: value };
  }
  if (/^\d+$/.test(raw)) return { by: 'id', id: idNumber(raw), orPhone: raw };
  if (raw.includes('@')) return { by: 'email', email: raw };
  return { by: 'phone', phone: raw };
}
