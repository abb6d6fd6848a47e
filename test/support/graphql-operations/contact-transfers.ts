import { seedContactTransfers } from '../contract-calls/contact-transfers.js';
import { fixtures } from '../fixtures.js';
import { call, unique, type GraphQLOperation } from '../graphql-operations.js';

const access = (action: GraphQLOperation['action']) => ({ action, scope: 'contacts' as const, workspaceTokensOnly: false });
type App = Parameters<GraphQLOperation['prepare']>[0];

/**
 * An uploaded file, a completed import and a ready export of the workspace. No job runs in the
 * tables' tests: an import a call starts stays pending, so one started before is marked done
 * first (one import at a time per workspace).
 */
const transfersOf = async (t: App, ws: number) => {
  await t.db.updateTable('contact_imports').set({ status: 'completed' }).where('workspace_id', '=', ws).where('status', 'in', ['pending', 'processing']).execute();
  return seedContactTransfers(t, ws);
};

export const contactTransferOperations: GraphQLOperation[] = [
  { field: 'Query.contactImports', ...access('read'), prepare: async (t) => call(t, '{ contactImports(perPage: 5) { pageCount data { id status } } }') },
  {
    field: 'Query.contactImport',
    ...access('read'),
    prepare: async (t, ws) => call(t, 'query($id: ID!) { contactImport(id: $id) { id status processedCount } }', { id: String((await transfersOf(t, ws)).import) }),
  },
  {
    field: 'Query.contactImportErrors',
    ...access('read'),
    prepare: async (t, ws) => call(t, 'query($id: ID!) { contactImportErrors(id: $id) { pageCount data { row code } } }', { id: String((await transfersOf(t, ws)).import) }),
  },
  {
    field: 'Query.contactImportHeaders',
    ...access('read'),
    prepare: async (t, ws) => call(t, 'query($fileId: ID!) { contactImportHeaders(fileId: $fileId) { headers } }', { fileId: String((await transfersOf(t, ws)).importFile) }),
  },
  { field: 'Query.contactImportTemplate', ...access('read'), prepare: async (t) => call(t, '{ contactImportTemplate { fileName content } }') },
  {
    field: 'Query.contactExportFile',
    ...access('read'),
    prepare: async (t, ws) => call(t, 'query($fileId: ID!) { contactExportFile(fileId: $fileId) { status url } }', { fileId: String((await transfersOf(t, ws)).exportFile) }),
  },
  {
    field: 'Mutation.createContactImportUpload',
    ...access('write'),
    prepare: async (t) =>
      call(t, 'mutation($input: CreateContactImportUploadInput!) { createContactImportUpload(input: $input) { fileId } }', { input: { fileName: `${unique()}.csv`, mimeType: 'text/csv', fileSize: 100 } }),
  },
  {
    field: 'Mutation.startContactImport',
    ...access('write'),
    prepare: async (t, ws) => {
      const { importFile } = await transfersOf(t, ws);
      const inbox = await fixtures(t.db, ws).inbox(`Imports ${unique()}`);
      return call(t, 'mutation($input: StartContactImportInput!) { startContactImport(input: $input) { id status } }', {
        input: { fileId: String(importFile), inboxId: String(inbox), columnMap: { email: 'Email', firstName: 'First name' } },
      });
    },
  },
  { field: 'Mutation.exportContacts', ...access('read'), prepare: async (t) => call(t, 'mutation { exportContacts(fields: ["sys:email"], exportAll: true) { fileId status } }') },
];
