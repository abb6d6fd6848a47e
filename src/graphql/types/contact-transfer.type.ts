import { z } from 'zod';
import { contactTransferOperations as transfers } from '../../domain/contact-transfers/contact-transfer.operations.js';
import {
  exportStatuses,
  importErrorCodes,
  importStatuses,
  startExportInput,
  type ContactImport,
  type ContactImportError,
  type ExportFile,
} from '../../domain/contact-transfers/contact-transfer.schema.js';
import { getImport } from '../../domain/contact-transfers/contact-import.service.js';
import { digitId } from '../../domain/shared/schemas.js';
import { plainIds, withoutNulls, type ArgBuilder } from '../args.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { contractEnum } from '../enums.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { zodInputType } from '../zod-input.js';
import { ContactFilterInput, treeWithoutNulls } from './contact-list.type.js';

/**
 * Contact imports and exports over the operations REST runs (contact-transfer.operations.ts). The
 * file itself is still sent to the signed upload address (`createContactImportUpload`); an
 * import's progress can be read (`contactImport`) or followed live (`Subscription.contactImport`).
 */

const ImportStatusEnum = contractEnum('ContactImportStatus', importStatuses, 'pending: queued; processing: reading rows; completed; failed: stopped (errorMessage says why)');
const ImportErrorCodeEnum = contractEnum('ContactImportErrorCode', importErrorCodes, 'Why a row was not taken');
const ExportStatusEnum = contractEnum('ContactExportStatus', exportStatuses, 'pending, processing, ready (url downloads it), failed, expired (deleted after 24 hours)');

const ImportErrorSampleType = builder.objectRef<ContactImport['errorSample'][number]>('ContactImportErrorSample').implement({
  fields: (t) => ({
    row: t.exposeInt('row', { description: 'The row in the file as a spreadsheet numbers it (the header is 1)' }),
    reason: t.exposeString('reason'),
    code: t.expose('code', { type: ImportErrorCodeEnum }),
    path: t.exposeString('path', { nullable: true, description: 'The contact field the cell was for: email, phoneNumber, customFields.<id>, ...' }),
  }),
});

const ImportErrorType = builder.objectRef<ContactImportError>('ContactImportError').implement({
  description: 'A row the import did not take',
  fields: (t) => ({
    row: t.exposeInt('row'),
    column: t.exposeString('column', { nullable: true, description: 'The column, by its header' }),
    path: t.exposeString('path', { nullable: true }),
    code: t.expose('code', { type: ImportErrorCodeEnum }),
    reason: t.exposeString('reason'),
    value: t.exposeString('value', { nullable: true, description: 'The cell as written' }),
    matchedContactId: t.exposeID('matchedContactId', { nullable: true, description: 'The contact that holds the email or phone number, for identifierConflict' }),
  }),
});

export const ContactImportType = builder.objectRef<ContactImport>('ContactImport').implement({
  description: 'An import of a CSV file and its progress; created + updated + skipped + failed = processed',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The plain import id' }),
    fileId: t.exposeID('fileId'),
    fileName: t.exposeString('fileName'),
    status: t.expose('status', { type: ImportStatusEnum }),
    totalCount: t.exposeInt('totalCount', { nullable: true, description: "The file's rows; null until counted" }),
    processedCount: t.exposeInt('processedCount'),
    successCount: t.exposeInt('successCount', { description: 'created + updated' }),
    failedCount: t.exposeInt('failedCount'),
    createdCount: t.exposeInt('createdCount'),
    updatedCount: t.exposeInt('updatedCount'),
    skippedCount: t.exposeInt('skippedCount', { description: 'Rows that changed nothing, and repeats of an earlier row (duplicateInFile)' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    errorSample: t.field({ type: [ImportErrorSampleType], description: 'The first 100 rows not taken', resolve: (i) => i.errorSample }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ColumnMapType = builder.objectRef<Record<string, string | undefined>>('ContactImportColumnMap').implement({
  fields: (t) => ({
    contactId: t.string({ nullable: true, resolve: (m) => m.contactId }),
    phoneNumber: t.string({ nullable: true, resolve: (m) => m.phoneNumber }),
    email: t.string({ nullable: true, resolve: (m) => m.email }),
    firstName: t.string({ nullable: true, resolve: (m) => m.firstName }),
    lastName: t.string({ nullable: true, resolve: (m) => m.lastName }),
  }),
});

type Headers = Awaited<ReturnType<(typeof transfers.peekImportHeaders)['run']>>;
const HeadersType = builder.objectRef<Headers>('ContactImportHeaders').implement({
  fields: (t) => ({
    headers: t.exposeStringList('headers'),
    suggestedColumnMap: t.field({ type: ColumnMapType, resolve: (h) => h.suggestedColumnMap }),
    suggestedFieldMapping: t.field({
      type: [builder.objectRef<{ column: string; customFieldId: string }>('ContactImportFieldMapping').implement({ fields: (f) => ({ column: f.exposeString('column'), customFieldId: f.exposeID('customFieldId') }) })],
      resolve: (h) => h.suggestedFieldMapping,
    }),
    delimiter: t.exposeString('delimiter'),
  }),
});

const UploadType = builder.objectRef<{ fileId: string; presignedPostUrl: string; expiresAt: string }>('ContactImportUpload').implement({
  fields: (t) => ({
    fileId: t.exposeID('fileId'),
    presignedPostUrl: t.exposeString('presignedPostUrl', { description: "PUT the file's bytes here within 15 minutes; no token" }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const TemplateType = builder.objectRef<{ fileName: string; mimeType: string; content: string }>('ContactImportTemplate').implement({
  fields: (t) => ({ fileName: t.exposeString('fileName'), mimeType: t.exposeString('mimeType'), content: t.exposeString('content') }),
});

const ExportFileType = builder.objectRef<ExportFile>('ContactExportFile').implement({
  fields: (t) => ({
    fileId: t.exposeID('fileId'),
    status: t.expose('status', { type: ExportStatusEnum }),
    rowCount: t.exposeInt('rowCount', { nullable: true }),
    url: t.exposeString('url', { nullable: true, description: 'Once ready: downloads the CSV for 15 minutes, no token' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const idArg = (arg: ArgBuilder, what: string) => arg.id({ required: true, description: what }).validate(digitId);

builder.queryField('contactImports', (t) =>
  t.field({
    type: pageOf('ContactImportPage', ContactImportType),
    description: 'Like GET /v1/contacts/imports: newest first.',
    access: transfers.listImports.access,
    args: { status: t.arg({ type: ImportStatusEnum }), keyword: t.arg.string(), ...pageArgs(t.arg) },
    validate: pageArgsSchema.extend({ status: z.enum(importStatuses).nullish(), keyword: transfers.listImports.query.shape.keyword.nullish() }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(transfers.listImports, ctx, { query: withoutNulls(args) as never }),
  }),
);

builder.queryField('contactImport', (t) =>
  t.field({
    type: ContactImportType,
    description: 'Like GET /v1/contacts/imports/{id}: the import and its progress.',
    access: transfers.getImport.access,
    args: { id: idArg(t.arg, 'The plain import id') },
    resolve: (_r, { id }, ctx) => runOperation(transfers.getImport, ctx, { params: { id } }),
  }),
);

builder.queryField('contactImportErrors', (t) =>
  t.field({
    type: pageOf('ContactImportErrorPage', ImportErrorType),
    description: 'Like GET /v1/contacts/imports/{id}/errors: every row not taken, in file order.',
    access: transfers.listImportErrors.access,
    args: { id: t.arg.id({ required: true, description: 'The plain import id' }), ...pageArgs(t.arg) },
    validate: pageArgsSchema.extend({ id: digitId }),
    complexity: pageComplexity,
    resolve: (_r, { id, page, perPage }, ctx) => runOperation(transfers.listImportErrors, ctx, { params: { id }, query: { page, perPage } }),
  }),
);

builder.queryField('contactImportHeaders', (t) =>
  t.field({
    type: HeadersType,
    description: "Like GET /v1/contacts/imports/files/{fileId}/headers: an uploaded file's columns and the suggested mapping.",
    access: transfers.peekImportHeaders.access,
    args: { fileId: idArg(t.arg, 'The uploaded file') },
    resolve: (_r, { fileId }, ctx) => runOperation(transfers.peekImportHeaders, ctx, { params: { fileId } }),
  }),
);

builder.queryField('contactImportTemplate', (t) =>
  t.field({
    type: TemplateType,
    description: 'Like GET /v1/contacts/import-template.',
    access: transfers.getImportTemplate.access,
    resolve: (_r, _a, ctx) => runOperation(transfers.getImportTemplate, ctx),
  }),
);

builder.queryField('contactExportFile', (t) =>
  t.field({
    type: ExportFileType,
    description: 'Like GET /v1/contacts/export-files/{fileId}: its state and, once ready, a download address.',
    access: transfers.getExportFile.access,
    args: { fileId: idArg(t.arg, 'The export file') },
    resolve: (_r, { fileId }, ctx) => runOperation(transfers.getExportFile, ctx, { params: { fileId } }),
  }),
);

const UploadInputType = zodInputType('CreateContactImportUploadInput', transfers.createImportUpload.body);
const StartImportInputType = zodInputType('StartContactImportInput', transfers.import.body, { nested: { columnMap: 'ContactImportColumnMapInput', fieldMapping: 'ContactImportFieldMappingInput' } });

/** startContactImport's input: nulls are not given; inbox, tag and custom fields may be global ids. */
const importFromGraphQL = (o: unknown) => {
  const input = withoutNulls(o) as Record<string, unknown> | undefined;
  if (!input || typeof input !== 'object') return input;
  return {
    ...input,
    ...(input.columnMap && typeof input.columnMap === 'object' ? { columnMap: withoutNulls(input.columnMap) } : {}),
    ...(input.inboxId !== undefined ? { inboxId: plainIds('Inbox')(input.inboxId) } : {}),
    ...(input.tagId !== undefined ? { tagId: plainIds('Tag')(input.tagId) } : {}),
    ...(Array.isArray(input.fieldMapping) ? { fieldMapping: input.fieldMapping.map((m: { customFieldId?: unknown }) => ({ ...m, customFieldId: plainIds('CustomField')(m.customFieldId) })) } : {}),
  };
};

builder.mutationField('createContactImportUpload', (t) =>
  t.field({
    type: UploadType,
    description: "Like POST /v1/contacts/imports/upload-url: the file's id and the signed address to PUT its bytes to.",
    access: transfers.createImportUpload.access,
    args: { input: t.arg({ type: UploadInputType, required: true }).validate(transfers.createImportUpload.body) },
    resolve: (_r, { input }, ctx) => runOperation(transfers.createImportUpload, ctx, { body: input }),
  }),
);

builder.mutationField('startContactImport', (t) =>
  t.field({
    type: ContactImportType,
    description: 'Like POST /v1/contacts/import: queues the import and answers it (pending); follow it with contactImport or Subscription.contactImport.',
    access: transfers.import.access,
    args: { input: t.arg({ type: StartImportInputType, required: true }).validate(z.preprocess(importFromGraphQL, transfers.import.body)) },
    resolve: async (_r, { input }, ctx) => {
      const { importId } = await runOperation(transfers.import, ctx, { body: input });
      return getImport(ctx.db, ctx.who.workspaceId, importId);
    },
  }),
);

builder.mutationField('exportContacts', (t) =>
  t.field({
    type: ExportFileType,
    description: 'Like POST /v1/contacts/export: exactly one of exportAll, filter or contactIds; answers the file, being written.',
    access: transfers.export.access,
    args: {
      fields: t.arg.stringList({ required: true, description: 'Columns in order: sys:<field> or cf:<custom field id>' }),
      exportAll: t.arg.boolean(),
      filter: t.arg({ type: ContactFilterInput }),
      contactIds: t.arg.idList(),
    },
    validate: z.preprocess((a) => {
      const args = withoutNulls(a) as Record<string, unknown>;
      return { ...args, ...(args.filter ? { filter: treeWithoutNulls(args.filter) } : {}), ...(Array.isArray(args.contactIds) ? { contactIds: args.contactIds.map(plainIds('Contact')) } : {}) };
    }, startExportInput),
    resolve: async (_r, args, ctx) => {
      const { fileId } = await runOperation(transfers.export, ctx, { body: args as never, at: { body: [] } });
      return runOperation(transfers.getExportFile, ctx, { params: { fileId } });
    },
  }),
);

/** How often a followed import is read again while it runs. */
const FOLLOW_MS = 250;

/** The import each time it changes, until it is completed or failed (then the stream ends). */
async function* followImport(ctx: GraphQLContext, id: string): AsyncGenerator<ContactImport> {
  let last = '';
  for (;;) {
    const current = await getImport(ctx.db, ctx.who.workspaceId, id);
    const seen = `${current.status}:${current.processedCount}:${current.totalCount}`;
    if (seen !== last) {
      last = seen;
      yield current;
    }
    if (current.status === 'completed' || current.status === 'failed') return;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
  }
}

builder.subscriptionField('contactImport', (t) =>
  t.field({
    type: ContactImportType,
    description: 'An import as it runs (over SSE: `Accept: text/event-stream`): the import now, then again each time its progress moves, ending after it is completed or failed.',
    access: transfers.getImport.access,
    args: { id: idArg(t.arg, 'The plain import id') },
    subscribe: async (_r, { id }, ctx) => {
      // An unknown import is an error at once, not a stream that never speaks.
      await getImport(ctx.db, ctx.who.workspaceId, id);
      return followImport(ctx, id);
    },
    resolve: (item: ContactImport) => item,
  }),
);
