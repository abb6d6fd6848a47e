import type { Selectable } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Executor } from '../../db/database.js';
import { containsInsensitive } from '../../db/search.js';
import type { LeadAdAutomationsTable } from '../../db/types.js';
import { bool, idString, nowIso, parseJson, toBool } from '../../db/values.js';
import { sameWorkspace } from '../shared/scope.js';
import type { LeadAdRecord } from './lead-ad.schema.js';

const toLeadAd = (r: Selectable<LeadAdAutomationsTable>): LeadAdRecord => ({
  id: idString(r.id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  name: r.name,
  pageId: r.page_id,
  formIds: parseJson<string[]>(r.form_ids),
  isActive: toBool(r.is_active),
  reply: parseJson(r.reply),
});

const filtered = (db: Executor, workspaceId: number, keyword: string | undefined) => {
  const q = db.selectFrom('lead_ad_automations').where('workspace_id', '=', workspaceId);
  return keyword ? q.where(containsInsensitive(db, 'name', keyword)) : q;
};

export async function countLeadAdAutomations(db: Executor, workspaceId: number, keyword?: string): Promise<number> {
  return countRows(filtered(db, workspaceId, keyword));
}

/** Newest first, ties by id (newest id first): a stable order for page-number pagination. */
export async function listLeadAdAutomations(db: Executor, workspaceId: number, opts: { keyword?: string; limit: number; offset: number }): Promise<LeadAdRecord[]> {
  const rows = await filtered(db, workspaceId, opts.keyword)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return rows.map(toLeadAd);
}

/** Lead-ad automations by id in one statement; only this workspace's. */
export async function leadAdAutomationsByIds(db: Executor, workspaceId: number, ids: readonly number[]): Promise<LeadAdRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('lead_ad_automations').selectAll().where(sameWorkspace('workspace_id', workspaceId)).where('id', 'in', [...ids]).execute();
  return rows.map(toLeadAd);
}

export async function findLeadAdAutomation(db: Executor, workspaceId: number, id: number): Promise<LeadAdRecord | null> {
  return (await leadAdAutomationsByIds(db, workspaceId, [id]))[0] ?? null;
}

export interface LeadAdValues {
  name: string;
  pageId: string;
  formIds: string[];
  isActive: boolean;
  reply: LeadAdRecord['reply'];
}

const columnsOf = (v: LeadAdValues) => ({ name: v.name, page_id: v.pageId, form_ids: JSON.stringify(v.formIds), is_active: bool(v.isActive), reply: JSON.stringify(v.reply) });

export async function insertLeadAdAutomation(db: Executor, workspaceId: number, v: LeadAdValues): Promise<LeadAdRecord> {
  const now = nowIso();
  const row = await db
    .insertInto('lead_ad_automations')
    .values({ workspace_id: workspaceId, ...columnsOf(v), created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toLeadAd(row);
}

/** Writes every column (the service merged the change); null when the workspace has no such automation. */
export async function updateLeadAdAutomation(db: Executor, workspaceId: number, id: number, v: LeadAdValues): Promise<LeadAdRecord | null> {
  const row = await db
    .updateTable('lead_ad_automations')
    .set({ ...columnsOf(v), updated_at: nowIso() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toLeadAd(row) : null;
}

/** Permanent deletion (claims, mappings, tags and sequences go with it); false when there is no such automation in this workspace. */
export async function deleteLeadAdAutomation(db: Executor, workspaceId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('lead_ad_automations').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---------------------------------------------------------------------------------------------
// Form claims: one automation per page and form (`*`: every form of the page)

export interface FormClaim {
  formId: string;
  automationId: string;
  automationName: string;
}

/**
 * Claims of other automations that collide with answering `formIds` of the page: the same forms or
 * the page's `*`; with `*`, every claim on the page. In form order, then automation.
 */
export async function collidingClaims(db: Executor, workspaceId: number, pageId: string, formIds: readonly string[], exceptAutomationId: number | null): Promise<FormClaim[]> {
  let q = db
    .selectFrom('lead_ad_form_claims as c')
    .innerJoin('lead_ad_automations as a', 'a.id', 'c.automation_id')
    .select(['c.form_id', 'c.automation_id', 'a.name'])
    .where('c.workspace_id', '=', workspaceId)
    .where('c.page_id', '=', pageId);
  if (!formIds.includes('*')) q = q.where('c.form_id', 'in', [...formIds, '*']);
  if (exceptAutomationId !== null) q = q.where('c.automation_id', '<>', exceptAutomationId);
  const rows = await q.orderBy('c.form_id').orderBy('c.automation_id').execute();
  return rows.map((r) => ({ formId: r.form_id, automationId: idString(r.automation_id), automationName: r.name }));
}

/** Claims of active automations of the workspace on any of these forms of the page (`pageId`: the network's page id, as claims store it). */
export async function activeClaimsOfForms(db: Executor, workspaceId: number, pageId: string, formIds: readonly string[]): Promise<{ automationId: number; formId: string }[]> {
  const claims = await db
    .selectFrom('lead_ad_form_claims as c')
    .innerJoin('lead_ad_automations as a', 'a.id', 'c.automation_id')
    .select(['c.automation_id', 'c.form_id'])
    .where('c.workspace_id', '=', workspaceId)
    .where('a.workspace_id', '=', workspaceId)
    .where('c.page_id', '=', pageId)
    .where('c.form_id', 'in', [...formIds])
    .where('a.is_active', '=', 1)
    .execute();
  return claims.map((c) => ({ automationId: c.automation_id, formId: c.form_id }));
}

/** The automation answers exactly these forms of the page from now on. */
export async function replaceClaims(db: Executor, workspaceId: number, automationId: number, pageId: string, formIds: readonly string[]): Promise<void> {
  await db.deleteFrom('lead_ad_form_claims').where('workspace_id', '=', workspaceId).where('automation_id', '=', automationId).execute();
  if (formIds.length === 0) return;
  await db
    .insertInto('lead_ad_form_claims')
    .values(formIds.map((formId) => ({ workspace_id: workspaceId, automation_id: automationId, page_id: pageId, form_id: formId })))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Relations: field mappings, tags, sequences (rows in the order given)

export interface FieldMappingRecord {
  automationId: string;
  questionKey: string;
  customFieldId: string;
}

export interface RelatedIdRecord {
  automationId: string;
  id: string;
}

/** Field mappings of many automations in one statement, in the order they were given. */
export async function fieldMappingsFor(db: Executor, workspaceId: number, automationIds: readonly number[]): Promise<FieldMappingRecord[]> {
  if (automationIds.length === 0) return [];
  const rows = await db
    .selectFrom('lead_ad_field_mappings')
    .select(['automation_id', 'question_key', 'custom_field_id'])
    .where('automation_id', 'in', [...automationIds])
    .where(sameWorkspace('workspace_id', workspaceId))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ automationId: idString(r.automation_id), questionKey: r.question_key, customFieldId: idString(r.custom_field_id) }));
}

/** Live tag ids of many automations in one statement (a deleted tag leaves them), in the order given. */
export async function tagIdsFor(db: Executor, workspaceId: number, automationIds: readonly number[]): Promise<RelatedIdRecord[]> {
  if (automationIds.length === 0) return [];
  const rows = await db
    .selectFrom('lead_ad_tags as l')
    .innerJoin('tags as t', 't.id', 'l.tag_id')
    .select(['l.automation_id', 'l.tag_id'])
    .where('l.automation_id', 'in', [...automationIds])
    .where(sameWorkspace('l.workspace_id', workspaceId))
    .where('t.deleted_at', 'is', null)
    .orderBy('l.id')
    .execute();
  return rows.map((r) => ({ automationId: idString(r.automation_id), id: idString(r.tag_id) }));
}

/** Sequence ids of many automations in one statement, in the order given. */
export async function sequenceIdsFor(db: Executor, workspaceId: number, automationIds: readonly number[]): Promise<RelatedIdRecord[]> {
  if (automationIds.length === 0) return [];
  const rows = await db
    .selectFrom('lead_ad_sequences')
    .select(['automation_id', 'sequence_id'])
    .where('automation_id', 'in', [...automationIds])
    .where(sameWorkspace('workspace_id', workspaceId))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ automationId: idString(r.automation_id), id: idString(r.sequence_id) }));
}

/** Replaces the automation's mappings, tags and sequences with these (ids known to be the workspace's). */
export async function replaceRelations(
  db: Executor,
  workspaceId: number,
  automationId: number,
  r: { fieldMappings: { questionKey: string; customFieldId: number }[]; tagIds: number[]; sequenceIds: number[] },
): Promise<void> {
  const owner = { workspace_id: workspaceId, automation_id: automationId };
  for (const table of ['lead_ad_field_mappings', 'lead_ad_tags', 'lead_ad_sequences'] as const) {
    await db.deleteFrom(table).where('workspace_id', '=', workspaceId).where('automation_id', '=', automationId).execute();
  }
  if (r.fieldMappings.length > 0) {
    await db.insertInto('lead_ad_field_mappings').values(r.fieldMappings.map((m) => ({ ...owner, question_key: m.questionKey, custom_field_id: m.customFieldId }))).execute();
  }
  if (r.tagIds.length > 0) await db.insertInto('lead_ad_tags').values(r.tagIds.map((id) => ({ ...owner, tag_id: id }))).execute();
  if (r.sequenceIds.length > 0) await db.insertInto('lead_ad_sequences').values(r.sequenceIds.map((id) => ({ ...owner, sequence_id: id }))).execute();
}
