import { encodeGlobalID } from '@pothos/plugin-relay';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { testEngine } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { followExport, localPath } from './support/contact-files.js';
import type { TestWorkspace } from './support/harness.js';
import { subscribe } from './support/sse.js';

/** Imports and exports as GraphQL fields: the operations REST runs, and an import followed live. */
describe(`GraphQL contact imports and exports on ${testEngine}`, () => {
  let t: EngineTestApp;
  let server: Server;
  let base: string;
  let ws: TestWorkspace;
  let inbox: number;
  let company: number;

  beforeAll(async () => {
    t = await createEngineTestApp(unlimited);
    server = createServer(t.app.listener);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ws = await t.workspace();
    inbox = await fixtures(t.db, ws.id).inbox('GraphQL imports');
    company = await fixtures(t.db, ws.id).customField('Company');
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((ok) => server?.close(ok));
    await t?.close();
  });

  const gql = async (query: string, variables: Record<string, unknown> = {}, token = ws.developerToken) => {
    const res = await t.graphql(query, variables, { token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('uploads, reads the headers, starts the import and follows it to the end over SSE', async () => {
    const csv = 'Name,Mail,Company\n' + Array.from({ length: 1200 }, (_, i) => `Person ${i},p${i}@mail.example,Firm ${i % 3}`).join('\n') + '\nNobody,not-an-email,\n';
    const upload = await gql('mutation($input: CreateContactImportUploadInput!) { createContactImportUpload(input: $input) { fileId presignedPostUrl expiresAt } }', {
      input: { fileName: 'people.csv', mimeType: 'text/csv', fileSize: Buffer.byteLength(csv) },
    });
    const { fileId, presignedPostUrl } = upload.data.createContactImportUpload;
    expect((await t.request('PUT', localPath(presignedPostUrl), { body: csv, headers: { 'content-type': 'text/csv' } })).status).toBe(200);

    const headers = await gql('query($fileId: ID!) { contactImportHeaders(fileId: $fileId) { headers suggestedColumnMap { email firstName phoneNumber } suggestedFieldMapping { column customFieldId } delimiter } }', { fileId });
    expect(headers.data.contactImportHeaders).toEqual({
      headers: ['Name', 'Mail', 'Company'],
      suggestedColumnMap: { email: 'Mail', firstName: null, phoneNumber: null },
      suggestedFieldMapping: [{ column: 'Company', customFieldId: String(company) }],
      delimiter: ',',
    });

    // Held back until the subscription is open: the workers start again once it is.
    await t.stopWorkers();
    const started = await gql('mutation($input: StartContactImportInput!) { startContactImport(input: $input) { id status totalCount processedCount } }', {
      input: {
        fileId,
        inboxId: encodeGlobalID('Inbox', String(inbox)),
        columnMap: { email: 'Mail', firstName: 'Name', contactId: null },
        fieldMapping: [{ column: 'Company', customFieldId: encodeGlobalID('CustomField', String(company)) }],
        countryCode: null,
      },
    });
    const importId = started.data.startContactImport.id;
    expect(started.data.startContactImport).toEqual({ id: importId, status: 'pending', totalCount: null, processedCount: 0 });

    const stream = await subscribe(base, 'subscription($id: ID!) { contactImport(id: $id) { status processedCount createdCount failedCount totalCount } }', { token: ws.developerToken, variables: { id: importId } });
    expect(stream.status).toBe(200);
    expect((await stream.result()).data.contactImport).toMatchObject({ status: 'pending', processedCount: 0 });
    await t.startWorkers();
    const rest = (await stream.rest(30_000)).map((r) => r.data.contactImport);
    const last = rest[rest.length - 1];
    expect(last).toEqual({ status: 'completed', processedCount: 1201, createdCount: 1200, failedCount: 1, totalCount: 1201 });
    const processed = rest.map((r) => r.processedCount);
    expect(processed).toEqual([...processed].sort((a, b) => a - b));

    const read = await gql('query($id: ID!) { contactImport(id: $id) { status errorSample { row code path } } contactImportErrors(id: $id) { pageCount data { row column code value } } contactImports(status: completed) { data { id } } }', { id: importId });
    expect(read.data).toEqual({
      contactImport: { status: 'completed', errorSample: [{ row: 1202, code: 'invalidEmail', path: 'email' }] },
      contactImportErrors: { pageCount: 1, data: [{ row: 1202, column: 'Mail', code: 'invalidEmail', value: 'not-an-email' }] },
      contactImports: { data: [{ id: importId }] },
    });
  });

  it('exports by mutation and reads the file; errors carry the REST codes', async () => {
    const asked = await gql('mutation { exportContacts(fields: ["sys:email"], exportAll: true) { fileId status url } }');
    expect(asked.data.exportContacts).toMatchObject({ status: expect.stringMatching(/^(pending|processing|ready)$/) });
    const ready = await followExport(t, ws.developerToken, asked.data.exportContacts.fileId);
    const read = await gql('query($fileId: ID!) { contactExportFile(fileId: $fileId) { status rowCount url } }', { fileId: ready.fileId });
    expect(read.data.contactExportFile).toMatchObject({ status: 'ready', rowCount: ready.rowCount, url: expect.stringContaining(`/files/contact-exports/${ready.fileId}?`) });

    const both = await t.graphql('mutation { exportContacts(fields: ["sys:email"], exportAll: true, contactIds: ["1"]) { fileId } }', {}, { token: ws.developerToken });
    expect(both.body.errors[0].extensions).toMatchObject({ code: 'invalidRequestData', status: 422 });
    const other = await t.workspace({ name: 'Other' });
    const theirs = await t.graphql('query($fileId: ID!) { contactExportFile(fileId: $fileId) { status } }', { fileId: ready.fileId }, { token: other.developerToken });
    expect(theirs.body.errors[0].extensions).toMatchObject({ code: 'notFound', status: 404 });
  });
});
