import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { fixtures } from './support/fixtures.js';
import { followImport, localPath, uploadCsv } from './support/contact-files.js';
import type { TestWorkspace } from './support/harness.js';
import { COLUMN_MAP, existingContacts, expectedCounts, importCsv, importRows } from './support/import-files.js';
import { recordedEvents } from './support/recorded-events.js';
import { testEngine } from './support/engine.js';

/**
 * Contact imports through the API on a real queue: upload to the signed address, start, follow
 * to the end, read the counts, the error records and the contacts written.
 */
describe(`contact imports on ${testEngine}`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let inbox: number;
  let score: number;
  let existing: number[];
  const token = () => ws.developerToken;

  const start = (body: Record<string, unknown>, as = token()) => t.request('POST', '/v1/contacts/import', { token: as, body: { inboxId: String(inbox), countryCode: '+1', ...body } });
  const allErrors = async (importId: string) => {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const res = await t.request('GET', `/v1/contacts/imports/${importId}/errors?page=${page}&perPage=50`, { token: token() });
      expect(res.status, res.text).toBe(200);
      out.push(...res.body.data);
      if (page >= res.body.pageCount) return out;
    }
  };

  beforeAll(async () => {
    t = await createEngineTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    inbox = await f.inbox('Imports');
    score = await f.customField('Score', 'number');
    const now = new Date().toISOString();
    const rows = existingContacts().map((c) => ({ workspace_id: ws.id, email: c.email, phone_number: c.phone, first_name: c.firstName, last_name: c.lastName, gender: 'unknown' as const, email_verified: 0, email_opt_in: 0, created_at: now, updated_at: now }));
    existing = [];
    for (let i = 0; i < rows.length; i += 200) existing.push(...(await t.db.insertInto('contacts').values(rows.slice(i, i + 200)).returning('id').execute()).map((r) => r.id));
    // The contacts the file leaves unchanged are in the inbox already: joining it would be a change.
    for (const id of existing.slice(200, 400)) await f.contactInbox(id, inbox);
  });
  afterAll(() => t.close());

  it('imports 10,000 rows with every kind of bad row: exact counts, exact error records, rising progress', async () => {
    const rows = importRows(10_000);
    const fileId = await uploadCsv(t, token(), importCsv(rows), 'fair-leads.csv');
    const events = recordedEvents(t.db, ws.id);
    await events.next();
    const started = await start({ fileId, columnMap: COLUMN_MAP, fieldMapping: [{ column: 'Score', customFieldId: String(score) }] });
    expect(started.status, started.text).toBe(201);
    expect(started.headers.get('location')).toBe(`/v1/contacts/imports/${started.body.importId}`);
    const { final, seen } = await followImport(t, token(), started.body.importId);

    const want = expectedCounts(rows);
    expect(final).toMatchObject({
      id: started.body.importId,
      fileId,
      fileName: 'fair-leads.csv',
      status: 'completed',
      totalCount: 10_000,
      processedCount: 10_000,
      createdCount: want.created,
      updatedCount: want.updated,
      skippedCount: want.skipped,
      failedCount: want.failed,
      successCount: want.created + want.updated,
      errorMessage: null,
    });
    expect(want.created + want.updated + want.skipped + want.failed).toBe(want.total);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    // Every row not taken, in file order, exactly as expected.
    const expected = rows
      .filter((r) => r.outcome.kind === 'failed' || r.outcome.kind === 'repeat')
      .map((r) => {
        const o = r.outcome as Extract<typeof r.outcome, { code: string }>;
        return {
          row: r.row,
          code: o.code,
          column: o.column,
          path: o.path === 'customFields.SCORE' ? `customFields.${score}` : o.path,
          value: o.value,
          matchedContactId: o.matchedContactIndex === undefined ? null : String(existing[o.matchedContactIndex]),
          reason: o.firstRow ? `Row ${o.firstRow} has the same email; this row is skipped` : expect.any(String),
        };
      });
    const errors = await allErrors(started.body.importId);
    expect(errors).toEqual(expected);
    expect(final.errorSample).toEqual(errors.slice(0, 100).map((e) => ({ row: e.row, reason: e.reason, code: e.code, path: e.path })));

    // What was written: a match got only its non-blank cells; new contacts their phone in E.164.
    const updated = await t.request('GET', '/v1/contacts/email:existing-3@mail.example', { token: token() });
    expect(updated.body).toMatchObject({ firstName: 'Changed', lastName: 'Kept3', phoneNumber: '+16462340003' });
    const created = await t.request('GET', '/v1/contacts/email:new-14@mail.example', { token: token() });
    expect(created.body).toMatchObject({ firstName: 'First14', lastName: 'Smith, "Jr."\n14', phoneNumber: '+12122340014' });
    expect(created.body.contactCustomFields).toEqual([expect.objectContaining({ customFieldId: String(score), value: '14' })]);
    expect(created.body.contactInboxes).toEqual([expect.objectContaining({ inboxId: String(inbox), channel: 'chat' })]);
    // In the search index as any contact is.
    const found = await t.request('GET', '/v1/contacts?keyword=new-14%40mail', { token: token() });
    expect(found.body.data.map((c: { email: string }) => c.email)).toEqual(['new-14@mail.example']);
    const count = await t.request('GET', '/v1/contacts/count', { token: token() });
    expect(count.body.count).toBe(800 + want.created);

    // The events the single operations record: one newContact per contact made, with its values.
    const recorded = await events.next();
    expect(recorded.filter((e) => e.type === 'newContact')).toHaveLength(want.created);
    expect(recorded.find((e) => e.type === 'newContact' && e.contactId === Number(created.body.id))?.body).toMatchObject({ email: 'new-14@mail.example', custom_fields: { Score: '14' } });
    expect(recorded.filter((e) => e.type === 'contactInfoUpdated' && e.body.info_type === 'first_name')).toHaveLength(want.updated);
  }, 120_000);

  it('reads a ; file with a BOM, quoted line breaks and CR line ends; takes off an export\'s formula escape', async () => {
    const csv = '\ufeffEmail;Name;Phone\r"semi@mail.example";"Ann\nMarie";\'+84 912 345 678\r';
    const fileId = await uploadCsv(t, token(), csv);
    const headers = await t.request('GET', `/v1/contacts/imports/files/${fileId}/headers`, { token: token() });
    expect(headers.body).toMatchObject({ headers: ['Email', 'Name', 'Phone'], delimiter: ';', suggestedColumnMap: { email: 'Email', phoneNumber: 'Phone' } });
    const started = await start({ fileId, countryCode: '+1', columnMap: { email: 'Email', firstName: 'Name', phoneNumber: 'Phone' } });
    const { final } = await followImport(t, token(), started.body.importId);
    expect(final).toMatchObject({ status: 'completed', totalCount: 1, createdCount: 1 });
    const contact = await t.request('GET', '/v1/contacts/email:semi@mail.example', { token: token() });
    expect(contact.body).toMatchObject({ firstName: 'Ann\nMarie', phoneNumber: '+84912345678' });
  });

  it('records a row too long to read as malformedRow and goes on with the next', async () => {
    const csv = `Email,Note\nfirst@mail.example,ok\nsecond@mail.example,${'y'.repeat(300 * 1024)}\nthird@mail.example,ok\n`;
    const fileId = await uploadCsv(t, token(), csv);
    const started = await start({ fileId, columnMap: { email: 'Email' } });
    const { final } = await followImport(t, token(), started.body.importId);
    expect(final).toMatchObject({ totalCount: 3, createdCount: 2, failedCount: 1 });
    expect(final.errorSample).toEqual([{ row: 3, code: 'malformedRow', path: null, reason: `The row cannot be read as CSV: the row holds ${19 + 300 * 1024} characters; at most 262144 are read` }]);
  });

  it('gives every contact the tag, and stops creating at the monthly-active-contact limit', async () => {
    const capped = await t.workspace({ name: 'Capped', macLimit: 2 });
    const f = fixtures(t.db, capped.id);
    const cappedInbox = await f.inbox('Capped inbox');
    const tag = await f.tag('imported');
    const csv = 'Email\na@mail.example\nb@mail.example\nc@mail.example\n';
    const fileId = await uploadCsv(t, capped.developerToken, csv);
    const started = await t.request('POST', '/v1/contacts/import', { token: capped.developerToken, body: { fileId, inboxId: String(cappedInbox), tagId: String(tag), columnMap: { email: 'Email' } } });
    expect(started.status, started.text).toBe(201);
    const { final } = await followImport(t, capped.developerToken, started.body.importId);
    expect(final).toMatchObject({ createdCount: 2, failedCount: 1, errorSample: [{ row: 4, code: 'macLimitReached', path: null, reason: expect.stringContaining('limit of 2') }] });
    const tagged = await t.request('GET', `/v1/contacts?tagId=${tag}`, { token: capped.developerToken });
    expect(tagged.body.data.map((c: { email: string }) => c.email).sort()).toEqual(['a@mail.example', 'b@mail.example']);
  });

  it('refuses a second import while one is pending (409), and names columns the file does not have (422)', async () => {
    const fileId = await uploadCsv(t, token(), 'Email\nq@mail.example\n');
    const missing = await start({ fileId, columnMap: { email: 'E-mail' }, fieldMapping: [{ column: 'Nope', customFieldId: String(score) }] });
    expect(missing.status).toBe(422);
    expect(missing.body.data.issues).toEqual([
      { message: 'The file has no column "E-mail"; its columns are "Email"', path: ['body', 'columnMap', 'email'] },
      { message: 'The file has no column "Nope"; its columns are "Email"', path: ['body', 'fieldMapping', 0, 'column'] },
    ]);
    const noIdentifier = await start({ fileId, columnMap: { firstName: 'Email' } });
    expect(noIdentifier.status).toBe(422);
    expect(noIdentifier.body.data.issues[0].path).toEqual(['body', 'columnMap']);

    await t.stopWorkers();
    try {
      const first = await start({ fileId, columnMap: { email: 'Email' } });
      expect(first.status).toBe(201);
      const second = await start({ fileId, columnMap: { email: 'Email' } });
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ code: 'conflict', status: 409, data: { reason: 'importInProgress' } });
      const listed = await t.request('GET', '/v1/contacts/imports?status=pending', { token: token() });
      expect(listed.body.data.map((i: { id: string }) => i.id)).toEqual([first.body.importId]);
    } finally {
      await t.startWorkers();
    }
    await t.settle();
    const done = await t.request('GET', '/v1/contacts/imports?status=completed&keyword=CONTACTS', { token: token() });
    expect(done.body.data.length).toBeGreaterThan(0);
  });

  it('takes exactly the declared bytes at the signed address, once', async () => {
    const asked = await t.request('POST', '/v1/contacts/imports/upload-url', { token: token(), body: { fileName: 'x.csv', mimeType: 'text/csv', fileSize: 10 } });
    expect(asked.body.presignedPostUrl).toMatch(/^http:\/\/localhost:\d+\/files\/contact-imports\/\d+\?expires=\d+&signature=[\w-]{43}$/);
    const path = localPath(asked.body.presignedPostUrl);
    const put = (body: string, headers: Record<string, string> = {}, at = path) => t.request('PUT', at, { body, headers: { 'content-type': 'text/csv', ...headers } });

    expect((await put('Email\nabcdefgh')).status).toBe(413);
    const short = await put('Email\n');
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ code: 'validation', data: { field: 'fileSize', reason: 'sizeMismatch', expected: 10, received: 6 } });
    const tampered = await put('Email\na@b.c', {}, path.replace(/signature=./, (m) => (m.endsWith('A') ? 'signature=B' : 'signature=A')));
    expect(tampered.status).toBe(403);
    expect((await put('Email\na@b.c', {}, path.replace(/expires=\d+/, 'expires=1'))).status).toBe(403);
    // A refused upload keeps nothing: the file is still waiting for its bytes.
    const early = await t.request('GET', `/v1/contacts/imports/files/${asked.body.fileId}/headers`, { token: token() });
    expect(early.body).toMatchObject({ code: 'validation', data: { reason: 'fileNotUploaded' } });
    expect((await put('Email\na@bc')).status).toBe(200);
    const again = await put('Email\na@bc');
    expect(again.status).toBe(409);
    expect((await t.request('GET', path)).status).toBe(405);
    // The address of one file is no address of another.
    const otherFile = await t.request('POST', '/v1/contacts/imports/upload-url', { token: token(), body: { fileName: 'y.csv', mimeType: 'text/csv', fileSize: 10 } });
    expect((await put('Email\na@b.c', {}, path.replace(`/${asked.body.fileId}?`, `/${otherFile.body.fileId}?`))).status).toBe(403);
    expect((await t.request('POST', '/v1/contacts/imports/upload-url', { token: token(), body: { fileName: 'big.csv', mimeType: 'text/csv', fileSize: 20 * 1024 * 1024 + 1 } })).status).toBe(422);
  });

  it('gives the rows not taken back as a CSV to fix, and a template to fill in', async () => {
    const fileId = await uploadCsv(t, token(), 'Email,Name\nok@mail.example,Ok\n=bad,Formula\n');
    const started = await start({ fileId, columnMap: { email: 'Email', firstName: 'Name' } });
    await followImport(t, token(), started.body.importId);
    const csv = await t.request('GET', `/v1/contacts/imports/${started.body.importId}/errors.csv`, { token: token() });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="contacts-errors.csv"');
    // The text as a spreadsheet reads it (the client's decoder takes the BOM off: the bytes have it).
    expect(csv.text).toBe('Email,Name,error,row\r\n\'=bad,Formula,"invalidEmail: Email: ""=bad"" is not a valid email address",3\r\n');
    const raw = await t.app.fetch(new Request(`http://localhost/v1/contacts/imports/${started.body.importId}/errors.csv`, { headers: { authorization: `Bearer ${token()}` } }));
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    await fixtures(t.db, ws.id).customField('Plan', 'select').catch(() => undefined);
    const template = await t.request('GET', '/v1/contacts/import-template', { token: token() });
    expect(template.body).toMatchObject({ fileName: 'contacts-import-template.csv', mimeType: 'text/csv' });
    const [header, example] = template.body.content.split('\r\n');
    // The custom fields as GET /v1/custom-fields lists them (by name), each with an example of its type.
    expect(header).toBe('First Name,Last Name,Email,Phone Number,Plan,Score');
    expect(example).toBe("Ada,Lovelace,ada.lovelace@mail.example,'+14155550123,,42");
  });

  it("answers 404 to another workspace's token for every file and import", async () => {
    const fileId = await uploadCsv(t, token(), 'Email\nmine@mail.example\n');
    const started = await start({ fileId, columnMap: { email: 'Email' } });
    await followImport(t, token(), started.body.importId);
    const theirs = other.developerToken;
    const theirInbox = await fixtures(t.db, other.id).inbox('Theirs');
    for (const path of [
      `/v1/contacts/imports/files/${fileId}/headers`,
      `/v1/contacts/imports/${started.body.importId}`,
      `/v1/contacts/imports/${started.body.importId}/errors`,
      `/v1/contacts/imports/${started.body.importId}/errors.csv`,
    ]) {
      const res = await t.request('GET', path, { token: theirs });
      expect(res.status, path).toBe(404);
    }
    const foreign = await start({ fileId, inboxId: String(theirInbox), columnMap: { email: 'Email' } }, theirs);
    expect(foreign.status).toBe(404);
    expect((await t.request('GET', '/v1/contacts/imports', { token: theirs })).body.data).toEqual([]);
    // Their own inbox, our file: nothing of ours is readable or importable.
    expect((await start({ fileId, columnMap: { email: 'Email' } }, theirs)).body.data).toEqual({ resource: 'Import file' });
  });
});
