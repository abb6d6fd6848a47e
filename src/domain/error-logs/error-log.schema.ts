import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { pageQueryFields } from '../shared/pagination.js';

export const errorLogSchema = z
  .object({
    id: digitId,
    workspaceId: digitId,
    contactId: z.string().meta({ description: 'Digit-string id of the contact, or "" when none' }),
    action: z.string(),
    detail: z.string(),
    httpCode: z.string(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'ErrorLog' });
export type ErrorLog = z.infer<typeof errorLogSchema>;

export const errorLogsQuery = z.strictObject({
  ...pageQueryFields,
  keyword: z.string().max(255).optional().meta({ description: 'Case-insensitive substring of the message (detail or action)' }),
});

export const errorLogPageSchema = z.object({ data: z.array(errorLogSchema), pageCount: z.number().int() }).meta({ id: 'ErrorLogPage' });
