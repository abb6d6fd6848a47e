import { createLeadAdInput, leadAdAutomationSchema, leadAdPageSchema, leadAdsQuery, updateLeadAdInput } from '../../domain/lead-ads/lead-ad.schema.js';
import { createLeadAd, deleteNetLeadAd, getLeadAd, listLeadAdsPage, updateLeadAd } from '../../domain/lead-ads/lead-ad.service.js';
import { leadFormPageSchema, leadFormsQuery, leadPagePageSchema, leadPagesQuery } from '../../domain/lead-ads/lead-page.schema.js';
import { listLeadFormsPage, listLeadPagesPage } from '../../domain/lead-ads/lead-page.service.js';
import { idParams, successSchema } from '../../domain/shared/schemas.js';
import { defineRoute } from '../route.js';

const tag = 'Lead-ad automations';
const access = (action: 'read' | 'write' | 'delete') => ({ action, scope: 'automations' as const });

/** The demo workspace's page, two of its forms and its "Spring lead form" automation. */
const pageExample = {
  id: '102030405060708',
  name: 'Bloom & Co.',
  inboxId: '2',
  formsCount: 4,
  createdAt: '2026-08-23T10:00:00.000Z',
  updatedAt: '2026-08-23T10:00:00.000Z',
};
const question = (key: string, label: string, type: string) => ({ key, label, type });
const formExamples = [
  {
    id: '550001',
    pageId: '102030405060708',
    name: 'Spring coupon',
    status: 'active' as const,
    questions: [question('full_name', 'Full name', 'FULL_NAME'), question('email', 'Email', 'EMAIL'), question('company', 'Company name', 'CUSTOM')],
    createdAt: '2026-10-02T10:00:00.000Z',
    updatedAt: '2026-10-02T10:00:00.000Z',
  },
  {
    id: '550004',
    pageId: '102030405060708',
    name: 'Wholesale enquiry',
    status: 'archived' as const,
    questions: [question('full_name', 'Full name', 'FULL_NAME'), question('email', 'Email', 'EMAIL'), question('order_volume', 'Orders per month', 'CUSTOM')],
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
  },
];
const createExample = {
  name: 'Spring lead form',
  pageId: '102030405060708',
  formIds: ['550001'],
  fieldMappings: [{ questionKey: 'company', customFieldId: '1' }],
  reply: { type: 'text' as const, value: 'Thanks {{first_name}}! Your coupon: SPRING20' },
  tagIds: ['2'],
  sequenceIds: ['3'],
};
const automationExample = {
  id: '1',
  createdAt: '2026-11-08T10:00:00.000Z',
  updatedAt: '2026-11-08T10:00:00.000Z',
  name: createExample.name,
  pageId: createExample.pageId,
  formIds: createExample.formIds,
  isActive: true,
  reply: createExample.reply,
  fieldMappings: createExample.fieldMappings,
  tagIds: createExample.tagIds,
  sequenceIds: createExample.sequenceIds,
};

/** Lead-ad automations (issue automations-api; the DELETE was built with the contract). */
export const leadAdRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/net-lead-ads',
    operationId: 'netLeadAds.list',
    summary: 'The lead-ad automations, newest first; keyword filters by name',
    tag,
    access: access('read'),
    query: leadAdsQuery,
    response: { status: 200, description: 'A page of automations', schema: leadAdPageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: { query: { page: '1', perPage: '20', keyword: 'spring' }, response: { data: [automationExample], pageCount: 1 } },
    handler: ({ db, who, query }) => listLeadAdsPage(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/net-lead-ads',
    operationId: 'netLeadAds.create',
    summary: "Create an automation that answers new leads of a page's forms",
    tag,
    access: access('write'),
    body: createLeadAdInput,
    response: { status: 201, description: 'The new automation; `Location` is its address', schema: leadAdAutomationSchema, location: (a) => `/v1/net-lead-ads/${a.id}` },
    errors: [400, 401, 403, 413, 415, 422, 429, 500],
    examples: { body: createExample, response: automationExample },
    handler: ({ db, who, body }) => createLeadAd(db, who.workspaceId, body),
  }),
  // Before /v1/net-lead-ads/{id}: these two are fixed paths, not ids.
  defineRoute({
    method: 'GET',
    path: '/v1/net-lead-ads/pages',
    operationId: 'netLeadAds.listPages',
    summary: 'The connected pages whose lead forms automations can answer',
    tag,
    access: access('read'),
    query: leadPagesQuery,
    response: { status: 200, description: 'A page of connected pages', schema: leadPagePageSchema },
    errors: [400, 401, 403, 422, 429, 500],
    examples: { query: { page: '1', perPage: '20' }, response: { data: [pageExample], pageCount: 1 } },
    handler: ({ db, who, query }) => listLeadPagesPage(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/net-lead-ads/forms',
    operationId: 'netLeadAds.listForms',
    summary: "One connected page's lead forms with their questions",
    tag,
    access: access('read'),
    query: leadFormsQuery,
    response: { status: 200, description: 'A page of forms (archived ones included)', schema: leadFormPageSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { query: { pageId: '102030405060708', page: '1', perPage: '2' }, response: { data: formExamples, pageCount: 2 } },
    handler: ({ db, who, query }) => listLeadFormsPage(db, who.workspaceId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/net-lead-ads/{id}',
    operationId: 'netLeadAds.get',
    summary: 'One lead-ad automation',
    tag,
    access: access('read'),
    params: idParams,
    response: { status: 200, description: 'The automation', schema: leadAdAutomationSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '1' }, response: automationExample },
    handler: ({ db, who, params }) => getLeadAd(db, who.workspaceId, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/net-lead-ads/{id}',
    operationId: 'netLeadAds.update',
    summary: 'Change a lead-ad automation: given fields replace the stored ones whole',
    tag,
    access: access('write'),
    params: idParams,
    body: updateLeadAdInput,
    response: { status: 200, description: 'The automation as changed', schema: leadAdAutomationSchema },
    errors: [400, 401, 403, 404, 413, 415, 422, 429, 500],
    examples: {
      params: { id: '1' },
      body: { formIds: ['*'], isActive: false },
      response: { ...automationExample, formIds: ['*'], isActive: false, updatedAt: '2026-11-24T08:00:00.000Z' },
    },
    handler: ({ db, who, params, body }) => updateLeadAd(db, who.workspaceId, params.id, body, ['body']),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/net-lead-ads/{id}',
    operationId: 'netLeadAds.delete',
    summary: 'Delete a lead-ad automation permanently',
    tag,
    access: access('delete'),
    params: idParams,
    response: { status: 200, description: 'Deleted', schema: successSchema },
    errors: [400, 401, 403, 404, 422, 429, 500],
    examples: { params: { id: '2' }, response: { success: true } },
    handler: ({ db, who, params }) => deleteNetLeadAd(db, who.workspaceId, params.id),
  }),
];
