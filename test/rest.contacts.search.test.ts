import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData } from './support/rest.js';

/**
 * POST /v1/contacts/search: a condition tree (and/or/not) over the contact's fields, tags, inboxes,
 * custom-field values by type and dates, bounded in size, checked at each node's path, and never
 * reaching another workspace.
 */
describe('POST /v1/contacts/search', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const c: Record<string, number> = {};
  const tag: Record<string, number> = {};
  const field: Record<string, number> = {};
  let inbox: number;
  let foreignField: number;
  let foreignTag: number;

  const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T08:00:00.000Z`;

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    c.ada = await f.contact({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', createdAt: day(1) });
    c.grace = await f.contact({ email: 'Grace@Navy.example', firstName: 'Grace', lastName: 'Hopper', createdAt: day(2) });
    c.alan = await f.contact({ phone: '+4420700001', firstName: 'Alan', createdAt: day(3) });
    c.edsger = await f.contact({ email: 'edsger@example.com', createdAt: day(4) });
    await t.db.updateTable('contacts').set({ gender: 'female', email_opt_in: 1 }).where('id', 'in', [c.ada, c.grace]).execute();
    await t.db.updateTable('contacts').set({ gender: 'male', blocked_at: day(5), updated_at: day(5) }).where('id', '=', c.alan).execute();
    tag.vip = await f.tag('vip');
    tag.lead = await f.tag('lead');
    for (const id of [c.ada, c.grace]) await f.tagContact(id, tag.vip);
    for (const id of [c.ada, c.alan]) await f.tagContact(id, tag.lead);
    inbox = await f.inbox('Support');
    await f.contactInbox(c.edsger, inbox);
    field.plan = await f.customField('Plan');
    field.orders = await f.customField('Orders', 'number');
    field.birthday = await f.customField('Birthday', 'date');
    field.sms = await f.customField('Wants SMS', 'boolean');
    await f.fieldValue(c.ada, field.plan, 'gold');
    await f.fieldValue(c.grace, field.plan, 'silver');
    await f.fieldValue(c.ada, field.orders, '12');
    await f.fieldValue(c.grace, field.orders, '3');
    await f.fieldValue(c.alan, field.orders, '2.5');
    await f.fieldValue(c.ada, field.birthday, '1815-12-10');
    await f.fieldValue(c.grace, field.birthday, '1906-12-09');
    await f.fieldValue(c.grace, field.sms, 'true');
    await f.fieldValue(c.alan, field.sms, 'false');
    const of = fixtures(t.db, other.id);
    const theirs = await of.contact({ email: 'ada@other.example', firstName: 'Ada', createdAt: day(6) });
    foreignField = await of.customField('Plan');
    await of.fieldValue(theirs, foreignField, 'gold');
    foreignTag = await of.tag('vip');
    await of.tagContact(theirs, foreignTag);
  });
  afterAll(() => t.close());

  const search = async (filter: unknown, extra: Record<string, unknown> = {}, token = ws.developerToken) =>
    api.request('POST', '/v1/contacts/search', { token, body: { filter, ...extra } });
  const ids = async (filter: unknown) => {
    const res = await search(filter);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((x: { id: string }) => Number(x.id));
  };
  const cf = (name: string) => `customField:${field[name]}`;

  it('matches contact fields: text case-insensitively, enums, flags and dates', async () => {
    expect(await ids({ field: 'email', operator: 'equals', value: 'grace@navy.EXAMPLE' })).toEqual([c.grace]);
    expect(await ids({ field: 'firstName', operator: 'contains', value: 'a' })).toEqual([c.alan, c.grace, c.ada]);
    expect(await ids({ field: 'firstName', operator: 'startsWith', value: 'al' })).toEqual([c.alan]);
    expect(await ids({ field: 'email', operator: 'isEmpty' })).toEqual([c.alan]);
    expect(await ids({ field: 'lastName', operator: 'notEquals', value: 'hopper' })).toEqual([c.edsger, c.alan, c.ada]);
    expect(await ids({ field: 'gender', operator: 'in', value: ['female', 'male'] })).toEqual([c.alan, c.grace, c.ada]);
    expect(await ids({ field: 'emailOptIn', operator: 'is', value: true })).toEqual([c.grace, c.ada]);
    expect(await ids({ field: 'blocked', operator: 'is', value: true })).toEqual([c.alan]);
    expect(await ids({ field: 'createdAt', operator: 'between', value: [day(2), day(4)] })).toEqual([c.alan, c.grace]);
    expect(await ids({ field: 'updatedAt', operator: 'after', value: day(5) })).toEqual([c.alan]);
    expect(await ids({ field: 'blockedAt', operator: 'isEmpty' })).toEqual([c.edsger, c.grace, c.ada]);
  });

  it('matches tags (any, all, none) and inboxes', async () => {
    expect(await ids({ field: 'tags', operator: 'hasAny', value: [String(tag.vip), String(tag.lead)] })).toEqual([c.alan, c.grace, c.ada]);
    expect(await ids({ field: 'tags', operator: 'hasAll', value: [String(tag.vip), String(tag.lead)] })).toEqual([c.ada]);
    expect(await ids({ field: 'tags', operator: 'hasNone', value: [String(tag.vip)] })).toEqual([c.edsger, c.alan]);
    expect(await ids({ field: 'inboxes', operator: 'hasAny', value: [String(inbox)] })).toEqual([c.edsger]);
  });

  it("compares custom-field values by the field's type", async () => {
    expect(await ids({ field: cf('plan'), operator: 'equals', value: 'gold' })).toEqual([c.ada]);
    expect(await ids({ field: cf('plan'), operator: 'notEquals', value: 'gold' })).toEqual([c.edsger, c.alan, c.grace]);
    expect(await ids({ field: cf('plan'), operator: 'contains', value: 'IL' })).toEqual([c.grace]);
    expect(await ids({ field: cf('plan'), operator: 'isEmpty' })).toEqual([c.edsger, c.alan]);
    // Numbers compare as numbers: 12 > 3 > 2.5, although "12" < "3" as text.
    expect(await ids({ field: cf('orders'), operator: 'gt', value: 2.5 })).toEqual([c.grace, c.ada]);
    expect(await ids({ field: cf('orders'), operator: 'lte', value: 3 })).toEqual([c.alan, c.grace]);
    expect(await ids({ field: cf('orders'), operator: 'equals', value: 12 })).toEqual([c.ada]);
    expect(await ids({ field: cf('birthday'), operator: 'before', value: '1900-01-01' })).toEqual([c.ada]);
    expect(await ids({ field: cf('birthday'), operator: 'between', value: ['1800-01-01', '1906-12-10'] })).toEqual([c.grace, c.ada]);
    expect(await ids({ field: cf('sms'), operator: 'is', value: true })).toEqual([c.grace]);
    expect(await ids({ field: cf('sms'), operator: 'is', value: false })).toEqual([c.alan]);
  });

  it('combines conditions with and, or and not, nested', async () => {
    const tree = {
      or: [
        { and: [{ field: 'tags', operator: 'hasAny', value: [String(tag.vip)] }, { field: cf('orders'), operator: 'gte', value: 10 }] },
        { not: { or: [{ field: 'email', operator: 'isNotEmpty' }, { field: 'blocked', operator: 'is', value: false }] } },
      ],
    };
    expect(await ids(tree)).toEqual([c.alan, c.ada]);
    // A top-level tag or value condition drives the search; the others then probe each contact it found.
    expect(await ids({ and: [{ field: cf('plan'), operator: 'isNotEmpty' }, { field: 'tags', operator: 'hasAll', value: [String(tag.vip), String(tag.lead)] }] })).toEqual([c.ada]);
    expect(await ids({ and: [{ field: 'tags', operator: 'hasAny', value: [String(tag.lead)] }, { field: cf('orders'), operator: 'lt', value: 10 }, { field: cf('sms'), operator: 'is', value: false }] })).toEqual([c.alan]);
    expect(await ids({ and: [{ field: 'tags', operator: 'hasAny', value: [String(tag.vip)] }, { field: cf('plan'), operator: 'notEquals', value: 'gold' }, { field: 'inboxes', operator: 'hasNone', value: [String(inbox)] }] })).toEqual([c.grace]);
    // not over a condition on a missing value still means "every other contact".
    expect(await ids({ not: { field: 'lastName', operator: 'equals', value: 'Hopper' } })).toEqual([c.edsger, c.alan, c.ada]);
  });

  it('paginates, embeds with include, and counts the same statements for any page size', async () => {
    const res = await search({ field: 'email', operator: 'isNotEmpty' }, { page: 2, perPage: 2, include: ['tags'] });
    expect(res.status).toBe(200);
    expect(res.body.pageCount).toBe(2);
    expect(res.body.data.map((x: { id: string; tags: { name: string }[] }) => [Number(x.id), x.tags.map((g) => g.name)])).toEqual([[c.ada, ['lead', 'vip']]]);
    const statements = async (perPage: number) => {
      const r = await t.request('POST', '/v1/contacts/search', {
        token: ws.developerToken,
        body: { filter: { and: [{ field: 'tags', operator: 'hasNone', value: [String(tag.lead)] }, { field: cf('plan'), operator: 'isNotEmpty' }] }, perPage, include: ['tags', 'customFields', 'inboxes', 'conversations'] },
      });
      expect(r.status).toBe(200);
      return Number(r.headers.get('x-db-statements'));
    };
    expect(await statements(1)).toBe(await statements(50));
  });

  it('refuses unknown fields, wrong operators and operand types at their path', async () => {
    const res = await search({
      and: [
        { field: 'colour', operator: 'equals', value: 'red' },
        { field: 'email', operator: 'gt', value: 'a' },
        { field: cf('orders'), operator: 'gt', value: 'ten' },
        { field: cf('birthday'), operator: 'after', value: '1900-02-30' },
        { field: 'tags', operator: 'hasAny', value: [String(foreignTag), '424242'] },
        { field: `customField:${foreignField}`, operator: 'equals', value: 'gold' },
        { field: 'createdAt', operator: 'between', value: [day(1)] },
        { field: 'email', operator: 'isEmpty', value: 'x' },
        { field: 'gender', operator: 'equals', value: 'other' },
        { field: 'createdAt', operator: 'after', value: '2026-02-30T00:00:00Z' },
      ],
    });
    expect(res.body).toEqual(
      invalidRequestData([
        { message: 'Unknown field "colour": see GET /v1/contacts/filter-fields', path: ['body', 'filter', 'and', 0, 'field'] },
        { message: 'gt is not an operator of email; use one of equals, notEquals, contains, notContains, startsWith, isEmpty, isNotEmpty', path: ['body', 'filter', 'and', 1, 'operator'] },
        { message: expect.stringContaining('number'), path: ['body', 'filter', 'and', 2, 'value'] },
        { message: expect.stringContaining('date'), path: ['body', 'filter', 'and', 3, 'value'] },
        { message: `Unknown tag ids: ${foreignTag}, 424242`, path: ['body', 'filter', 'and', 4, 'value'] },
        { message: `No custom field with id ${foreignField} in this workspace`, path: ['body', 'filter', 'and', 5, 'field'] },
        { message: 'between takes [from, to]', path: ['body', 'filter', 'and', 6, 'value'] },
        { message: 'isEmpty takes no value', path: ['body', 'filter', 'and', 7, 'value'] },
        { message: 'value must be one of male, female, unknown', path: ['body', 'filter', 'and', 8, 'value'] },
        { message: 'value must be an ISO 8601 date-time with a time zone, e.g. 2026-11-23T10:00:00Z', path: ['body', 'filter', 'and', 9, 'value'] },
      ]),
    );
  });

  it('refuses malformed nodes, trees deeper than 5 levels and more than 50 conditions', async () => {
    expect((await search({ field: 'email', operator: 'isEmpty', and: [{ field: 'city', operator: 'isEmpty' }] })).body).toEqual(
      invalidRequestData([{ message: 'A condition is exactly one of {and: [...]}, {or: [...]}, {not: {...}} or {field, operator, value}', path: ['body', 'filter'] }]),
    );
    expect((await search({ and: [] })).body).toEqual(invalidRequestData([{ message: 'Too small: expected array to have >=1 items', path: ['body', 'filter', 'and'] }]));
    expect((await search({ field: 'email' })).body).toEqual(invalidRequestData([{ message: 'operator is required with field', path: ['body', 'filter', 'operator'] }]));
    let deep: unknown = { field: 'email', operator: 'isEmpty' };
    for (let i = 0; i < 6; i++) deep = { not: deep };
    expect((await search(deep)).body).toEqual(invalidRequestData([{ message: 'Groups nest at most 5 levels deep', path: ['body', 'filter', 'not', 'not', 'not', 'not', 'not'] }]));
    const many = { or: [{ and: Array.from({ length: 30 }, () => ({ field: 'email', operator: 'isEmpty' })) }, { and: Array.from({ length: 21 }, () => ({ field: 'city', operator: 'isEmpty' })) }] };
    expect((await search(many)).body).toEqual(invalidRequestData([{ message: 'A filter holds at most 50 conditions (this one has 51)', path: ['body', 'filter'] }]));
    expect((await search({ field: 'email', operator: 'isEmpty' }, { perPage: 51 })).body).toMatchObject({ code: 'invalidRequestData', data: { issues: [{ path: ['body', 'perPage'] }] } });
  });

  it("never finds another workspace's contacts, by any condition", async () => {
    expect(await ids({ field: 'firstName', operator: 'equals', value: 'Ada' })).toEqual([c.ada]);
    const theirs = await search({ field: `customField:${foreignField}`, operator: 'equals', value: 'gold' }, {}, other.developerToken);
    expect(theirs.body.data.map((x: { email: string }) => x.email)).toEqual(['ada@other.example']);
    expect((await search({ field: cf('plan'), operator: 'equals', value: 'gold' }, {}, other.developerToken)).body.data[0]?.field).toBeUndefined();
  });
});

describe('GET /v1/contacts/filter-fields and POST /v1/contacts/filter-value-labels', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it("lists the contact's fields, then the workspace's custom fields with their operators", async () => {
    const f = fixtures(t.db, ws.id);
    const orders = await f.customField('Orders', 'number');
    const res = await t.request('GET', '/v1/contacts/filter-fields', { token: ws.developerToken });
    expect(res.status).toBe(200);
    const fields = res.body.data as { field: string }[];
    expect(fields[0]).toEqual({
      field: 'firstName',
      label: 'First name',
      kind: 'text',
      customFieldType: null,
      operators: ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'isEmpty', 'isNotEmpty'],
      options: null,
      indexed: false,
    });
    expect(fields.at(-1)).toEqual({
      field: `customField:${orders}`,
      label: 'Orders',
      kind: 'number',
      customFieldType: 'number',
      operators: ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'isEmpty', 'isNotEmpty'],
      options: null,
      indexed: true,
    });
    expect(fields.map((x) => x.field)).toEqual(expect.arrayContaining(['tags', 'inboxes', 'gender', 'createdAt', 'updatedAt']));
  });

  it('names tag and inbox ids and genders; null for what has no name', async () => {
    const f = fixtures(t.db, ws.id);
    const vip = await f.tag('VIP');
    const inbox = await f.inbox('Support');
    const foreign = await fixtures(t.db, (await t.workspace({ name: 'Other' })).id).tag('theirs');
    const res = await t.request('POST', '/v1/contacts/filter-value-labels', {
      token: ws.developerToken,
      body: {
        values: [
          { field: 'tags', value: String(vip) },
          { field: 'inboxes', value: String(inbox) },
          { field: 'gender', value: 'female' },
          { field: 'tags', value: String(foreign) },
          { field: 'firstName', value: 'Ada' },
        ],
      },
    });
    expect(res.body).toEqual({
      data: [
        { field: 'tags', value: String(vip), label: 'VIP' },
        { field: 'inboxes', value: String(inbox), label: 'Support' },
        { field: 'gender', value: 'female', label: 'Female' },
        { field: 'tags', value: String(foreign), label: null },
        { field: 'firstName', value: 'Ada', label: null },
      ],
    });
  });
});
