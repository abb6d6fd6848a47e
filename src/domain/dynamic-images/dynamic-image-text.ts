/**
 * The variables of a dynamic image's texts, filled per contact: {{first_name}}, {{last_name}},
 * {{full_name}}, {{email}}, {{phone}} and {{cf:<custom field name or id>}} (spaces inside the
 * braces are allowed). Anything else between braces is drawn as written: a template with a typo
 * shows the typo instead of silently drawing nothing.
 */

/** What a contact gives the variables; "" for what it does not have. */
export interface ContactValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  avatar: string;
  /** Custom field values by field id (digits, as stored). */
  fields: ReadonlyMap<string, string>;
  /** The field a {{cf:...}} reference names (dynamic-image-fields.ts); undefined when none. */
  fieldOf(ref: string): string | undefined;
}

const VARIABLE = /\{\{\s*(first_name|last_name|full_name|email|phone|cf:\s*([^{}]*?))\s*\}\}/g;

/** Whether a text holds at least one variable: it differs per contact. */
export const hasVariables = (text: string): boolean => new RegExp(VARIABLE.source).test(text);

/** The names or ids a text's {{cf:...}} variables give, trimmed, in order of appearance. */
export function customFieldRefs(text: string): string[] {
  const refs: string[] = [];
  for (const m of text.matchAll(VARIABLE)) if (m[2] !== undefined) refs.push(m[2].trim());
  return refs;
}

/**
 * The text with each variable replaced by the contact's value; a variable the contact has no value
 * for becomes `fallback` (a {{cf:7}} of a deleted field included: it is empty, not the literal "7").
 */
export function fillText(text: string, values: ContactValues, fallback: string): string {
  return text.replace(VARIABLE, (_, name: string, ref: string | undefined) => {
    let value: string;
    if (ref !== undefined) {
      const id = values.fieldOf(ref.trim());
      value = id === undefined ? '' : (values.fields.get(id) ?? '');
    } else if (name === 'full_name') {
      value = [values.firstName, values.lastName].filter((v) => v !== '').join(' ');
    } else {
      value = name === 'first_name' ? values.firstName : name === 'last_name' ? values.lastName : name === 'email' ? values.email : values.phone;
    }
    return value.trim() === '' ? fallback : value;
  });
}
