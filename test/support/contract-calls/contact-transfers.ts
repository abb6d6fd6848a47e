import type { TestApp } from '../harness.js';
import type { CallTable } from './seed.js';

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

/**
 * An uploaded import file (its bytes in the app's file store), an import of it that completed,
 * and an export that is ready. No job runner runs in the contract tests: the import call's own
 * import stays pending, which no other call minds.
 */
export async function seedContactTransfers(t: TestApp, workspaceId: number) {
  const now = new Date().toISOString();
  const expires = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
  const file = async (kind: 'import' | 'export', status: string, content: string) => {
    const row = await t.db
      .insertInto('contact_files')
      .values({ workspace_id: workspaceId, kind, file_name: `${kind}.csv`, mime_type: 'text/csv', declared_size: Buffer.byteLength(content), size: Buffer.byteLength(content), status, delimiter: ',', row_count: 1, request: null, error_message: null, expires_at: expires, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.deps.files.store.write(t.db, row.id, bytes(content));
    return row.id;
  };
  const importFile = await file('import', 'uploaded', 'First name,Email\nGrace,grace@example.com\n');
  const done = await t.db
    .insertInto('contact_imports')
    .values({ workspace_id: workspaceId, file_id: importFile, file_name: 'import.csv', status: 'completed', options: '{}', total_count: 1, records_done: 1, created_count: 1, error_message: null, completed_at: now, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { importFile, import: done.id, exportFile: await file('export', 'ready', 'Email\r\ngrace@example.com\r\n') };
}

export const contactTransferCalls: CallTable = {
  'contacts.createImportUpload': () => ({ method: 'POST', path: '/v1/contacts/imports/upload-url', body: { fileName: 'leads.csv', mimeType: 'text/csv', fileSize: 120 } }),
  'contacts.peekImportHeaders': (s) => ({ method: 'GET', path: `/v1/contacts/imports/files/${s.transfers.importFile}/headers` }),
  'contacts.getImportTemplate': () => ({ method: 'GET', path: '/v1/contacts/import-template' }),
  'contacts.import': (s) => ({
    method: 'POST',
    path: '/v1/contacts/import',
    body: { fileId: String(s.transfers.importFile), inboxId: String(s.inbox), columnMap: { firstName: 'First name', email: 'Email' } },
  }),
  'contacts.listImports': () => ({ method: 'GET', path: '/v1/contacts/imports?page=1&perPage=10&status=completed' }),
  'contacts.getImport': (s) => ({ method: 'GET', path: `/v1/contacts/imports/${s.transfers.import}` }),
  'contacts.listImportErrors': (s) => ({ method: 'GET', path: `/v1/contacts/imports/${s.transfers.import}/errors` }),
  // A CSV (the contract checker checks its media type).
  'contacts.getImportErrorsCsv': (s) => ({ method: 'GET', path: `/v1/contacts/imports/${s.transfers.import}/errors.csv` }),
  'contacts.export': (s) => ({ method: 'POST', path: '/v1/contacts/export', body: { fields: ['sys:id', 'sys:email', 'sys:tags', `cf:${s.customFields.plan}`], contactIds: [String(s.contact)] } }),
  'contacts.getExportFile': (s) => ({ method: 'GET', path: `/v1/contacts/export-files/${s.transfers.exportFile}` }),
};
