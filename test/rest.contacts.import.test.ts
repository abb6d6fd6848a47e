import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { fixtures } from './support/fixtures.js';
import { followImport, uploadCsv } from './support/contact-files.js';
import type { TestWorkspace } from './support/harness.js';

describe('contact imports', () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let inbox: number;

  beforeAll(async () => {
    t = await createEngineTestApp(unlimited);
    ws = await t.workspace();
    inbox = await fixtures(t.db, ws.id).inbox('Imports');
  });
  afterAll(() => t.close());

  it('imports a small file end to end', async () => {
    const token = ws.developerToken;
    const fileId = await uploadCsv(t, token, 'First name,Surname,E-mail,Phone number\nAda,Lovelace,ada@mail.example,(415) 555-0123\nbad,row,nope,\n');
    const headers = await t.request('GET', `/v1/contacts/imports/files/${fileId}/headers`, { token });
    expect(headers.body).toEqual({ headers: ['First name', 'Surname', 'E-mail', 'Phone number'], suggestedColumnMap: { firstName: 'First name', lastName: 'Surname', email: 'E-mail', phoneNumber: 'Phone number' }, suggestedFieldMapping: [], delimiter: ',' });
    const started = await t.request('POST', '/v1/contacts/import', { token, body: { fileId, inboxId: String(inbox), countryCode: '+1', columnMap: headers.body.suggestedColumnMap } });
    expect(started.status, started.text).toBe(201);
    const { final } = await followImport(t, token, started.body.importId);
    expect(final).toMatchObject({ status: 'completed', totalCount: 2, processedCount: 2, createdCount: 1, failedCount: 1 });
    const found = await t.request('GET', '/v1/contacts/phone:+14155550123', { token });
    expect(found.body).toMatchObject({ firstName: 'Ada', email: 'ada@mail.example' });
  });
});
