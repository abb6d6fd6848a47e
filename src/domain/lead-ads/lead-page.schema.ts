import { z } from 'zod';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { networkId } from './lead-ad.schema.js';

/** The connected pages of the social network and their lead forms (GET /v1/net-lead-ads/pages and /forms). */

export const leadQuestionSchema = z
  .object({ key: z.string(), label: z.string(), type: z.string().meta({ description: 'The network\'s question type: FULL_NAME, EMAIL, PHONE, CUSTOM, ...' }) })
  .meta({ id: 'LeadFormQuestion' });
export type LeadQuestion = z.infer<typeof leadQuestionSchema>;

export const leadFormStatusSchema = z.enum(['active', 'archived']).meta({ id: 'LeadFormStatus' });

export const leadPageSchema = z
  .object({
    id: z.string().meta({ description: "The network's page id: an automation's pageId" }),
    name: z.string(),
    inboxId: digitId.nullable().meta({ description: 'The inbox the page is connected through' }),
    formsCount: z.number().int().meta({ description: 'Its lead forms, archived ones included' }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'LeadPage' });
export type LeadPage = z.infer<typeof leadPageSchema>;

export const leadFormSchema = z
  .object({
    id: z.string().meta({ description: "The network's form id: an entry of an automation's formIds" }),
    pageId: z.string(),
    name: z.string(),
    status: leadFormStatusSchema,
    questions: z.array(leadQuestionSchema),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'LeadForm' });
export type LeadForm = z.infer<typeof leadFormSchema>;

export const leadPagePageSchema = z.object({ data: z.array(leadPageSchema), pageCount: z.number().int() }).meta({ id: 'LeadPagePage' });
export const leadFormPageSchema = z.object({ data: z.array(leadFormSchema), pageCount: z.number().int() }).meta({ id: 'LeadFormPage' });

export const leadPagesQuery = z.strictObject({ ...pageQueryFields });
export const leadFormsQuery = z.strictObject({
  pageId: networkId.meta({ description: 'The page whose forms to list (required; an unknown page is 404)' }),
  ...pageQueryFields,
});
