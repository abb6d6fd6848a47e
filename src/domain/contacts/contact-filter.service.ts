import type { Executor } from '../../db/database.js';
import { AppError } from '../../errors/catalogue.js';
import { invalidRequestData, type Issue } from '../../errors/validation.js';
import { customFieldsByIds, listCustomFields, type CustomFieldRecord } from '../custom-fields/custom-field.repository.js';
import { canonicalValue } from '../custom-fields/custom-field-value.js';
import {
  MAX_CONDITIONS,
  MAX_DEPTH,
  MAX_CONDITION_IDS,
  operatorsByKind,
  type ContactCondition,
  type ContactListFilters,
  type FilterField,
  type FilterValueKind,
} from './contact-filter.schema.js';
import { type CheckedCondition, type ContactTextColumn, type ContactTimeColumn } from './contact-search.repository.js';
import { genderSchema } from './contact.schema.js';
import { inboxesByIds } from '../inboxes/inbox.repository.js';
import { tagsByIds } from '../tags/tag.repository.js';

/** The live tags, or the inboxes, of the workspace among these ids: id to name (one statement, none for no ids). */
async function existingRelationIds(db: Executor, workspaceId: number, relation: 'tags' | 'inboxes', ids: readonly number[]): Promise<Map<number, string>> {
  const rows = relation === 'tags' ? (await tagsByIds(db, workspaceId, ids)).filter((t) => t.deletedAt === null) : await inboxesByIds(db, workspaceId, ids);
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/**
 * The search filter's rules: the fields a condition can name (the contact's own and
 * `customField:<id>`), their operators and operand types, and the check that turns a request's
 * tree (or the list's query filters) into a CheckedCondition the repository compiles. Also what
 * GET /v1/contacts/filter-fields and POST /v1/contacts/filter-value-labels answer from them.
 */
export type Path = (string | number)[];

/** The contact's own filterable fields: what GET /v1/contacts/filter-fields lists first. */
interface ContactField {
  label: string;
  kind: FilterValueKind;
  operators?: readonly string[];
  options?: readonly string[];
  indexed: boolean;
  to: (op: string, value: unknown) => CheckedCondition;
}

const text = (label: string, column: ContactTextColumn, indexed = false): ContactField => ({
  label,
  kind: 'text',
  indexed,
  to: (op, value) => ({ kind: 'column', column, op: op as never, value: value as string | undefined }),
});
const instant = (label: string, column: ContactTimeColumn, indexed = false): ContactField => ({
  label,
  kind: 'datetime',
  indexed,
  to: (op, value) => ({ kind: 'instant', column, ...rangeOf(op, value) }),
});
const flag = (label: string, field: 'emailOptIn' | 'emailVerified' | 'blocked'): ContactField => ({
  label,
  kind: 'boolean',
  indexed: false,
  to: (_op, value) => ({ kind: 'flag', field, value: value as boolean }),
});
const relation = (label: string, name: 'tags' | 'inboxes'): ContactField => ({
  label,
  kind: 'ids',
  indexed: true,
  to: (op, value) => ({ kind: 'relation', relation: name, op: op as never, ids: (value as string[]).map(Number) }),
});

const contactFields: Record<string, ContactField> = {
  firstName: text('First name', 'first_name'),
  lastName: text('Last name', 'last_name'),
  email: text('Email', 'email', true),
  phoneNumber: text('Phone number', 'phone_number'),
  gender: {
    label: 'Gender',
    kind: 'enum',
    operators: ['equals', 'notEquals', 'in'],
    options: genderSchema.options,
    indexed: false,
    to: (op, value) => ({ kind: 'gender', op: op as never, values: Array.isArray(value) ? (value as string[]) : [value as string] }),
  },
  locale: text('Locale', 'locale'),
  timezone: text('Time zone', 'timezone'),
  country: text('Country', 'country'),
  state: text('State', 'state'),
  city: text('City', 'city'),
  location: text('Location', 'location'),
  ref: text('Reference', 'ref'),
  emailOptIn: flag('Email opt-in', 'emailOptIn'),
  emailVerified: flag('Email verified', 'emailVerified'),
  blocked: flag('Blocked', 'blocked'),
  createdAt: instant('Created', 'created_at', true),
  updatedAt: instant('Updated', 'updated_at', true),
  subscribedAt: instant('Subscribed', 'subscribed_at'),
  blockedAt: instant('Blocked at', 'blocked_at'),
  tags: relation('Tags', 'tags'),
  inboxes: relation('Inboxes', 'inboxes'),
};

/** Custom fields are named `customField:<id>` in a filter. */
const CUSTOM_FIELD = /^customField:(\d{1,10})$/;

/** The value kind a custom field's type filters as. */
const kindOfCustomType = (type: string): FilterValueKind =>
  type === 'number' ? 'number' : type === 'boolean' ? 'boolean' : type === 'date' ? 'date' : type === 'datetime' ? 'datetime' : type === 'select' ? 'enum' : 'text';

/** From and to of a range operator: `after` is inclusive, `before` exclusive, `between` both. */
function rangeOf(op: string, value: unknown): { op: 'range' | 'isEmpty' | 'isNotEmpty'; from?: string; to?: string } {
  if (op === 'isEmpty' || op === 'isNotEmpty') return { op };
  if (op === 'after') return { op: 'range', from: value as string };
  if (op === 'before') return { op: 'range', to: value as string };
  const [from, to] = value as [string, string];
  return { op: 'range', from, to };
}

const valueless = new Set(['isEmpty', 'isNotEmpty']);

/**
 * An instant as the engines compare it: UTC ISO with milliseconds (how every timestamp is stored),
 * converted by the custom fields' datetime rule, which also refuses days a month does not have
 * (Date.parse reads 2026-02-30 as March 2).
 */
const instantValue = (value: unknown): string | null => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const canonical = canonicalValue('datetime', null, value);
  return canonical.ok ? canonical.value : null;
};

/**
 * Checks an operand against the kind's rules and returns it in the form the SQL compares, or an
 * issue message. Custom-field values go through the custom fields' own value rules.
 */
function operand(kind: FilterValueKind, op: string, value: unknown, options: readonly string[] | null, field: CustomFieldRecord | null): { value?: unknown } | string {
  if (valueless.has(op)) return value === undefined ? {} : `${op} takes no value`;
  if (value === undefined) return `${op} needs a value`;
  const single = (v: unknown): { ok: unknown } | string => {
    if (field) return customFieldOperand(field, op, v);
    switch (kind) {
      case 'text':
        return typeof v === 'string' && v.length >= 1 && v.length <= 255 ? { ok: v } : 'value must be a string of 1 to 255 characters';
      case 'enum':
        return typeof v === 'string' && options?.includes(v) ? { ok: v } : `value must be one of ${options?.join(', ')}`;
      case 'boolean':
        return typeof v === 'boolean' ? { ok: v } : 'value must be true or false';
      case 'datetime': {
        const at = instantValue(v);
        return at ? { ok: at } : 'value must be an ISO 8601 date-time with a time zone, e.g. 2026-11-23T10:00:00Z';
      }
      default:
        return 'value is not valid for this field';
    }
  };
  if (op === 'between') {
    if (!Array.isArray(value) || value.length !== 2) return 'between takes [from, to]';
    const [a, b] = [single(value[0]), single(value[1])];
    if (typeof a === 'string') return a;
    if (typeof b === 'string') return b;
    return { value: [a.ok, b.ok] };
  }
  if (op === 'in' || kind === 'ids') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_CONDITION_IDS) return `${op} takes a list of 1 to ${MAX_CONDITION_IDS} values`;
    if (kind === 'ids') return value.every((v) => typeof v === 'string' && /^\d{1,10}$/.test(v)) ? { value } : 'value must be a list of digit-string ids';
    const out: unknown[] = [];
    for (const v of value) {
      const one = single(v);
      if (typeof one === 'string') return one;
      out.push(one.ok);
    }
    return { value: out };
  }
  if (kind === 'number' && ['contains', 'notContains', 'startsWith'].includes(op)) return `${op} is not an operator of number fields`;
  const one = single(value);
  return typeof one === 'string' ? one : { value: one.ok };
}

/**
 * A custom-field operand: for a whole-value comparison, the canonical text the field's values are
 * stored in (the custom fields' own rule, so `equals 3.0` finds the stored "3"); for a substring
 * test, plain text.
 */
function customFieldOperand(field: CustomFieldRecord, op: string, v: unknown): { ok: unknown } | string {
  if (substringOperators.has(op)) return typeof v === 'string' && v.length >= 1 && v.length <= 255 ? { ok: v } : 'value must be a string of 1 to 255 characters';
  const canonical = canonicalValue(field.type, field.options, v);
  return canonical.ok ? { ok: canonical.value } : `value ${canonical.message}`;
}

const substringOperators = new Set(['contains', 'notContains', 'startsWith']);

interface Checked {
  where: CheckedCondition;
}

/**
 * Turns the request's tree into a checked one, or throws 422 invalidRequestData with an issue at
 * each bad node's path (`["body", "filter", "and", 0, "field"]`). Costs at most three statements
 * whatever the tree: the named custom fields, tag ids and inbox ids are each looked up at once.
 */
export async function checkCondition(db: Executor, workspaceId: number, tree: ContactCondition, at: Path): Promise<Checked> {
  const issues: Issue[] = [];
  let count = 0;
  const customIds = new Set<number>();
  const relationIds = { tags: new Set<number>(), inboxes: new Set<number>() };

  // First pass: shape limits, and what to look up.
  const scan = (node: ContactCondition, path: Path, depth: number) => {
    if (node.field === undefined) {
      if (depth >= MAX_DEPTH) return void issues.push({ message: `Groups nest at most ${MAX_DEPTH} levels deep`, path });
      const children = node.not ? [['not', node.not] as const] : (node.and ?? node.or ?? []).map((c, i) => [i, c] as const);
      const key = node.and ? 'and' : node.or ? 'or' : 'not';
      for (const [i, child] of children) scan(child, i === 'not' ? [...path, 'not'] : [...path, key, i], depth + 1);
      return;
    }
    count++;
    const custom = CUSTOM_FIELD.exec(node.field);
    if (custom) customIds.add(Number(custom[1]));
    if ((node.field === 'tags' || node.field === 'inboxes') && Array.isArray(node.value)) {
      for (const v of node.value) if (typeof v === 'string' && /^\d{1,10}$/.test(v)) relationIds[node.field].add(Number(v));
    }
  };
  scan(tree, at, 0);
  if (count > MAX_CONDITIONS) issues.push({ message: `A filter holds at most ${MAX_CONDITIONS} conditions (this one has ${count})`, path: at });
  if (issues.length) throw invalidRequestData(issues);

  const [customFields, tags, inboxes] = await Promise.all([
    customFieldsByIds(db, workspaceId, [...customIds]),
    existingRelationIds(db, workspaceId, 'tags', [...relationIds.tags]),
    existingRelationIds(db, workspaceId, 'inboxes', [...relationIds.inboxes]),
  ]);
  const fieldsById = new Map(customFields.map((f) => [Number(f.id), f]));
  const known = { tags, inboxes };

  const build = (node: ContactCondition, path: Path): CheckedCondition | null => {
    if (node.field === undefined) {
      if (node.not) {
        const child = build(node.not, [...path, 'not']);
        return child && { kind: 'not', child };
      }
      const key = node.and ? 'and' : 'or';
      const children = (node[key] ?? []).map((c, i) => build(c, [...path, key, i]));
      return children.every((c) => c !== null) ? { kind: key, children: children as CheckedCondition[] } : null;
    }
    const op = node.operator!;
    const custom = CUSTOM_FIELD.exec(node.field);
    const fail = (message: string, where: 'field' | 'operator' | 'value') => {
      issues.push({ message, path: [...path, where] });
      return null;
    };
    if (custom) {
      const field = fieldsById.get(Number(custom[1]));
      if (!field) return fail(`No custom field with id ${custom[1]} in this workspace`, 'field');
      const kind = kindOfCustomType(field.type);
      const operators = operatorsByKind[kind].filter((o) => !(kind === 'number' && ['contains', 'notContains', 'startsWith'].includes(o)));
      if (!operators.includes(op)) return fail(`${op} is not an operator of ${field.type} fields; use one of ${operators.join(', ')}`, 'operator');
      const checked = operand(kind, op, node.value, field.options, field);
      if (typeof checked === 'string') return fail(checked, 'value');
      return customCondition(Number(field.id), kind, op, checked.value);
    }
    const def = Object.hasOwn(contactFields, node.field) ? contactFields[node.field] : undefined;
    if (!def) return fail(`Unknown field "${node.field}": see GET /v1/contacts/filter-fields`, 'field');
    const operators = def.operators ?? operatorsByKind[def.kind];
    if (!operators.includes(op)) return fail(`${op} is not an operator of ${node.field}; use one of ${operators.join(', ')}`, 'operator');
    const checked = operand(def.kind, op, node.value, def.options ?? null, null);
    if (typeof checked === 'string') return fail(checked, 'value');
    if (def.kind === 'ids') {
      const relationName = node.field as 'tags' | 'inboxes';
      const missing = (checked.value as string[]).filter((id) => !known[relationName].has(Number(id)));
      if (missing.length) return fail(`Unknown ${relationName === 'tags' ? 'tag' : 'inbox'} ids: ${missing.join(', ')}`, 'value');
    }
    return def.to(op, checked.value);
  };
  const where = build(tree, at);
  if (issues.length || !where) throw invalidRequestData(issues);
  return { where };
}

function customCondition(fieldId: number, kind: FilterValueKind, op: string, value: unknown): CheckedCondition {
  if (op === 'before' || op === 'after' || op === 'between') return { kind: 'customField', fieldId, ...rangeOf(op, value) };
  if (op === 'in') return { kind: 'customField', fieldId, op: 'in', values: value as string[] };
  // A boolean is stored as "true"/"false"; `is` compares the canonical text.
  if (kind === 'boolean') return { kind: 'customField', fieldId, op: 'is', value: String(value) };
  return { kind: 'customField', fieldId, op: op as never, value: value as string | number | undefined };
}

/** The GET list's query filters as a condition tree, checked the same way (paths under `query`). */
export async function checkListFilters(db: Executor, workspaceId: number, f: ContactListFilters): Promise<CheckedCondition> {
  const parts: CheckedCondition[] = [];
  if (f.keyword) parts.push({ kind: 'keyword', keyword: f.keyword });
  const relations: ContactCondition[] = [];
  if (f.tagId?.length) relations.push({ field: 'tags', operator: 'hasAll', value: [...new Set(f.tagId)] });
  if (f.inboxId) relations.push({ field: 'inboxes', operator: 'hasAny', value: [f.inboxId] });
  if (relations.length) {
    try {
      parts.push((await checkCondition(db, workspaceId, { and: relations }, [])).where);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'invalidRequestData')) throw err;
      // Re-point the issue at the query parameter that named the ids.
      const issues = ((err.data as { issues: Issue[] }).issues).map((i) => ({
        message: i.message,
        path: ['query', relations[Number(i.path[1])].field === 'tags' ? 'tagId' : 'inboxId'],
      }));
      throw invalidRequestData(issues);
    }
  }
  if (f.createdAfter || f.createdBefore) {
    parts.push({
      kind: 'instant',
      column: 'created_at',
      op: 'range',
      from: f.createdAfter && instantValue(f.createdAfter)!,
      to: f.createdBefore && instantValue(f.createdBefore)!,
    });
  }
  return { kind: 'and', children: parts };
}

/** Custom fields filter-fields lists at most (by name); any field can still be named by id. */
const MAX_LISTED_CUSTOM_FIELDS = 1000;

/** GET /v1/contacts/filter-fields: the contact's fields, then the workspace's custom fields by name. */
export async function listFilterFields(db: Executor, workspaceId: number): Promise<FilterField[]> {
  const own = Object.entries(contactFields).map(([field, def]) => ({
    field,
    label: def.label,
    kind: def.kind,
    customFieldType: null,
    operators: [...(def.operators ?? operatorsByKind[def.kind])],
    options: def.options ? [...def.options] : null,
    indexed: def.indexed,
  }));
  const custom = (await listCustomFields(db, workspaceId, { limit: MAX_LISTED_CUSTOM_FIELDS, offset: 0 })).map((f) => {
    const kind = kindOfCustomType(f.type);
    return {
      field: `customField:${f.id}`,
      label: f.name,
      kind,
      customFieldType: f.type,
      operators: operatorsByKind[kind].filter((o) => !(kind === 'number' && ['contains', 'notContains', 'startsWith'].includes(o))),
      options: f.options,
      indexed: true,
    };
  });
  return [...own, ...custom];
}

/**
 * POST /v1/contacts/filter-value-labels: what a saved filter's values mean to a person (a tag id's
 * name, an inbox id's name, a gender's or a select option's label), so a client can show a stored
 * filter without loading every list. A value that is its own label (free text, numbers, dates) or
 * names nothing (an unknown or deleted id) gets null.
 */
export async function resolveFilterValueLabels(db: Executor, workspaceId: number, values: { field: string; value: string | number | boolean }[]) {
  const ids = (field: string) => values.filter((v) => v.field === field && /^\d{1,10}$/.test(String(v.value))).map((v) => Number(v.value));
  const selectIds = values.flatMap((v) => {
    const m = CUSTOM_FIELD.exec(v.field);
    return m ? [Number(m[1])] : [];
  });
  const [tags, inboxes, fields] = await Promise.all([
    existingRelationIds(db, workspaceId, 'tags', ids('tags')),
    existingRelationIds(db, workspaceId, 'inboxes', ids('inboxes')),
    customFieldsByIds(db, workspaceId, [...new Set(selectIds)]),
  ]);
  const fieldById = new Map(fields.map((f) => [Number(f.id), f]));
  const genderLabels: Record<string, string> = { male: 'Male', female: 'Female', unknown: 'Unknown' };
  return values.map(({ field, value }) => {
    let label: string | null = null;
    const custom = CUSTOM_FIELD.exec(field);
    if (field === 'tags') label = tags.get(Number(value)) ?? null;
    else if (field === 'inboxes') label = inboxes.get(Number(value)) ?? null;
    else if (field === 'gender') label = genderLabels[String(value)] ?? null;
    else if (custom) {
      const def = fieldById.get(Number(custom[1]));
      label = def?.type === 'select' && def.options?.includes(String(value)) ? String(value) : null;
    }
    return { field, value, label };
  });
}
