import { contactTransferOperations as transfers } from '../../domain/contact-transfers/contact-transfer.operations.js';
import { get, post } from '../route.js';

/** Contact imports and exports (the upload and download addresses themselves: contact-files.routes.ts). */
export const contactTransferRoutes = [
  post('/v1/contacts/imports/upload-url', transfers.createImportUpload, { status: 201 }),
  get('/v1/contacts/imports/files/{fileId}/headers', transfers.peekImportHeaders),
  get('/v1/contacts/import-template', transfers.getImportTemplate),
  post('/v1/contacts/import', transfers.import, { status: 201, location: (r: { importId: string }) => `/v1/contacts/imports/${r.importId}`, errors: [404, 409] }),
  get('/v1/contacts/imports', transfers.listImports),
  get('/v1/contacts/imports/{id}', transfers.getImport),
  get('/v1/contacts/imports/{id}/errors', transfers.listImportErrors),
  get('/v1/contacts/imports/{id}/errors.csv', transfers.importErrorsCsv),
  post('/v1/contacts/export', transfers.export, { status: 202, location: (r: { fileId: string }) => `/v1/contacts/export-files/${r.fileId}`, errors: [404] }),
  get('/v1/contacts/export-files/{fileId}', transfers.getExportFile),
];
