import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { contactColumns } from '../../db/columns.js';
import { isPostgres, type Executor } from '../../db/database.js';
import { containsInsensitive, postgresTrigramCandidates, sqliteTrigramMatches, usesTrigramIndex } from '../../db/search.js';
import { bool, likeContains } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import { toContactScalars } from './contact.repository.js';
import type { ContactScalars } from './contact.schema.js';

/**
 * A checked condition tree (contact-search.service.ts turns the request into one): every field is
 * known, every value has its operator's type, every id exists in the workspace. Compiled here to
 * one SQL boolean over `contacts`, whose relations are `contacts.id in (subquery)` terms that read
 * only the workspace's rows of that relation.
 */
export type CheckedCondition =
  | { kind: 'and' | 'or'; children: CheckedCondition[] }
  | { kind: 'not'; child: CheckedCondition }
  | { kind: 'column'; column: ContactTextColumn; op: TextOp; value?: string }
  | { kind: 'gender'; op: 'equals' | 'notEquals' | 'in'; values: string[] }
  | { kind: 'flag'; field: 'emailOptIn' | 'emailVerified' | 'blocked'; value: boolean }
  | { kind: 'instant'; column: ContactTimeColumn; op: RangeOp; from?: string; to?: string }
  | { kind: 'relation'; relation: 'tags' | 'inboxes'; op: 'hasAny' | 'hasAll' | 'hasNone'; ids: number[] }
  | { kind: 'keyword'; keyword: string }
  | { kind: 'customField'; fieldId: number; op: CustomOp; value?: string | number; values?: string[]; from?: string; to?: string };

export type ContactTextColumn =
  | 'first_name' | 'last_name' | 'email' | 'phone_number' | 'locale' | 'timezone' | 'country' | 'state' | 'city' | 'location' | 'ref';
export type ContactTimeColumn = 'created_at' | 'updated_at' | 'subscribed_at' | 'blocked_at';
export type TextOp = 'equals' | 'notEquals' | 'contains' | 'notContains' | 'startsWith' | 'isEmpty' | 'isNotEmpty';
/** `from` inclusive, `to` exclusive; isEmpty/isNotEmpty test for null. */
export type RangeOp = 'range' | 'isEmpty' | 'isNotEmpty';
export type CustomOp = TextOp | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'range' | 'is';

const always = sql<SqlBool>`1 = 1`;

/** `lower(x)` as each engine folds it; both sides of a comparison use the same one. */
const lower = (e: Expression<unknown>) => sql`lower(${e})`;

function startsWith(db: Executor, target: Expression<unknown>, prefix: string): Expression<SqlBool> {
  const pattern = `${likeContains(prefix).slice(1)}`;
  return isPostgres(db) ? sql<SqlBool>`${target} ilike ${pattern} escape '\\'` : sql<SqlBool>`${target} like ${pattern} escape '\\'`;
}

/** A text test on a nullable text: the negative operators hold for a missing value too. */
function textTest(db: Executor, target: Expression<unknown>, op: TextOp, value = ''): Expression<SqlBool> {
  switch (op) {
    case 'equals':
      return sql<SqlBool>`${lower(target)} = ${value.toLowerCase()}`;
    case 'notEquals':
      return sql<SqlBool>`(${target} is null or ${lower(target)} <> ${value.toLowerCase()})`;
    case 'contains':
      return containsInsensitive(db, target, value);
    case 'notContains':
      return sql<SqlBool>`(${target} is null or not (${containsInsensitive(db, target, value)}))`;
    case 'startsWith':
      return startsWith(db, target, value);
    case 'isEmpty':
      return sql<SqlBool>`(${target} is null or ${target} = '')`;
    case 'isNotEmpty':
      return sql<SqlBool>`(${target} is not null and ${target} <> '')`;
  }
}

/** The stored text of a number value as a number; PostgreSQL's cast would fail on anything else. */
const numeric = (db: Executor, value: Expression<unknown>) =>
  isPostgres(db)
    ? sql`(case when ${value} ~ '^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$' then cast(${value} as double precision) end)`
    : sql`cast(${value} as real)`;

/**
 * How a relation condition reaches its rows: `in` reads the relation's rows for the workspace once
 * (a set SQLite probes with a bloom filter while walking the workspace's contacts); `exists`
 * probes one contact's rows by its contact-id index, cheaper when few contacts are tested (those a
 * driving condition found, see `compileFilter`).
 */
type Probe = 'in' | 'exists';

/** Contacts with a value of the field passing `test`. */
function withFieldValue(workspaceId: number, fieldId: number, probe: Probe, test: (value: RawBuilder<unknown>) => Expression<SqlBool>): Expression<SqlBool> {
  const value = sql.ref('v.value') as unknown as RawBuilder<unknown>;
  if (probe === 'exists') {
    return sql<SqlBool>`exists (select 1 from contact_custom_fields v where v.contact_id = contacts.id and v.custom_field_id = ${fieldId} and ${sameWorkspace('v.workspace_id', workspaceId)} and ${test(value)})`;
  }
  // workspace_id and custom_field_id lead the (workspace_id, custom_field_id, value) index, so the
  // subquery reads only this field's values in this workspace, and an equals only the matching ones.
  return sql<SqlBool>`contacts.id in (select v.contact_id from contact_custom_fields v where v.workspace_id = ${workspaceId} and v.custom_field_id = ${fieldId} and ${test(value)})`;
}

function customFieldTest(db: Executor, workspaceId: number, c: Extract<CheckedCondition, { kind: 'customField' }>, probe: Probe): Expression<SqlBool> {
  const has = (test: (value: RawBuilder<unknown>) => Expression<SqlBool>) => withFieldValue(workspaceId, c.fieldId, probe, test);
  const not = (e: Expression<SqlBool>) => sql<SqlBool>`not (${e})`;
  switch (c.op) {
    // Exact, on the canonical text: served by the (field, value) index (as find-by-custom-field).
    case 'equals':
    case 'is':
      return has((v) => sql<SqlBool>`${v} = ${String(c.value)}`);
    case 'notEquals':
      return not(has((v) => sql<SqlBool>`${v} = ${String(c.value)}`));
    case 'in':
      return has((v) => sql<SqlBool>`${v} in (${sql.join(c.values ?? [])})`);
    case 'contains':
      return has((v) => containsInsensitive(db, v, String(c.value)));
    case 'notContains':
      return not(has((v) => containsInsensitive(db, v, String(c.value))));
    case 'startsWith':
      return has((v) => startsWith(db, v, String(c.value)));
    case 'isEmpty':
      return not(has((v) => sql<SqlBool>`${v} <> ''`));
    case 'isNotEmpty':
      return has((v) => sql<SqlBool>`${v} <> ''`);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const symbol = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[c.op];
      return has((v) => sql<SqlBool>`${numeric(db, v)} ${sql.raw(symbol)} ${Number(c.value)}`);
    }
    case 'range':
      // Dates (YYYY-MM-DD) and datetimes (UTC ISO with milliseconds) are stored canonical, so their
      // text order is their time order.
      return has((v) => sql<SqlBool>`${c.from === undefined ? always : sql`${v} >= ${c.from}`} and ${c.to === undefined ? always : sql`${v} < ${c.to}`}`);
  }
}

/** The contacts of a relation: the workspace's link rows for those ids (the link tables' own indexes). */
function relationTest(db: Executor, workspaceId: number, c: Extract<CheckedCondition, { kind: 'relation' }>, probe: Probe): Expression<SqlBool> {
  const [table, column] = c.relation === 'tags' ? (['contact_tags', 'tag_id'] as const) : (['contact_inboxes', 'inbox_id'] as const);
  const ids = sql.join(c.ids);
  if (probe === 'exists') {
    const mine = sql`from ${sql.table(table)} l where l.contact_id = contacts.id and l.${sql.ref(column)} in (${ids}) and ${sameWorkspace('l.workspace_id', workspaceId)}`;
    if (c.op === 'hasAll') return sql<SqlBool>`(select count(*) ${mine}) = ${c.ids.length}`;
    return c.op === 'hasAny' ? sql<SqlBool>`exists (select 1 ${mine})` : sql<SqlBool>`not exists (select 1 ${mine})`;
  }
  // SQLite would walk the workspace index instead of the ids' own, so the workspace is a plain
  // filter there; PostgreSQL estimates how many contacts the links hold from the column's
  // statistics (hidden behind `+`, it guessed a handful, and sorted every match for one page).
  const inWorkspace = isPostgres(db) ? sql<SqlBool>`l.workspace_id = ${workspaceId}` : sameWorkspace('l.workspace_id', workspaceId);
  const links = sql`select l.contact_id from ${sql.table(table)} l where l.${sql.ref(column)} in (${ids}) and ${inWorkspace}`;
  switch (c.op) {
    case 'hasAny':
      return sql<SqlBool>`contacts.id in (${links})`;
    case 'hasNone':
      return sql<SqlBool>`contacts.id not in (${links})`;
    case 'hasAll':
      // (contact_id, tag_id) and (contact_id, inbox_id) are unique, so counting links counts ids.
      return sql<SqlBool>`contacts.id in (${links} group by l.contact_id having count(*) = ${c.ids.length})`;
  }
}

/** The keyword filter of the list: LIKE decides; the workspace's trigram tokens narrow the rows asked. */
function keywordTest(db: Executor, workspaceId: number, keyword: string): Expression<SqlBool> {
  const text = sql`coalesce(contacts.first_name, '') || ' ' || coalesce(contacts.last_name, '') || ' ' || coalesce(contacts.email, '') || ' ' || coalesce(contacts.phone_number, '')`;
  const like = containsInsensitive(db, text, keyword);
  if (!usesTrigramIndex(keyword)) return like;
  const candidates = isPostgres(db)
    ? postgresTrigramCandidates(workspaceId, keyword)
    : sql<SqlBool>`contacts.id in ${sqliteTrigramMatches('contacts', workspaceId, keyword)}`;
  return sql<SqlBool>`(${candidates} and ${like})`;
}

export function compileCondition(db: Executor, workspaceId: number, c: CheckedCondition, probe: Probe = 'in'): Expression<SqlBool> {
  switch (c.kind) {
    case 'and':
    case 'or':
      if (c.children.length === 0) return c.kind === 'and' ? always : sql<SqlBool>`1 = 0`;
      return sql<SqlBool>`(${sql.join(c.children.map((child) => compileCondition(db, workspaceId, child, probe)), sql.raw(c.kind === 'and' ? ' and ' : ' or '))})`;
    case 'not':
      // A missing value makes the inner test null, and not(null) is null: coalesce keeps "not"
      // meaning "every contact the inner condition does not return".
      return sql<SqlBool>`not coalesce(${compileCondition(db, workspaceId, c.child, probe)}, false)`;
    case 'column':
      return textTest(db, sql.ref(`contacts.${c.column}`), c.op, c.value);
    case 'gender':
      return c.op === 'notEquals'
        ? sql<SqlBool>`contacts.gender <> ${c.values[0]}`
        : sql<SqlBool>`contacts.gender in (${sql.join(c.values)})`;
    case 'flag':
      if (c.field === 'blocked') return c.value ? sql<SqlBool>`contacts.blocked_at is not null` : sql<SqlBool>`contacts.blocked_at is null`;
      return sql<SqlBool>`${sql.ref(c.field === 'emailOptIn' ? 'contacts.email_opt_in' : 'contacts.email_verified')} = ${bool(c.value)}`;
    case 'instant': {
      const column = sql.ref(`contacts.${c.column}`);
      if (c.op === 'isEmpty') return sql<SqlBool>`${column} is null`;
      if (c.op === 'isNotEmpty') return sql<SqlBool>`${column} is not null`;
      const parts = [c.from === undefined ? null : sql`${column} >= ${c.from}`, c.to === undefined ? null : sql`${column} < ${c.to}`].filter((p) => p !== null);
      return parts.length ? sql<SqlBool>`(${sql.join(parts, sql` and `)})` : always;
    }
    case 'relation':
      return relationTest(db, workspaceId, c, probe);
    case 'keyword':
      return keywordTest(db, workspaceId, c.keyword);
    case 'customField':
      return customFieldTest(db, workspaceId, c, probe);
  }
}

/** A compiled filter, and how its statements select the workspace's contacts. */
export interface ContactFilterSql {
  where: Expression<SqlBool>;
  /**
   * SQLite, when a top-level condition names a relation the contact must have (a tag, an inbox, a
   * custom-field value): the statements start from that relation's contacts, looked up by id, and
   * check the workspace as a plain filter (`sameWorkspace`). The other relation conditions then
   * probe each of those contacts (`exists`). Otherwise they walk the workspace's contacts in list
   * order (`workspace_id = ?`) and test relations against sets read once (`in`). On a large
   * workspace, driven by a relation is the faster of the two (bench/README.md).
   */
  drivenByRelation: boolean;
}

const drivesSearch = (c: CheckedCondition) =>
  (c.kind === 'relation' && c.op !== 'hasNone') ||
  (c.kind === 'customField' && !['notEquals', 'notContains', 'isEmpty'].includes(c.op));

const topLevelAnd = (c: CheckedCondition): CheckedCondition[] => (c.kind === 'and' ? c.children.flatMap(topLevelAnd) : [c]);

/**
 * `walk` compiles the list-order form whatever the conditions: every relation probed per contact,
 * for a page near the front of many matches (contact-search.service.ts decides).
 */
export function compileFilter(db: Executor, workspaceId: number, c: CheckedCondition, plan: 'auto' | 'walk' = 'auto'): ContactFilterSql {
  if (plan === 'walk') return { where: compileCondition(db, workspaceId, c, 'exists'), drivenByRelation: false };
  const parts = topLevelAnd(c);
  const driver = isPostgres(db) ? -1 : parts.findIndex(drivesSearch);
  // PostgreSQL plans its semi-joins from statistics, from the workspace index.
  if (driver < 0) return { where: compileCondition(db, workspaceId, c), drivenByRelation: false };
  const compiled = parts.map((part, i) => compileCondition(db, workspaceId, part, i === driver ? 'in' : 'exists'));
  return { where: sql<SqlBool>`(${sql.join(compiled, sql` and `)})`, drivenByRelation: true };
}

const inWorkspace = (f: ContactFilterSql, workspaceId: number): Expression<SqlBool> =>
  f.drivenByRelation ? sameWorkspace('contacts.workspace_id', workspaceId) : sql<SqlBool>`contacts.workspace_id = ${workspaceId}`;

/**
 * The workspace's contacts matching the filter: the count, and one page newest first (creation
 * time, then id). Every statement is limited to the workspace's contacts: walked along the
 * (workspace_id, created_at) index, or found through a relation's rows of the workspace.
 */
export async function countMatchingContacts(db: Executor, workspaceId: number, filter: ContactFilterSql): Promise<number> {
  const row = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(inWorkspace(filter, workspaceId))
    .where(filter.where)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function pageOfMatchingContacts(
  db: Executor,
  workspaceId: number,
  filter: ContactFilterSql,
  window: { limit: number; offset: number },
): Promise<ContactScalars[]> {
  const rows = await db
    .selectFrom('contacts')
    .select(contactColumns.map((c) => `contacts.${c}` as const))
    .where(inWorkspace(filter, workspaceId))
    .where(filter.where)
    .orderBy('contacts.created_at', 'desc')
    .orderBy('contacts.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toContactScalars);
}

/** Keyset form for the GraphQL connection: newest first, after the last contact of the previous page. */
export async function keysetOfMatchingContacts(
  db: Executor,
  workspaceId: number,
  filter: ContactFilterSql,
  window: { limit: number; after?: { createdAt: string; id: number } },
): Promise<ContactScalars[]> {
  let q = db
    .selectFrom('contacts')
    .select(contactColumns.map((c) => `contacts.${c}` as const))
    .where(inWorkspace(filter, workspaceId))
    .where(filter.where);
  const after = window.after;
  if (after) q = q.where((eb) => eb(eb.refTuple('contacts.created_at', 'contacts.id'), '<', eb.tuple(after.createdAt, after.id)));
  const rows = await q.orderBy('contacts.created_at', 'desc').orderBy('contacts.id', 'desc').limit(window.limit).execute();
  return rows.map(toContactScalars);
}
