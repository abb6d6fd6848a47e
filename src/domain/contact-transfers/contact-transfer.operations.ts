import { z } from 'zod';
import { operation, operationsOf, type BinaryAnswer } from '../shared/operation.js';
import { idParams } from '../shared/schemas.js';
import { createImportUpload, importTemplate, peekImportHeaders } from './contact-file.service.js';
import { getExportFile, startExport } from './contact-export.service.js';
import { getImport, importErrorsCsv, importErrorsOf, listImportsPage, startImport } from './contact-import.service.js';
import {
  contactImportPageSchema,
  contactImportSchema,
  createImportUploadInput,
  exportFileSchema,
  exportStartedSchema,
  fileIdParams,
  headersSchema,
  importErrorPageSchema,
  importErrorsQuery,
  importIdSchema,
  importsQuery,
  importTemplateSchema,
  importUploadSchema,
  startExportInput,
  startImportInput,
  type ContactImport,
} from './contact-transfer.schema.js';

const read = { action: 'read', scope: 'contacts' } as const;
const write = { action: 'write', scope: 'contacts' } as const;

const at = '2026-11-23T10:00:00.000Z';
const exampleImport: ContactImport = {
  id: '7',
  fileId: '31',
  fileName: 'trade-fair-leads.csv',
  status: 'completed',
  totalCount: 1200,
  processedCount: 1200,
  successCount: 1183,
  failedCount: 12,
  createdCount: 1020,
  updatedCount: 163,
  skippedCount: 5,
  errorMessage: null,
  errorSample: [{ row: 14, reason: 'Email: "ada@" is not a valid email address', code: 'invalidEmail', path: 'email' }],
  completedAt: '2026-11-23T10:00:04.120Z',
  createdAt: at,
  updatedAt: '2026-11-23T10:00:04.120Z',
};

/** A CSV as it streams out; the schema only types it (binary answers are not checked as JSON). */
const csvAnswer = z.custom<BinaryAnswer>((v) => typeof v === 'object' && v !== null && 'bytes' in v);

/**
 * Contacts in and out as CSV (scope `contacts`): the upload of a file for an import, the import
 * itself (a job with progress and a record of every row not taken), and exports.
 */
export const contactTransferOperations = operationsOf('Contact imports and exports', {
  createImportUpload: operation({
    id: 'contacts.createImportUpload',
    summary: 'Ask where to upload a CSV',
    description:
      'Step 1 of an import: answers the file id and a signed address, good for 15 minutes, to PUT the file\'s bytes to (no token; exactly fileSize bytes, at most 20 MB: more is 413, another length 422). The file is deleted after 24 hours.',
    access: write,
    body: createImportUploadInput,
    output: importUploadSchema,
    outputDescription: 'The file and where to send it',
    examples: {
      body: { fileName: 'trade-fair-leads.csv', mimeType: 'text/csv', fileSize: 48213 },
      response: { fileId: '31', presignedPostUrl: 'http://localhost:4000/files/contact-imports/31?expires=1795433400&signature=0cNwD5cWq9kI3a8m7d0yHjS5lH2vQJq0r3p4c1yXgU8', expiresAt: '2026-11-23T10:15:00.000Z' },
    },
    run: ({ db, who, body, files, queue }) => createImportUpload(db, files, queue, who.workspaceId, body),
  }),
  peekImportHeaders: operation({
    id: 'contacts.peekImportHeaders',
    summary: "Read an uploaded file's columns",
    description: 'Step 2: the header row, the contact field each column looks like (case, spaces and dashes ignored; aliases such as e-mail, phone number, first name, surname) and the custom fields named like a column.',
    access: read,
    params: fileIdParams,
    output: headersSchema,
    outputDescription: 'The columns and the suggested mapping',
    examples: {
      params: { fileId: '31' },
      response: {
        headers: ['First name', 'Surname', 'E-mail', 'Phone number', 'Company'],
        suggestedColumnMap: { firstName: 'First name', lastName: 'Surname', email: 'E-mail', phoneNumber: 'Phone number' },
        suggestedFieldMapping: [{ column: 'Company', customFieldId: '1' }],
        delimiter: ',',
      },
    },
    run: ({ db, who, params, files }) => peekImportHeaders(db, files, who.workspaceId, params.fileId),
  }),
  getImportTemplate: operation({
    id: 'contacts.getImportTemplate',
    summary: 'Get a CSV template to fill in',
    description: "A header row (first and last name, email, phone number, then the workspace's custom fields) and an example row.",
    access: read,
    output: importTemplateSchema,
    outputDescription: 'The template',
    examples: {
      response: { fileName: 'contacts-import-template.csv', mimeType: 'text/csv', content: 'First Name,Last Name,Email,Phone Number,Company\r\nAda,Lovelace,ada.lovelace@mail.example,\'+14155550123,text\r\n' },
    },
    run: ({ db, who }) => importTemplate(db, who.workspaceId),
  }),
  import: operation({
    id: 'contacts.import',
    summary: 'Import contacts from an uploaded CSV',
    description:
      'Step 4: queues the import and answers its id at once; follow it with GET /v1/contacts/imports/{id}. Rows match contacts by contactId, else email (any case), else phone number (made E.164 with countryCode); a match gets only non-blank mapped cells, anything else is created. 409 while another import of the workspace is pending or processing.',
    access: write,
    body: startImportInput,
    output: importIdSchema,
    outputDescription: 'The import, queued',
    examples: {
      body: {
        fileId: '31',
        inboxId: '3',
        channel: 'chat',
        countryCode: '+1',
        columnMap: { firstName: 'First name', lastName: 'Surname', email: 'E-mail', phoneNumber: 'Phone number' },
        fieldMapping: [{ column: 'Company', customFieldId: '1' }],
        tagId: '2',
      },
      response: { importId: '7' },
    },
    run: ({ db, who, body, files, queue, at }) => startImport(db, files, queue, who.workspaceId, body, at.body),
  }),
  listImports: operation({
    id: 'contacts.listImports',
    summary: 'List imports',
    description: 'Newest first.',
    access: read,
    query: importsQuery,
    output: contactImportPageSchema,
    outputDescription: 'One page of imports',
    examples: { query: { page: '1', perPage: '20', status: 'completed', keyword: 'fair' }, response: { data: [exampleImport], pageCount: 1 } },
    run: ({ db, who, query }) => listImportsPage(db, who.workspaceId, query),
  }),
  getImport: operation({
    id: 'contacts.getImport',
    summary: 'Get an import and its progress',
    description: 'processedCount rises batch by batch (500 rows each) while it runs; created + updated + skipped + failed = processed.',
    access: read,
    params: idParams,
    output: contactImportSchema,
    outputDescription: 'The import',
    examples: { params: { id: '7' }, response: exampleImport },
    run: ({ db, who, params }) => getImport(db, who.workspaceId, params.id),
  }),
  listImportErrors: operation({
    id: 'contacts.listImportErrors',
    summary: "List an import's rows not taken",
    description: 'Every row the import failed or skipped as a repeat, in file order.',
    access: read,
    params: idParams,
    query: importErrorsQuery,
    output: importErrorPageSchema,
    outputDescription: 'One page of error records',
    examples: {
      params: { id: '7' },
      query: { page: '1', perPage: '50' },
      response: {
        data: [{ row: 14, column: 'E-mail', path: 'email', code: 'invalidEmail', reason: 'E-mail: "ada@" is not a valid email address', value: 'ada@', matchedContactId: null }],
        pageCount: 1,
        total: 1,
      },
    },
    run: ({ db, who, params, query }) => importErrorsOf(db, who.workspaceId, params.id, query),
  }),
  importErrorsCsv: operation({
    id: 'contacts.getImportErrorsCsv',
    summary: "Download an import's rows not taken as CSV",
    description: "The file's header and each row not taken, as it was, with `error` and `row` columns: fix them and upload the file again.",
    access: read,
    params: idParams,
    output: csvAnswer,
    outputDescription: 'The rows (text/csv)',
    binary: { mediaType: 'text/csv', exampleText: 'First name,Surname,E-mail,error,row\r\nAda,Lovelace,ada@,"invalidEmail: E-mail: ""ada@"" is not a valid email address",14\r\n' },
    examples: { params: { id: '7' }, response: { bytes: new Uint8Array(), headers: {} } },
    run: ({ db, who, params, files }) => importErrorsCsv(db, files, who.workspaceId, params.id),
    present: (r) => ({ bytes: r.bytes, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${r.fileName.replace(/["\\\r\n]/g, '_')}"`, 'cache-control': 'no-store' } }),
  }),
  export: operation({
    id: 'contacts.export',
    summary: 'Export contacts to CSV',
    description:
      'Queues the export of every contact (exportAll), those a search tree finds (filter) or those given (contactIds), with the columns asked for (sys:<field>, cf:<custom field id>), and answers its file at once; follow it with GET /v1/contacts/export-files/{fileId}. Cells a spreadsheet would run as a formula (starting with = + - @, tab or CR) get a leading \'. Deleted after 24 hours.',
    access: read,
    body: startExportInput,
    output: exportStartedSchema,
    outputDescription: 'The export file, being written',
    examples: { body: { fields: ['sys:id', 'sys:firstName', 'sys:email', 'sys:phoneNumber', 'cf:1'], exportAll: true }, response: { fileId: '32' } },
    run: ({ db, who, body, queue, at }) => startExport(db, queue, who.workspaceId, body, at.body),
  }),
  getExportFile: operation({
    id: 'contacts.getExportFile',
    summary: 'Get an export and its download address',
    description: 'Once ready, url downloads the CSV for 15 minutes (no token); call again for a new one.',
    access: read,
    params: fileIdParams,
    output: exportFileSchema,
    outputDescription: 'The export',
    examples: {
      params: { fileId: '32' },
      response: {
        fileId: '32',
        status: 'ready',
        rowCount: 1183,
        url: 'http://localhost:4000/files/contact-exports/32?expires=1795433400&signature=q1Xb7m2H9d0aZy3e5r8t6u4i2o0pLkJhGfDsA1zXcVb',
        errorMessage: null,
        expiresAt: '2026-11-24T10:00:00.000Z',
        createdAt: at,
      },
    },
    run: ({ db, who, params, files }) => getExportFile(db, files, who.workspaceId, params.fileId),
  }),
});
