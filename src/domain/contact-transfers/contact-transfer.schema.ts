import { z } from 'zod';
import { contactConditionSchema } from '../contacts/contact-filter.schema.js';
import { contactChannelSchema } from '../contacts/contact.schema.js';
import { pageQueryFields } from '../shared/pagination.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * Contacts in and out as CSV: the upload of a file, the import that reads it (a job, with
 * progress and a record of each row it did not take), the export that writes one.
 */

/** The largest file an import takes. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** A file's name as the client gives it (shown in the imports list). */
const fileNameSchema = z.string().trim().min(1, 'fileName must not be empty').max(255, 'fileName must be at most 255 characters');

export const createImportUploadInput = z
  .strictObject({
    fileName: fileNameSchema.meta({ description: 'The name of the file, shown with the import' }),
    mimeType: z.enum(['text/csv'], { error: () => 'mimeType must be text/csv' }).meta({ description: 'text/csv' }),
    fileSize: z
      .number({ error: () => 'fileSize must be a number' })
      .int('fileSize must be a whole number')
      .min(1, 'fileSize must be at least 1')
      .max(MAX_IMPORT_BYTES, `fileSize must be at most ${MAX_IMPORT_BYTES} bytes (20 MB)`)
      .meta({ description: 'The exact size of the file in bytes, at most 20 MB: the upload must send exactly this many' }),
  })
  .meta({ id: 'CreateImportUploadInput' });
export type CreateImportUploadInput = z.infer<typeof createImportUploadInput>;

export const importUploadSchema = z
  .object({
    fileId: digitId,
    presignedPostUrl: z.string().meta({ description: 'PUT (or POST) the file\'s bytes here, as the request body, within 15 minutes; no token needed' }),
    expiresAt: isoDateTime,
  })
  .meta({ id: 'ImportUpload' });

export const fileIdParams = z.strictObject({ fileId: digitId.meta({ description: 'The file' }) });

/** The contact fields a column can fill, besides custom fields. */
export const importColumnKeys = ['contactId', 'phoneNumber', 'email', 'firstName', 'lastName'] as const;
export type ImportColumnKey = (typeof importColumnKeys)[number];

const columnName = z.string().min(1, 'a column must be named').max(255, 'a column name is at most 255 characters');
const columnMapSchema = z
  .strictObject(Object.fromEntries(importColumnKeys.map((k) => [k, columnName.optional()])) as Record<ImportColumnKey, z.ZodOptional<typeof columnName>>)
  .meta({ id: 'ImportColumnMap', description: 'Which column (by its header) fills which contact field' });
export type ImportColumnMap = z.infer<typeof columnMapSchema>;

export const MAX_FIELD_MAPPINGS = 100;

export const headersSchema = z
  .object({
    headers: z.array(z.string()).meta({ description: "The file's header row, as written" }),
    suggestedColumnMap: columnMapSchema,
    suggestedFieldMapping: z.array(z.object({ column: z.string(), customFieldId: digitId })).meta({ description: 'Columns named like a custom field of the workspace' }),
    delimiter: z.enum([',', ';', '\t']).meta({ description: 'The delimiter found in the header line' }),
  })
  .meta({ id: 'ImportFileHeaders' });

export const importTemplateSchema = z
  .object({ fileName: z.string(), mimeType: z.literal('text/csv'), content: z.string().meta({ description: 'CSV: a header row (contact fields and the custom fields) and an example row' }) })
  .meta({ id: 'ImportTemplate' });

export const startImportInput = z
  .strictObject({
    fileId: digitId.meta({ description: 'An uploaded file (POST /v1/contacts/imports/upload-url)' }),
    inboxId: digitId.meta({ description: 'Every contact of the file joins this inbox of the workspace' }),
    channel: contactChannelSchema.optional(),
    countryCode: z
      .string()
      .regex(/^\+\d{1,4}$/, 'countryCode must be + and 1 to 4 digits, e.g. +1 or +84')
      .optional()
      .meta({ description: 'The calling code of phone numbers written without one ("+1", "+84"); without it, numbers must be international' }),
    columnMap: columnMapSchema,
    fieldMapping: z
      .array(z.strictObject({ column: columnName, customFieldId: digitId }))
      .max(MAX_FIELD_MAPPINGS, `fieldMapping must hold at most ${MAX_FIELD_MAPPINGS} columns`)
      .default([])
      .meta({ description: 'Columns that fill custom fields' }),
    tagId: digitId.optional().meta({ description: 'A tag every contact of the file gets' }),
  })
  .refine((b) => b.columnMap.contactId !== undefined || b.columnMap.email !== undefined || b.columnMap.phoneNumber !== undefined, {
    message: 'columnMap must name a contactId, email or phoneNumber column: a row is matched or created by one of them',
    path: ['columnMap'],
  })
  .meta({ id: 'StartImportInput' });
export type StartImportInput = z.infer<typeof startImportInput>;

export const importStatuses = ['pending', 'processing', 'completed', 'failed'] as const;
export type ImportStatus = (typeof importStatuses)[number];

/** Why a row was not taken. */
export const importErrorCodes = [
  'invalidEmail',
  'invalidPhone',
  'invalidContactId',
  'invalidName',
  'missingIdentifier',
  'duplicateInFile',
  'contactNotFound',
  'identifierConflict',
  'customFieldInvalid',
  'macLimitReached',
  'malformedRow',
] as const;
export type ImportErrorCode = (typeof importErrorCodes)[number];

export const importErrorSampleSchema = z.object({
  row: z.number().int().meta({ description: "The row in the file as a spreadsheet numbers it (the header is 1)" }),
  reason: z.string(),
  code: z.enum(importErrorCodes),
  path: z.string().nullable().meta({ description: 'The contact field the cell was for: email, phoneNumber, customFields.<id>, ...' }),
});

export const importErrorSchema = importErrorSampleSchema
  .extend({
    column: z.string().nullable().meta({ description: 'The column, by its header' }),
    value: z.string().nullable().meta({ description: 'The cell as written' }),
    matchedContactId: digitId.nullable().meta({ description: 'The contact the row matched, when that is why it failed (another contact has its phone number)' }),
  })
  .meta({ id: 'ContactImportError' });
export type ContactImportError = z.infer<typeof importErrorSchema>;

export const contactImportSchema = z
  .object({
    id: digitId,
    fileId: digitId,
    fileName: z.string(),
    status: z.enum(importStatuses),
    totalCount: z.number().int().nullable().meta({ description: "The file's rows (the header not counted); null until the import has counted them" }),
    processedCount: z.number().int().meta({ description: 'Rows done: created + updated + skipped + failed' }),
    successCount: z.number().int().meta({ description: 'created + updated' }),
    failedCount: z.number().int(),
    createdCount: z.number().int(),
    updatedCount: z.number().int(),
    skippedCount: z.number().int().meta({ description: 'Rows that changed nothing, and repeats of an earlier row of the file (duplicateInFile)' }),
    errorMessage: z.string().nullable().meta({ description: 'Why a failed import stopped' }),
    errorSample: z.array(importErrorSampleSchema).meta({ description: 'The first 100 rows not taken' }),
    completedAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'ContactImport' });
export type ContactImport = z.infer<typeof contactImportSchema>;

export const importIdSchema = z.object({ importId: digitId }).meta({ id: 'ImportStarted' });

export const importsQuery = z.strictObject({
  ...pageQueryFields,
  status: z.enum(importStatuses).optional().meta({ description: 'Only imports in this state' }),
  keyword: z.string().trim().max(255, 'keyword must be at most 255 characters').optional().meta({ description: 'Only imports whose file name contains this (any case)' }),
});

export const contactImportPageSchema = z.object({ data: z.array(contactImportSchema), pageCount: z.number().int() });
export const importErrorPageSchema = z.object({ data: z.array(importErrorSchema), pageCount: z.number().int(), total: z.number().int() });
export const importErrorsQuery = z.strictObject({ ...pageQueryFields });

/** `sys:<field>` and `cf:<custom field id>`: the columns an export writes, in this order. */
export const exportSystemFields = ['id', 'firstName', 'lastName', 'fullName', 'email', 'phoneNumber', 'gender', 'locale', 'timezone', 'country', 'state', 'city', 'emailOptIn', 'createdAt', 'updatedAt', 'tags'] as const;
export type ExportSystemField = (typeof exportSystemFields)[number];
export const MAX_EXPORT_FIELDS = 200;
export const MAX_EXPORT_CONTACT_IDS = 10_000;

const exportField = z
  .string()
  .refine((f) => /^cf:\d{1,15}$/.test(f) || (f.startsWith('sys:') && (exportSystemFields as readonly string[]).includes(f.slice(4))), {
    message: `a field is sys:<${exportSystemFields.join('|')}> or cf:<custom field id>`,
  });

export const startExportInput = z
  .strictObject({
    fields: z.array(exportField).min(1, 'fields must name at least one column').max(MAX_EXPORT_FIELDS, `fields must name at most ${MAX_EXPORT_FIELDS} columns`),
    exportAll: z.boolean().optional().meta({ description: 'Every contact of the workspace' }),
    filter: contactConditionSchema.optional().meta({ description: 'The contacts this search tree finds (as POST /v1/contacts/search)' }),
    contactIds: z.array(digitId).min(1).max(MAX_EXPORT_CONTACT_IDS, `contactIds must hold at most ${MAX_EXPORT_CONTACT_IDS} ids`).optional().meta({ description: 'These contacts' }),
  })
  .refine((b) => [b.exportAll === true, b.filter !== undefined, b.contactIds !== undefined].filter(Boolean).length === 1, {
    message: 'Give exactly one of exportAll: true, filter or contactIds',
    path: [],
  })
  .meta({ id: 'StartExportInput' });
export type StartExportInput = z.infer<typeof startExportInput>;

export const exportStartedSchema = z.object({ fileId: digitId }).meta({ id: 'ExportStarted' });

export const exportStatuses = ['pending', 'processing', 'ready', 'failed', 'expired'] as const;
export const exportFileSchema = z
  .object({
    fileId: digitId,
    status: z.enum(exportStatuses),
    rowCount: z.number().int().nullable().meta({ description: 'Contacts written (once ready)' }),
    url: z.string().nullable().meta({ description: 'Once ready: a signed address that downloads the CSV for 15 minutes (ask again for a new one)' }),
    errorMessage: z.string().nullable(),
    expiresAt: isoDateTime.meta({ description: 'When the file is deleted (24 hours after it was asked for)' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'ExportFile' });
export type ExportFile = z.infer<typeof exportFileSchema>;
