import type { Executor } from '../../db/database.js';
import { activeClaimsOfForms, fieldMappingsFor, findLeadAdAutomation, sequenceIdsFor, tagIdsFor } from '../../domain/lead-ads/lead-ad.repository.js';
import type { LeadAdRecord } from '../../domain/lead-ads/lead-ad.schema.js';
import { EVERY_FORM } from '../../domain/lead-ads/lead-ad.schema.js';

/** An active lead-ad automation with what it does to a lead's contact. */
export interface ActingLeadAd extends LeadAdRecord {
  key: number;
  fieldMappings: { questionKey: string; customFieldId: number }[];
  tagIds: number[];
  sequenceIds: number[];
}

/**
 * The active automation of the workspace that answers leads of this page's form: the claim of that
 * form, else the page's `*` claim (the API lets only one of them exist at a time; if both ever did,
 * the specific form wins). `pageId` is the network's page id, as claims store it. A lead whose form
 * is unknown matches only `*`. Inactive automations keep their claims but answer nothing; a deleted
 * one has no claims left.
 */
export async function findActingLeadAd(db: Executor, workspaceId: number, pageId: string, formId: string | null): Promise<ActingLeadAd | null> {
  const forms = formId === null || formId === EVERY_FORM ? [EVERY_FORM] : [formId, EVERY_FORM];
  const claims = await activeClaimsOfForms(db, workspaceId, pageId, forms);
  const claim = claims.find((c) => c.formId !== EVERY_FORM) ?? claims[0];
  if (!claim) return null;
  const record = await findLeadAdAutomation(db, workspaceId, claim.automationId);
  if (!record || !record.isActive) return null;
  const key = claim.automationId;
  const [mappings, tags, sequences] = [await fieldMappingsFor(db, workspaceId, [key]), await tagIdsFor(db, workspaceId, [key]), await sequenceIdsFor(db, workspaceId, [key])];
  return {
    ...record,
    key,
    fieldMappings: mappings.map((m) => ({ questionKey: m.questionKey, customFieldId: Number(m.customFieldId) })),
    tagIds: tags.map((t) => Number(t.id)),
    sequenceIds: sequences.map((s) => Number(s.id)),
  };
}
