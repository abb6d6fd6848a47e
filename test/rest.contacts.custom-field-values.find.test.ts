import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData } from './support/rest.js';

/**
 * GET /v1/contacts/find-by-custom-field?customFieldId=&value=: contacts whose value of the field
 * equals `value` in the canonical form of the field's type, paginated, as full contact objects.
 */
describe('GET /v1/contacts/find-by-custom-field', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let token: { token: string };
  const field: Record<string, number> = {};
  const contact: Record<string, number> = {};
  let vip: number;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    token = { token: ws.developerToken };
    const f = fixtures(t.db, ws.id);
    for (const [name, type] of [['Orders', 'number'], ['Plan', 'select'], ['Email', 'email'], ['Nickname', 'shortText'], ['VIP', 'boolean']] as const) {
      field[name] = await f.customField(name, type);
    }
    await t.db.updateTable('custom_fields').set({ options: JSON.stringify(['Free', 'Pro']) }).where('id', '=', field.Plan).execute();
    for (const name of ['ada', 'grace', 'alan', 'edsger', 'barbara', 'ken']) contact[name] = await f.contact({ email: `${name}@example.com`, firstName: name });
    const values: [string, string, string][] = [
      ['ada', 'Orders', '3'],
      ['grace', 'Orders', '30'],
      ['alan', 'Orders', '3.5'],
      ['edsger', 'Orders', '3'],
      ['ada', 'Plan', 'Pro'],
      ['grace', 'Plan', 'Free'],
      ['ada', 'Email', 'ada@work.example'],
      ['ada', 'Nickname', 'Gold'],
      ['grace', 'Nickname', 'gold'],
    ];
    for (const [who, what, value] of values) await f.fieldValue(contact[who], field[what], value);
    for (const who of ['ada', 'grace', 'alan', 'edsger', 'barbara']) await f.fieldValue(contact[who], field.VIP, 'true');
    vip = await f.tag('vip');
    await f.tagContact(contact.ada, vip);
  });
  afterAll(() => t.close());

  const find = (query: string, options = token) => api.request('GET', `/v1/contacts/find-by-custom-field?${query}`, options);
  const ids = (body: { data: { id: string }[] }) => body.data.map((c) => c.id);

  it('answers full contact objects, as POST /v1/contacts does', async () => {
    const res = await find(`customFieldId=${field.Plan}&value=Pro`);
    expect(res.status).toBe(200);
    const valueRow = async (fieldId: number) =>
      (await t.db.selectFrom('contact_custom_fields').select('id').where('contact_id', '=', contact.ada).where('custom_field_id', '=', fieldId).executeTakeFirstOrThrow()).id;
    const stamped = async (fieldId: number, value: string) => ({
      id: String(await valueRow(fieldId)),
      createdAt: T0,
      updatedAt: T0,
      value,
      contactId: String(contact.ada),
      customFieldId: String(fieldId),
    });
    expect(res.body).toEqual({
      data: [
        {
          id: String(contact.ada),
          avatar: null,
          phoneNumber: null,
          email: 'ada@example.com',
          firstName: 'ada',
          lastName: null,
          fullName: 'ada',
          ref: null,
          country: null,
          state: null,
          city: null,
          location: null,
          locale: null,
          timezone: null,
          workspaceId: String(ws.id),
          gender: 'unknown',
          emailVerified: false,
          emailOptIn: false,
          createdAt: T0,
          updatedAt: T0,
          lastReadAt: null,
          subscribedAt: null,
          broadcastSubscribedAt: null,
          blockedAt: null,
          contactCustomFields: [
            await stamped(field.Orders, '3'),
            await stamped(field.Plan, 'Pro'),
            await stamped(field.Email, 'ada@work.example'),
            await stamped(field.Nickname, 'Gold'),
            await stamped(field.VIP, 'true'),
          ],
          tags: [{ id: String(vip), createdAt: T0, updatedAt: T0, name: 'vip', deletedAt: null, folderId: null, workspaceId: String(ws.id) }],
          contactNotes: [],
          contactInboxes: [],
        },
      ],
      pageCount: 1,
    });
  });

  it("compares the value in the canonical form of the field's type", async () => {
    for (const value of ['3', '3.0', '03', '3e0', '%2B3.000']) {
      expect(ids((await find(`customFieldId=${field.Orders}&value=${value}`)).body), value).toEqual([String(contact.ada), String(contact.edsger)]);
    }
    expect(ids((await find(`customFieldId=${field.Orders}&value=3.50`)).body)).toEqual([String(contact.alan)]);
    expect(ids((await find(`customFieldId=${field.Plan}&value=pro`)).body)).toEqual([String(contact.ada)]);
    expect(ids((await find(`customFieldId=${field.Email}&value=ADA@Work.Example`)).body)).toEqual([String(contact.ada)]);
    expect(ids((await find(`customFieldId=${field.VIP}&value=TRUE&perPage=50`)).body)).toHaveLength(5);
    // Text is compared exactly, case included.
    expect(ids((await find(`customFieldId=${field.Nickname}&value=gold`)).body)).toEqual([String(contact.grace)]);
    expect((await find(`customFieldId=${field.Nickname}&value=silver`)).body).toEqual({ data: [], pageCount: 0 });
  });

  it('pages by contact id', async () => {
    const page = (n: number) => find(`customFieldId=${field.VIP}&value=true&perPage=2&page=${n}`);
    expect((await page(1)).body).toMatchObject({ pageCount: 3 });
    expect(ids((await page(1)).body)).toEqual([String(contact.ada), String(contact.grace)]);
    expect(ids((await page(2)).body)).toEqual([String(contact.alan), String(contact.edsger)]);
    expect(ids((await page(3)).body)).toEqual([String(contact.barbara)]);
    expect((await page(4)).body).toEqual({ data: [], pageCount: 3 });
  });

  it("is 422 for a field id the workspace does not have (at customFieldId) and a value not of the field's type", async () => {
    const theirs = await fixtures(t.db, other.id).customField('Orders', 'number');
    const unknown = invalidRequestData([{ message: 'customFieldId names no custom field of this workspace', path: ['query', 'customFieldId'] }]);
    for (const id of ['424242', String(theirs), '99999999999']) {
      const res = await find(`customFieldId=${id}&value=3`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(unknown);
    }
    expect((await find(`customFieldId=${field.Orders}&value=three`)).body).toEqual(
      invalidRequestData([{ message: 'value must be a number: a JSON number or a decimal string such as "3.5"', path: ['query', 'value'] }]),
    );
    expect((await find(`customFieldId=${field.Plan}&value=Gold`)).body).toEqual(
      invalidRequestData([{ message: 'value must be one of the options: "Free", "Pro"', path: ['query', 'value'] }]),
    );
    expect((await find('value=3')).body).toEqual(invalidRequestData([{ message: 'Required', path: ['query', 'customFieldId'] }]));
    expect((await find(`customFieldId=${field.Orders}&value=`)).body).toEqual(invalidRequestData([{ message: 'value must not be empty', path: ['query', 'value'] }]));
    expect((await find(`customFieldId=${field.Orders}`)).body).toEqual(invalidRequestData([{ message: 'Required', path: ['query', 'value'] }]));
    expect((await find(`customFieldId=abc&value=1&perPage=0`)).body).toEqual(
      invalidRequestData([
        { message: 'perPage must be at least 1', path: ['query', 'perPage'] },
        { message: 'must be a digit string', path: ['query', 'customFieldId'] },
      ]),
    );
  });

  it("never finds another workspace's contacts", async () => {
    const g = fixtures(t.db, other.id);
    const theirField = await g.customField('Plan', 'shortText');
    await g.fieldValue(await g.contact({ email: 'theirs@example.com' }), theirField, 'Pro');
    // Their token finds their contact by their field; A's token cannot name B's field.
    expect((await find(`customFieldId=${theirField}&value=Pro`, { token: other.developerToken })).body).toMatchObject({ pageCount: 1 });
    expect((await find(`customFieldId=${theirField}&value=Pro`)).status).toBe(422);
    expect(ids((await find(`customFieldId=${field.Plan}&value=Pro`, token)).body)).toEqual([String(contact.ada)]);
    expect((await find(`customFieldId=${field.Plan}&value=Pro`, { token: other.developerToken })).status).toBe(422);
  });
});
