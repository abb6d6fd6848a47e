import { z } from 'zod';
import { contactSequenceSchema } from '../contacts/contact.schema.js';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { bulkContactIds } from '../tags/tag.schema.js';

export const sequenceSchema = z
  .object({
    id: digitId,
    name: z.string(),
    isActive: z.boolean(),
    folderId: digitId.nullable().meta({ description: 'The sequence folder it is filed in; null at the top level' }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Sequence' });
export type Sequence = z.infer<typeof sequenceSchema>;

export const sequencePageSchema = z.object({ data: z.array(sequenceSchema), pageCount: z.number().int() }).meta({ id: 'SequencePage' });

export const sequencesQuery = z.strictObject({ ...pageQueryFields });

/** A sequence name: trimmed, 1 to 255 characters; not unique (two sequences may share one). */
export const sequenceNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(255, 'name must be at most 255 characters');

export const createSequenceInput = z
  .strictObject({
    name: sequenceNameSchema,
    isActive: z.boolean().default(true).meta({ description: 'Whether the sequence runs (default true)' }),
    folderId: digitId.nullable().optional().meta({ description: 'A sequence folder to file it in; left out or null: the top level' }),
  })
  .meta({ id: 'CreateSequenceInput' });
export type CreateSequenceInput = z.infer<typeof createSequenceInput>;

export const updateSequenceInput = z
  .strictObject({
    name: sequenceNameSchema.optional(),
    isActive: z.boolean().optional(),
    folderId: digitId.nullable().optional().meta({ description: 'A sequence folder to file it in; null takes it out of its folder' }),
  })
  .refine((s) => s.name !== undefined || s.isActive !== undefined || s.folderId !== undefined, { message: 'Provide at least one of name, isActive or folderId' })
  // The refinement as JSON Schema, for the OpenAPI document (zod cannot translate a refine).
  .meta({ id: 'UpdateSequenceInput', description: 'At least one of name, isActive or folderId; fields left out keep their value.', minProperties: 1 });
export type UpdateSequenceInput = z.infer<typeof updateSequenceInput>;

/** At most this many sequence ids per call. */
export const MAX_SEQUENCES_PER_CALL = 100;

const sequenceIdList = (min: number) =>
  z
    .array(digitId)
    .min(min, `sequenceIds must hold at least ${min} id`)
    .max(MAX_SEQUENCES_PER_CALL, `sequenceIds must hold at most ${MAX_SEQUENCES_PER_CALL} ids`)
    .meta({ description: `Digit-string sequence ids, at most ${MAX_SEQUENCES_PER_CALL} (duplicates count once)` });

/** POST and DELETE /v1/contacts/{identifier}/sequences: 1 to 100 ids. */
export const contactSequenceIdsInput = z.strictObject({ sequenceIds: sequenceIdList(1) }).meta({ id: 'ContactSequenceIdsInput' });
/** PUT /v1/contacts/{identifier}/sequences: exactly these, 0 to 100 ids (an empty list unsubscribes from all). */
export const setContactSequencesInput = z.strictObject({ sequenceIds: sequenceIdList(0) }).meta({ id: 'SetContactSequencesInput' });

export const bulkSubscribeSequencesInput = z
  .strictObject({ contactIds: bulkContactIds, sequenceIds: sequenceIdList(1) })
  .meta({ id: 'BulkSubscribeSequencesInput' });
export type BulkSubscribeSequencesInput = z.infer<typeof bulkSubscribeSequencesInput>;

/** GET /v1/contacts/{identifier}/sequences: the contact's subscriptions. */
export const contactSequenceListSchema = z.object({ data: z.array(contactSequenceSchema) }).meta({ id: 'ContactSequenceList' });
