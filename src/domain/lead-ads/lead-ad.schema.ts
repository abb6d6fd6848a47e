import { z } from 'zod';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { replySchema } from '../comment-automations/comment-automation.schema.js';

/**
 * Lead-ad automations (REST /v1/net-lead-ads, GraphQL leadAdAutomation*): which page and forms an
 * automation answers, how the answers fill custom fields, the reply, tags and sequences.
 */

/** `*` in formIds: every form of the page, those it gains later included. */
export const EVERY_FORM = '*';

/** At most this many form ids, mappings, tag ids and sequence ids per automation. */
export const MAX_LEAD_AD_ITEMS = 100;

/** Page and form ids are the social network's own ids: digit strings. */
export const networkId = z.string().regex(/^\d{1,64}$/, 'must be a digit string of at most 64 digits');

const fieldMappingSchema = z
  .object({ questionKey: z.string(), customFieldId: digitId })
  .meta({ id: 'LeadAdFieldMapping', description: 'The answer to the form question `questionKey` is stored in the custom field `customFieldId`' });

/** The automation without its relations, as a row reads (GraphQL loads the relations itself). */
export interface LeadAdRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  pageId: string | null;
  formIds: string[];
  isActive: boolean;
  reply: z.infer<typeof replySchema>;
}

export const leadAdAutomationSchema = z
  .object({
    id: digitId,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    name: z.string(),
    pageId: z.string().nullable().meta({ description: 'The connected page (GET /v1/net-lead-ads/pages); null only on automations made before pages were connected' }),
    formIds: z.array(z.string()).meta({ description: 'Forms of the page it answers, in the order given; `["*"]` is every form of the page' }),
    isActive: z.boolean(),
    reply: replySchema,
    fieldMappings: z.array(fieldMappingSchema),
    tagIds: z.array(digitId).meta({ description: 'Tags added to the lead (live tags only)' }),
    sequenceIds: z.array(digitId).meta({ description: 'Sequences the lead is subscribed to' }),
  })
  .meta({ id: 'LeadAdAutomation' });
export type LeadAdAutomation = z.infer<typeof leadAdAutomationSchema>;

export const leadAdPageSchema = z.object({ data: z.array(leadAdAutomationSchema), pageCount: z.number().int() }).meta({ id: 'LeadAdAutomationPage' });

export const keywordField = z.string().max(255, 'keyword must be at most 255 characters').optional().meta({ description: 'Case-insensitive substring of the name' });

export const leadAdsQuery = z.strictObject({ ...pageQueryFields, keyword: keywordField });

const nameSchema = z.string().trim().min(1, 'name must not be empty').max(255, 'name must be at most 255 characters');

const formIdsSchema = z
  .array(z.string().regex(/^(\d{1,64}|\*)$/, 'must be a form id (a digit string) or *'))
  .min(1, 'formIds must hold at least one form id, or *')
  .max(MAX_LEAD_AD_ITEMS, `formIds must hold at most ${MAX_LEAD_AD_ITEMS} ids`)
  .superRefine((ids, ctx) => {
    if (ids.includes(EVERY_FORM) && ids.length > 1) {
      ctx.addIssue({ code: 'custom', message: '* (every form of the page) must be the only form id', path: [ids.indexOf(EVERY_FORM)] });
    }
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', message: `form ${id} is listed twice`, path: [i] });
    });
  })
  .meta({ description: `Forms of the page (GET /v1/net-lead-ads/forms), 1 to ${MAX_LEAD_AD_ITEMS}, each once; or exactly ["*"] for every form of the page` });

const fieldMappingsSchema = z
  .array(
    z.strictObject({
      questionKey: z.string().min(1, 'questionKey must not be empty').max(255, 'questionKey must be at most 255 characters'),
      customFieldId: digitId,
    }),
  )
  .max(MAX_LEAD_AD_ITEMS, `fieldMappings must hold at most ${MAX_LEAD_AD_ITEMS} mappings`)
  .superRefine((mappings, ctx) => {
    const keys = mappings.map((m) => m.questionKey);
    keys.forEach((key, i) => {
      if (keys.indexOf(key) !== i) ctx.addIssue({ code: 'custom', message: `question ${key} is mapped twice`, path: [i, 'questionKey'] });
    });
  })
  .meta({
    description:
      'Each question key (a question of at least one of the chosen forms; with `*`, of any form of the page) to a custom field of the workspace, each key once. The field type must accept the answers: checked when leads arrive.',
  });

const idList = (name: string, what: string) =>
  z
    .array(digitId)
    .max(MAX_LEAD_AD_ITEMS, `${name} must hold at most ${MAX_LEAD_AD_ITEMS} ids`)
    .meta({ description: `${what}, at most ${MAX_LEAD_AD_ITEMS} (duplicates count once)` });

const createShape = {
  name: nameSchema,
  pageId: networkId.meta({ description: 'A connected page of the workspace (GET /v1/net-lead-ads/pages)' }),
  formIds: formIdsSchema,
  fieldMappings: fieldMappingsSchema,
  reply: replySchema,
  tagIds: idList('tagIds', 'Live tags of the workspace to add to each lead'),
  sequenceIds: idList('sequenceIds', 'Sequences of the workspace to subscribe each lead to'),
  isActive: z.boolean(),
};

export const createLeadAdInput = z
  .strictObject({
    ...createShape,
    fieldMappings: createShape.fieldMappings.default([]),
    tagIds: createShape.tagIds.default([]),
    sequenceIds: createShape.sequenceIds.default([]),
    isActive: createShape.isActive.default(true).meta({ description: 'Whether it answers new leads (default true)' }),
  })
  .meta({ id: 'CreateLeadAdAutomationInput' });
export type CreateLeadAdInput = z.infer<typeof createLeadAdInput>;

export const updateLeadAdInput = z
  .strictObject({
    name: createShape.name.optional(),
    pageId: createShape.pageId.optional(),
    formIds: createShape.formIds.optional(),
    fieldMappings: createShape.fieldMappings.optional(),
    reply: createShape.reply.optional(),
    tagIds: createShape.tagIds.optional(),
    sequenceIds: createShape.sequenceIds.optional(),
    isActive: createShape.isActive.optional(),
  })
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), { message: 'Provide at least one field to change' })
  .meta({
    id: 'UpdateLeadAdAutomationInput',
    description: 'Any of the create fields; each given one replaces the stored value whole (lists and reply included). The result must be a valid automation.',
    minProperties: 1,
  });
export type UpdateLeadAdInput = z.infer<typeof updateLeadAdInput>;
