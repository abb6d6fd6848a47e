import { z } from 'zod';
import { channelSchema, inboxSchema } from '../contacts/contact.schema.js';
import { pageQueryFields } from '../shared/pagination.js';

export { inboxSchema };

/**
 * What PATCH /v1/inboxes/{id} may set: `active` (the inbox receives and sends) or `inactive`
 * (switched off). Inboxes made by the demo data and the seeds are `active`.
 */
export const inboxStatuses = ['active', 'inactive'] as const;
export const inboxStatusSchema = z.enum(inboxStatuses).meta({ id: 'InboxStatus' });

export const listInboxesQuery = z.strictObject({
  ...pageQueryFields,
  channel: channelSchema.optional().meta({ description: 'Only inboxes of this channel (exact match), e.g. chat' }),
});
export type ListInboxesQuery = z.infer<typeof listInboxesQuery>;

export const inboxListSchema = z.object({ data: z.array(inboxSchema), pageCount: z.number().int().min(0) }).meta({ id: 'InboxList' });

export const inboxNameSchema = z.string().trim().min(1, 'name must not be empty').max(255, 'name must be at most 255 characters');

export const updateInboxInput = z
  .strictObject({ name: inboxNameSchema.optional(), status: inboxStatusSchema.optional() })
  .refine((i) => i.name !== undefined || i.status !== undefined, { message: 'Provide name or status' })
  .meta({ id: 'UpdateInboxInput', description: 'At least one of name and status.', anyOf: [{ required: ['name'] }, { required: ['status'] }] });
export type UpdateInboxInput = z.infer<typeof updateInboxInput>;

export const channelSummarySchema = z
  .object({
    channel: z.string(),
    inboxCount: z.number().int().min(0).meta({ description: "The workspace's inboxes on this channel" }),
    contactCount: z.number().int().min(0).meta({ description: 'Distinct contacts in at least one of those inboxes' }),
  })
  .meta({ id: 'ChannelSummary' });

export const channelListSchema = z.object({ data: z.array(channelSummarySchema) }).meta({ id: 'ChannelList' });
