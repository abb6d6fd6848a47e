import { z } from 'zod';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

/** What a folder holds: sequences, or comment automations (photo and net alike). */
export type FolderType = 'sequence' | 'commentAutomation';

export const folderSchema = z
  .object({
    id: digitId,
    name: z.string(),
    parentId: digitId.nullable().meta({ description: 'The folder it is in; null at the top level' }),
    isTrash: z.boolean().meta({ description: 'Whether it is in the trash' }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Folder' });
export type Folder = z.infer<typeof folderSchema>;

export const folderPageSchema = z.object({ data: z.array(folderSchema), pageCount: z.number().int() }).meta({ id: 'FolderPage' });

export const foldersQuery = z.strictObject({
  ...pageQueryFields,
  parentId: digitId.optional().meta({ description: 'The folder whose sub-folders to list; left out: the top level' }),
  isTrash: z
    .enum(['true', 'false'], { error: 'isTrash must be true or false' })
    .transform((v) => v === 'true')
    .default(false)
    .meta({ description: 'true: only folders in the trash; false (the default): only those outside it' }),
});
export type FoldersQuery = z.output<typeof foldersQuery>;

/** A folder name: trimmed, 1 to 255 characters; not unique (two folders may share one). */
export const folderNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(255, 'name must be at most 255 characters');

export const createFolderInput = z
  .strictObject({
    name: folderNameSchema,
    parentId: digitId.nullable().optional().meta({ description: 'The folder to create it in (of the same kind); left out or null: the top level' }),
  })
  .meta({ id: 'CreateFolderInput' });
export type CreateFolderInput = z.infer<typeof createFolderInput>;

export const updateFolderInput = z
  .strictObject({
    name: folderNameSchema.optional(),
    isTrash: z.boolean().optional().meta({ description: 'true moves it to the trash, false out of it' }),
  })
  .refine((f) => f.name !== undefined || f.isTrash !== undefined, { message: 'Provide at least one of name or isTrash' })
  // The refinement as JSON Schema, for the OpenAPI document (zod cannot translate a refine).
  .meta({ id: 'UpdateFolderInput', description: 'At least one of name or isTrash; fields left out keep their value.', minProperties: 1 });
export type UpdateFolderInput = z.infer<typeof updateFolderInput>;
