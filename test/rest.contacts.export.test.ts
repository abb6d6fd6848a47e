import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimited } from './support/endpoints.js';
import { createEngineTestApp, type EngineTestApp } from './support/engine-app.js';
import { testEngine } from './support/engine.js';
import { fixtures } from './support/fixtures.js';
import { followExport, followImport, localPath, uploadCsv } from './support/contact-files.js';
import type { TestWorkspace } from './support/harness.js';

/** Exports through the API on a real queue: ask, follow, download, and import the file again. */
describe(`contact exports on ${testEngine}`, () => {
  let t: EngineTestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let inbox: number;
  let plan: number;
  let vip: number;
  const ids: number[] = [];
  const token = () => ws.developerToken;

  /** The bytes of a download, BOM included (a client's text decoder would drop it). */
  const download = async (url: string) => {
    const res = await t.app.fetch(new Request(`http://localhost${localPath(url)}`));
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const exportOf = async (body: Record<string, unknown>) => {
    const asked = await t.request('POST', '/v1/contacts/export', { token: token(), body });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.headers.get('location')).toBe(`/v1/contacts/export-files/${asked.body.fileId}`);
    return followExport(t, token(), asked.body.fileId);
  };

  beforeAll(async () => {
    t = await createEngineTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    inbox = await f.inbox('Everyone');
    plan = await f.customField('Plan');
    vip = await f.tag('vip');
    // Values a spreadsheet would run as formulas, a quote, a comma and a line break.
    const people = [
      { email: 'ada@mail.example', phone: '+14155550123', firstName: '=HYPERLINK("http://evil.example")', lastName: 'Lovelace', plan: '@SUM(A1)' },
      { email: 'grace@mail.example', phone: '+14155550124', firstName: 'Grace', lastName: 'Hopper, "Amazing"\nGrace', plan: '-1' },
      { email: 'alan@mail.example', phone: null, firstName: 'Alan', lastName: '\tTuring', plan: 'gold' },
    ];
    for (const p of people) {
      const id = await f.contact({ email: p.email, phone: p.phone, firstName: p.firstName, lastName: p.lastName });
      await f.fieldValue(id, plan, p.plan);
      await f.contactInbox(id, inbox);
      ids.push(id);
    }
    await f.tagContact(ids[0]!, vip);
  });
  afterAll(() => t.close());

  it('writes the CSV with a BOM, CRLF and formula cells escaped; the download streams it', async () => {
    const file = await exportOf({ fields: ['sys:id', 'sys:firstName', 'sys:lastName', 'sys:email', 'sys:phoneNumber', `cf:${plan}`, 'sys:tags'], exportAll: true });
    expect(file).toMatchObject({ status: 'ready', rowCount: 3, errorMessage: null, url: expect.stringMatching(/\/files\/contact-exports\/\d+\?expires=\d+&signature=[\w-]{43}$/) });
    const got = await download(file.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="contacts-export-\d{4}-\d\d-\d\d\.csv"$/);
    expect(got.headers.get('content-length')).toBe(String(got.bytes.byteLength));
    expect(got.bytes.toString('utf8')).toBe(
      '\ufeffContact ID,First Name,Last Name,Email,Phone Number,Plan,Tags\r\n' +
        // Newest first; every cell that starts with = + - @ tab or CR gets a leading '.
        `${ids[2]},Alan,'\tTuring,alan@mail.example,,gold,\r\n` +
        `${ids[1]},Grace,"Hopper, ""Amazing""\nGrace",grace@mail.example,'+14155550124,'-1,\r\n` +
        `${ids[0]},"'=HYPERLINK(""http://evil.example"")",Lovelace,ada@mail.example,'+14155550123,'@SUM(A1),vip\r\n`,
    );
  });

  it('imports its own file again to the same contacts, values as they were', async () => {
    const file = await exportOf({ fields: ['sys:id', 'sys:firstName', 'sys:lastName', 'sys:email', 'sys:phoneNumber', `cf:${plan}`], exportAll: true });
    const csv = (await download(file.url)).bytes.toString('utf8');
    const fileId = await uploadCsv(t, token(), csv);
    const headers = await t.request('GET', `/v1/contacts/imports/files/${fileId}/headers`, { token: token() });
    expect(headers.body).toMatchObject({
      suggestedColumnMap: { contactId: 'Contact ID', firstName: 'First Name', lastName: 'Last Name', email: 'Email', phoneNumber: 'Phone Number' },
      suggestedFieldMapping: [{ column: 'Plan', customFieldId: String(plan) }],
    });
    const started = await t.request('POST', '/v1/contacts/import', { token: token(), body: { fileId, inboxId: String(inbox), columnMap: headers.body.suggestedColumnMap, fieldMapping: headers.body.suggestedFieldMapping } });
    const { final } = await followImport(t, token(), started.body.importId);
    expect(final).toMatchObject({ status: 'completed', totalCount: 3, createdCount: 0, updatedCount: 0, skippedCount: 3, failedCount: 0 });
    const ada = await t.request('GET', `/v1/contacts/${ids[0]}`, { token: token() });
    expect(ada.body).toMatchObject({ firstName: '=HYPERLINK("http://evil.example")', phoneNumber: '+14155550123' });
    expect(ada.body.contactCustomFields).toEqual([expect.objectContaining({ value: '@SUM(A1)' })]);
  });

  it('exports what a search tree finds, or the contacts named', async () => {
    const byTag = await exportOf({ fields: ['sys:email'], filter: { field: 'tags', operator: 'hasAny', value: [String(vip)] } });
    expect((await download(byTag.url)).bytes.toString('utf8')).toBe('\ufeffEmail\r\nada@mail.example\r\n');
    const named = await exportOf({ fields: ['sys:email', 'sys:emailOptIn'], contactIds: [String(ids[1]), String(ids[0])] });
    expect((await download(named.url)).bytes.toString('utf8')).toBe('\ufeffEmail,Email Opt-in\r\nada@mail.example,false\r\ngrace@mail.example,false\r\n');
  });

  it('checks the request: one selection, known fields and contacts (404 naming them), a valid tree', async () => {
    const post = (body: unknown) => t.request('POST', '/v1/contacts/export', { token: token(), body });
    expect((await post({ fields: ['sys:email'], exportAll: true, contactIds: ['1'] })).status).toBe(422);
    expect((await post({ fields: ['sys:nope'], exportAll: true })).body.data.issues[0].path).toEqual(['body', 'fields', 0]);
    expect((await post({ fields: ['sys:email'], contactIds: [String(ids[0]), '999999'] })).body).toMatchObject({ code: 'notFound', data: { resource: 'Contact', ids: ['999999'] } });
    expect((await post({ fields: ['cf:999999'], exportAll: true })).body).toMatchObject({ code: 'notFound', data: { resource: 'Custom field', ids: ['999999'] } });
    expect((await post({ fields: ['sys:email'], filter: { field: 'customField:999999', operator: 'equals', value: 'x' } })).status).toBe(422);
    // Another workspace's contacts are not there for this one.
    expect((await t.request('POST', '/v1/contacts/export', { token: other.developerToken, body: { fields: ['sys:email'], contactIds: [String(ids[0])] } })).status).toBe(404);
  });

  it("keeps a workspace's exports from another's token, and deletes the file when its time is up", async () => {
    const file = await exportOf({ fields: ['sys:email'], exportAll: true });
    expect((await t.request('GET', `/v1/contacts/export-files/${file.fileId}`, { token: other.developerToken })).status).toBe(404);
    // The signature is the file's own: another file's id under it is refused.
    const theirs = await t.request('POST', '/v1/contacts/export', { token: other.developerToken, body: { fields: ['sys:email'], exportAll: true } });
    const forged = localPath(file.url).replace(`/${file.fileId}?`, `/${theirs.body.fileId}?`);
    expect((await t.app.fetch(new Request(`http://localhost${forged}`))).status).toBe(403);

    await t.dueNow();
    await t.settle();
    const expired = await t.request('GET', `/v1/contacts/export-files/${file.fileId}`, { token: token() });
    expect(expired.body).toMatchObject({ status: 'expired', url: null });
    expect((await download(file.url)).status).toBe(404);
  });
});
