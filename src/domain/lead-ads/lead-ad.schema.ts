import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { replySchema } from '../automations/comment-automation.schema.js';

/** Lead-ad automation as GraphQL lists it (the contract specifies only its deletion). */
export const leadAdAutomationSchema = z
  .object({
    id: digitId,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    name: z.string(),
    pageId: z.string().nullable(),
    formIds: z.array(z.string()),
    isActive: z.boolean(),
    reply: replySchema,
  })
  .meta({ id: 'LeadAdAutomation' });
export type LeadAdAutomation = z.infer<typeof leadAdAutomationSchema>;
