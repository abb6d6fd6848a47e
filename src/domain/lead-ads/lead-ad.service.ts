import type { Executor } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import { idNumber } from '../../db/values.js';
import { AppError, notFound, unknownReferences } from '../../errors/catalogue.js';
import { parseOrThrow } from '../../errors/validation.js';
import { customFieldsByIds } from '../custom-fields/custom-field.repository.js';
import { sequenceIdsAmong } from '../sequences/sequence.repository.js';
import { groupBy } from '../shared/group.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { liveTagIdsAmong } from '../tags/tag.repository.js';
import { distinctIds } from '../tags/tag.service.js';
import {
  collidingClaims,
  countLeadAdAutomations,
  deleteLeadAdAutomation,
  fieldMappingsFor,
  findLeadAdAutomation,
  insertLeadAdAutomation,
  listLeadAdAutomations,
  replaceClaims,
  replaceRelations,
  sequenceIdsFor,
  tagIdsFor,
  updateLeadAdAutomation,
  type FormClaim,
} from './lead-ad.repository.js';
import { createLeadAdInput, EVERY_FORM, type CreateLeadAdInput, type LeadAdAutomation, type LeadAdRecord, type UpdateLeadAdInput } from './lead-ad.schema.js';
import { allFormsOfPage, findLeadPageRowId } from './lead-page.repository.js';

/**
 * Lead-ad automations. One automation per page and form: each automation's forms are claimed as
 * rows of lead_ad_form_claims (`*` claims the page's every form) in the transaction that saves it,
 * after the page's row is locked (PostgreSQL; SQLite runs one writer at a time), so two saves for
 * the same page take turns and the second sees the first's claims. The unique index on
 * (workspace, page, form) backs that up for identical forms.
 */

const NOT_FOUND = 'Lead-ad automation';

/** The automations with their mappings, tags and sequences (three statements for any number). */
async function withRelations(db: Executor, workspaceId: number, records: LeadAdRecord[]): Promise<LeadAdAutomation[]> {
  const keys = records.map((r) => Number(r.id));
  const mappings = groupBy(await fieldMappingsFor(db, workspaceId, keys), (m) => m.automationId);
  const tags = groupBy(await tagIdsFor(db, workspaceId, keys), (t) => t.automationId);
  const sequences = groupBy(await sequenceIdsFor(db, workspaceId, keys), (s) => s.automationId);
  return records.map((r) => ({
    ...r,
    fieldMappings: (mappings.get(r.id) ?? []).map(({ questionKey, customFieldId }) => ({ questionKey, customFieldId })),
    tagIds: (tags.get(r.id) ?? []).map((t) => t.id),
    sequenceIds: (sequences.get(r.id) ?? []).map((s) => s.id),
  }));
}

/** The workspace's lead-ad automations, newest first, optionally those whose name contains `keyword` (any case). */
export async function listLeadAdsPage(db: Executor, workspaceId: number, p: PageRequest & { keyword?: string }): Promise<Page<LeadAdAutomation>> {
  const keyword = p.keyword || undefined;
  const page = await fetchPage(p, () => countLeadAdAutomations(db, workspaceId, keyword), (w) => listLeadAdAutomations(db, workspaceId, { ...w, keyword }));
  return { data: await withRelations(db, workspaceId, page.data), pageCount: page.pageCount };
}

/** A page of the automations without their relations (GraphQL loads those per field). */
export const listLeadAdRecordsPage = (db: Executor, workspaceId: number, p: PageRequest & { keyword?: string }): Promise<Page<LeadAdRecord>> =>
  fetchPage(
    p,
    () => countLeadAdAutomations(db, workspaceId, p.keyword || undefined),
    (w) => listLeadAdAutomations(db, workspaceId, { ...w, keyword: p.keyword || undefined }),
  );

async function findOr404(db: Executor, workspaceId: number, id: string): Promise<LeadAdRecord> {
  const key = idNumber(id);
  const found = key === null ? null : await findLeadAdAutomation(db, workspaceId, key);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

export async function getLeadAd(db: Executor, workspaceId: number, id: string): Promise<LeadAdAutomation> {
  return (await withRelations(db, workspaceId, [await findOr404(db, workspaceId, id)]))[0];
}

/** 422 validation: these forms of the page already belong to other automations (`data.claims` names each form and its automation). */
const formsAlreadyClaimed = (pageId: string, claims: FormClaim[]) =>
  new AppError('validation', { data: { field: 'formIds', reason: 'alreadyClaimed', pageId, claims } });

/** Keys of the ids that `existing` finds; otherwise 422 validation naming the field and every unknown id. */
async function referenced(field: string, ids: readonly string[], existing: (keys: number[]) => Promise<readonly (number | string)[]>): Promise<number[]> {
  const { keys, impossible } = distinctIds(ids);
  const found = new Set((await existing(keys)).map(Number));
  const missing = new Set([...impossible, ...keys.filter((k) => !found.has(k)).map(String)]);
  if (missing.size > 0) throw unknownReferences(field, [...new Set(ids)].filter((id) => missing.has(id)));
  return keys;
}

/**
 * Checks an automation's references inside the transaction, then claims its forms and writes its
 * relations. Order of the checks: the page, its forms, the question keys, custom fields, tags,
 * sequences, and last the claims of other automations.
 */
async function save(trx: Executor, workspaceId: number, input: CreateLeadAdInput, existingId: number | null): Promise<LeadAdAutomation> {
  const pageRowId = await findLeadPageRowId(trx, workspaceId, input.pageId, { lock: true });
  if (pageRowId === null) throw unknownReferences('pageId', [input.pageId]);
  const forms = await allFormsOfPage(trx, workspaceId, pageRowId);
  const everyForm = input.formIds.includes(EVERY_FORM);
  if (!everyForm) {
    const known = new Set(forms.map((f) => f.id));
    const unknown = input.formIds.filter((id) => !known.has(id));
    if (unknown.length > 0) throw unknownReferences('formIds', unknown);
  }
  // With `*`, a key must be asked by some form of the page: the forms it answers are all of them.
  const chosen = everyForm ? forms : forms.filter((f) => input.formIds.includes(f.id));
  const asked = new Set(chosen.flatMap((f) => f.questions.map((q) => q.key)));
  const unasked = input.fieldMappings.map((m) => m.questionKey).filter((k) => !asked.has(k));
  if (unasked.length > 0) throw new AppError('validation', { data: { field: 'fieldMappings.questionKey', reason: 'notAQuestion', keys: unasked } });

  await referenced(
    'fieldMappings.customFieldId',
    input.fieldMappings.map((m) => m.customFieldId),
    async (keys) => (await customFieldsByIds(trx, workspaceId, keys)).map((f) => f.id),
  );
  const tagKeys = await referenced('tagIds', input.tagIds, (keys) => liveTagIdsAmong(trx, workspaceId, keys));
  const sequenceKeys = await referenced('sequenceIds', input.sequenceIds, (keys) => sequenceIdsAmong(trx, workspaceId, keys));

  const claims = await collidingClaims(trx, workspaceId, input.pageId, input.formIds, existingId);
  if (claims.length > 0) throw formsAlreadyClaimed(input.pageId, claims);

  const values = { name: input.name, pageId: input.pageId, formIds: input.formIds, isActive: input.isActive, reply: input.reply };
  const record = existingId === null ? await insertLeadAdAutomation(trx, workspaceId, values) : await updateLeadAdAutomation(trx, workspaceId, existingId, values);
  if (!record) throw notFound(NOT_FOUND);
  const key = Number(record.id);
  await replaceClaims(trx, workspaceId, key, input.pageId, input.formIds);
  const fieldMappings = input.fieldMappings.map((m) => ({ questionKey: m.questionKey, customFieldId: Number(m.customFieldId) }));
  await replaceRelations(trx, workspaceId, key, { fieldMappings, tagIds: tagKeys, sequenceIds: sequenceKeys });
  return {
    ...record,
    fieldMappings: input.fieldMappings.map(({ questionKey, customFieldId }) => ({ questionKey, customFieldId })),
    tagIds: tagKeys.map(String),
    sequenceIds: sequenceKeys.map(String),
  };
}

/**
 * Runs a save; a unique-index violation of the claims (a race the page lock did not serialise) is
 * the same 422 as the check inside, naming the automations that hold the forms now.
 */
async function claimingForms(db: Executor, workspaceId: number, input: CreateLeadAdInput, existingId: number | null): Promise<LeadAdAutomation> {
  try {
    return await db.transaction().execute((trx) => save(trx, workspaceId, input, existingId));
  } catch (err) {
    if (!uniqueViolation(err)?.includes('lead_ad_form_claims')) throw err;
    // Read after the rollback: the automation that won holds the forms now.
    throw formsAlreadyClaimed(input.pageId, await collidingClaims(db, workspaceId, input.pageId, input.formIds, existingId));
  }
}

/** A new automation answering the page's forms. Input is validated by `createLeadAdInput`. */
export const createLeadAd = (db: Executor, workspaceId: number, input: CreateLeadAdInput): Promise<LeadAdAutomation> => claimingForms(db, workspaceId, input, null);

/**
 * Changes the given fields, each replaced whole; the merged automation must pass the create
 * schema (422 invalidRequestData at `issuesAt` + the field otherwise: an automation saved before
 * pages were connected must be given its pageId) and the create rules. Claims, mappings, tags and
 * sequences are rewritten in the same transaction. Nothing is stored on any error.
 */
export async function updateLeadAd(db: Executor, workspaceId: number, id: string, patch: UpdateLeadAdInput, issuesAt: (string | number)[] = []): Promise<LeadAdAutomation> {
  const current = await getLeadAd(db, workspaceId, id);
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const merged = parseOrThrow(
    createLeadAdInput,
    {
      name: current.name,
      ...(current.pageId !== null ? { pageId: current.pageId } : {}),
      formIds: current.formIds,
      fieldMappings: current.fieldMappings,
      reply: current.reply,
      tagIds: current.tagIds,
      sequenceIds: current.sequenceIds,
      isActive: current.isActive,
      ...defined,
    },
    issuesAt,
  );
  return claimingForms(db, workspaceId, merged, Number(current.id));
}

/**
 * Deletes the row itself (claims, mappings, tags and sequences cascade): nothing is left that could
 * match a new lead, so replying stops at once. Unknown ids, and other workspaces' ids, are 404.
 */
export async function deleteNetLeadAd(db: Executor, workspaceId: number, id: string): Promise<{ success: true }> {
  const key = idNumber(id);
  if (key === null || !(await deleteLeadAdAutomation(db, workspaceId, key))) throw notFound(NOT_FOUND);
  return { success: true };
}
