import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateLeadAdAutomationDocument,
  LeadAdAutomationDocument,
  LeadAdAutomationsDocument,
  LeadFormsDocument,
  LeadPagesDocument,
  UpdateLeadAdAutomationDocument,
} from './graphql/generated/graphql.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, sampleLeadQuestions, T0 } from './support/fixtures.js';
import { fieldError, gql, invalidInput } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { notFound, validationError } from './support/rest.js';

const globalId = (type: string, id: number | string) => Buffer.from(`${type}:${id}`).toString('base64');

/** Lead-ad automations, pages and forms on GraphQL: the REST services and schemas, GraphQL's shapes. */
describe('GraphQL lead-ad automations, pages and forms', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const token = () => ({ token: ws.developerToken });
  const PAGE = '5550001';
  const [COUPON, WEBINAR] = ['6660001', '6660002'];
  let ids: { field: number; vip: number; lead: number; welcome: number; automation: number; theirs: number; inbox: number };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    const f = fixtures(t.db, ws.id);
    const inbox = await f.inbox('Page inbox', 'net');
    const page = await f.leadPage(PAGE, 'Bloom & Co.', { inboxId: inbox });
    await f.leadForm(page, COUPON, 'Spring coupon');
    await f.leadForm(page, WEBINAR, 'Webinar', { status: 'archived', questions: [{ key: 'email', label: 'Email', type: 'EMAIL' }] });
    const field = await f.customField('Company');
    const vip = await f.tag('vip');
    const lead = await f.tag('lead');
    const welcome = await f.sequence('Welcome');
    const automation = await f.leadAd('Spring coupon replies', {
      pageId: PAGE,
      formIds: [COUPON],
      fieldMappings: [{ questionKey: 'company', customFieldId: field }],
      tagIds: [lead, vip],
      sequenceIds: [welcome],
    });
    const g = fixtures(t.db, other.id);
    const theirs = await g.leadAd('Their automation');
    ids = { field, vip, lead, welcome, automation, theirs, inbox };
  });
  afterAll(() => t.close());

  const full = (extra: Record<string, unknown> = {}) => ({
    id: String(ids.automation),
    createdAt: T0,
    updatedAt: T0,
    name: 'Spring coupon replies',
    pageId: PAGE,
    formIds: [COUPON],
    isActive: true,
    reply: { type: 'text', value: 'Hi', values: null },
    fieldMappings: [{ questionKey: 'company', customFieldId: String(ids.field), customField: { rawId: String(ids.field), name: 'Company', type: 'shortText' } }],
    tags: [
      { rawId: String(ids.lead), name: 'lead' },
      { rawId: String(ids.vip), name: 'vip' },
    ],
    sequences: [{ rawId: String(ids.welcome), name: 'Welcome' }],
    ...extra,
  });

  it('leadAdAutomation by global or plain id: the automation with its mapped fields, tags and sequences', async () => {
    for (const id of [String(ids.automation), globalId('LeadAdAutomation', ids.automation)]) {
      expect((await gql(t, LeadAdAutomationDocument, { id }, token())).body).toEqual({ data: { leadAdAutomation: full() } });
    }
    expect((await gql(t, LeadAdAutomationDocument, { id: String(ids.theirs) }, token())).body).toEqual({
      data: null,
      errors: [fieldError(['leadAdAutomation'], notFound('Lead-ad automation'), 'Lead-ad automation not found')],
    });
  });

  it('leadAdAutomations is a page list like REST: page, perPage, keyword; only the workspace\'s', async () => {
    const res = await gql(t, LeadAdAutomationsDocument, { perPage: 1, keyword: 'COUPON' }, token());
    expect(res.body).toEqual({
      data: {
        leadAdAutomations: {
          data: [{ id: String(ids.automation), createdAt: T0, updatedAt: T0, name: 'Spring coupon replies', pageId: PAGE, formIds: [COUPON], isActive: true, reply: { type: 'text', value: 'Hi', values: null } }],
          pageCount: 1,
        },
      },
    });
    expect((await gql(t, LeadAdAutomationsDocument, { keyword: 'their' }, token())).body).toEqual({ data: { leadAdAutomations: { data: [], pageCount: 0 } } });
    expect((await gql(t, LeadAdAutomationsDocument, { perPage: 51 }, token())).body).toEqual({
      data: null,
      errors: [invalidInput(['leadAdAutomations'], [{ message: 'perPage must be at most 50', path: ['perPage'] }], 'perPage must be at most 50')],
    });
  });

  it('createLeadAdAutomation takes global ids, answers the new automation; a claimed form is 422 with a message naming it', async () => {
    const input = {
      name: 'Archived webinar',
      pageId: PAGE,
      formIds: [WEBINAR],
      fieldMappings: [{ questionKey: 'email', customFieldId: globalId('CustomField', ids.field) }],
      reply: { type: 'flow' as const, value: 'welcome-flow' },
      tagIds: [globalId('Tag', ids.vip)],
      sequenceIds: [String(ids.welcome)],
      isActive: false,
    };
    const res = await gql(t, CreateLeadAdAutomationDocument, { input }, token());
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data!.createLeadAdAutomation;
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      name: 'Archived webinar',
      pageId: PAGE,
      formIds: [WEBINAR],
      isActive: false,
      reply: { type: 'flow', value: 'welcome-flow', values: null },
      fieldMappings: [{ questionKey: 'email', customFieldId: String(ids.field), customField: { rawId: String(ids.field), name: 'Company', type: 'shortText' } }],
      tags: [{ rawId: String(ids.vip), name: 'vip' }],
      sequences: [{ rawId: String(ids.welcome), name: 'Welcome' }],
    });

    const again = await gql(t, CreateLeadAdAutomationDocument, { input: { ...input, formIds: ['*'], fieldMappings: null, tagIds: null } }, token());
    expect(again.body).toEqual({
      data: null,
      errors: [
        fieldError(
          ['createLeadAdAutomation'],
          validationError({
            field: 'formIds',
            reason: 'alreadyClaimed',
            pageId: PAGE,
            claims: [
              { formId: COUPON, automationId: String(ids.automation), automationName: 'Spring coupon replies' },
              { formId: WEBINAR, automationId: created.id, automationName: 'Archived webinar' },
            ],
          }),
          `Another lead-ad automation already answers forms of page ${PAGE}: form ${COUPON} by automation ${ids.automation} ("Spring coupon replies"); form ${WEBINAR} by automation ${created.id} ("Archived webinar")`,
        ),
      ],
    });
    await t.db.deleteFrom('lead_ad_automations').where('id', '=', Number(created.id)).execute();
  });

  it('createLeadAdAutomation: references checked as on REST, with messages', async () => {
    const input = { name: 'x', pageId: PAGE, formIds: [COUPON], reply: { type: 'none' as const } };
    const refused = async (extra: Record<string, unknown>, data: Record<string, unknown>, message: string) =>
      expect((await gql(t, CreateLeadAdAutomationDocument, { input: { ...input, ...extra } }, token())).body).toEqual({
        data: null,
        errors: [fieldError(['createLeadAdAutomation'], validationError(data), message)],
      });
    await refused({ pageId: '123', formIds: ['*'] }, { field: 'pageId', reason: 'notFound', ids: ['123'] }, 'pageId names nothing in this workspace: 123');
    await refused({ formIds: ['*'], fieldMappings: [{ questionKey: 'shoe_size', customFieldId: String(ids.field) }] }, { field: 'fieldMappings.questionKey', reason: 'notAQuestion', keys: ['shoe_size'] }, 'fieldMappings.questionKey: no chosen form of the page asks shoe_size');
  });

  it('updateLeadAdAutomation: given fields replaced whole; a partial reply is invalid input at its path', async () => {
    const partial = await gql(t, UpdateLeadAdAutomationDocument, { id: String(ids.automation), input: { reply: { type: 'text' }, name: null } }, token());
    expect(partial.body.errors).toBeUndefined();
    // GraphQL's absent `value` is the contract's null: a text reply without a value is still a whole reply.
    expect(partial.body.data!.updateLeadAdAutomation).toEqual(full({ reply: { type: 'text', value: null, values: null }, updatedAt: expect.any(String) }));
    const res = await gql(t, UpdateLeadAdAutomationDocument, { id: globalId('LeadAdAutomation', ids.automation), input: { tagIds: [], isActive: false } }, token());
    expect(res.body.data!.updateLeadAdAutomation).toEqual(full({ reply: { type: 'text', value: null, values: null }, updatedAt: expect.any(String), tags: [], isActive: false }));
    const empty = await gql(t, UpdateLeadAdAutomationDocument, { id: String(ids.automation), input: {} }, token());
    expect(empty.body).toEqual({
      data: null,
      errors: [invalidInput(['updateLeadAdAutomation'], [{ message: 'Provide at least one field to change', path: ['input'] }], 'input: Provide at least one field to change')],
    });
    const legacy = await fixtures(t.db, ws.id).leadAd('Legacy');
    await t.db.updateTable('lead_ad_automations').set({ page_id: null }).where('id', '=', legacy).execute();
    expect((await gql(t, UpdateLeadAdAutomationDocument, { id: String(legacy), input: { name: 'Renamed' } }, token())).body).toEqual({
      data: null,
      errors: [invalidInput(['updateLeadAdAutomation'], [{ message: 'Required', path: ['input', 'pageId'] }], 'input.pageId: Required')],
    });
    expect((await gql(t, UpdateLeadAdAutomationDocument, { id: String(ids.theirs), input: { name: 'Mine now' } }, token())).body).toEqual({
      data: null,
      errors: [fieldError(['updateLeadAdAutomation'], notFound('Lead-ad automation'), 'Lead-ad automation not found')],
    });
  });

  it('leadPages with their forms, and leadForms(pageId) with questions; an unknown page is notFound', async () => {
    const pages = await gql(t, LeadPagesDocument, {}, token());
    expect(pages.body).toEqual({
      data: {
        leadPages: {
          data: [
            {
              rawId: PAGE,
              name: 'Bloom & Co.',
              inboxId: String(ids.inbox),
              formsCount: 2,
              createdAt: T0,
              updatedAt: T0,
              forms: [
                { rawId: COUPON, name: 'Spring coupon', status: 'active' },
                { rawId: WEBINAR, name: 'Webinar', status: 'archived' },
              ],
            },
          ],
          pageCount: 1,
        },
      },
    });
    expect((await gql(t, LeadFormsDocument, { pageId: PAGE, perPage: 1 }, token())).body).toEqual({
      data: { leadForms: { data: [{ rawId: COUPON, pageId: PAGE, name: 'Spring coupon', status: 'active', questions: sampleLeadQuestions, createdAt: T0, updatedAt: T0 }], pageCount: 2 } },
    });
    expect((await gql(t, LeadFormsDocument, { pageId: PAGE }, { token: other.developerToken })).body).toEqual({
      data: null,
      errors: [fieldError(['leadForms'], notFound('Lead page'), 'Lead page not found')],
    });
    expect((await gql(t, LeadPagesDocument, {}, { token: other.developerToken })).body).toEqual({ data: { leadPages: { data: [], pageCount: 0 } } });
  });
});
