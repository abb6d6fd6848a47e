import { operation, operationsOf } from '../shared/operation.js';
import { idParams, successSchema } from '../shared/schemas.js';
import { createLeadAdInput, leadAdAutomationSchema, leadAdPageSchema, leadAdsQuery, updateLeadAdInput } from './lead-ad.schema.js';
import { createLeadAd, deleteNetLeadAd, getLeadAd, listLeadAdsPage, updateLeadAd } from './lead-ad.service.js';
import { leadFormPageSchema, leadFormsQuery, leadPagePageSchema, leadPagesQuery } from './lead-page.schema.js';
import { listLeadFormsPage, listLeadPagesPage } from './lead-page.service.js';

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

/** Lead-ad automations (the DELETE was built with the contract). */
const read = { action: 'read', scope: 'automations' } as const;
const write = { action: 'write', scope: 'automations' } as const;

/** Lead-ad automations of the social network's pages, and the pages and forms they answer. */
export const leadAdOperations = operationsOf('Lead-ad automations', {
  list: operation({
    id: 'netLeadAds.list',
    summary: 'List lead-ad automations',
    description: 'The lead-ad automations, newest first; keyword filters by name.',
    access: read,
    query: leadAdsQuery,
    output: leadAdPageSchema,
    outputDescription: 'A page of automations',
    examples: { query: { page: '1', perPage: '20', keyword: 'spring' }, response: { data: [automationExample], pageCount: 1 } },
    run: ({ db, who, query }) => listLeadAdsPage(db, who.workspaceId, query),
  }),
  create: operation({
    id: 'netLeadAds.create',
    summary: 'Create a lead-ad automation',
    description: "An automation that answers new leads of a page's forms.",
    access: write,
    body: createLeadAdInput,
    output: leadAdAutomationSchema,
    outputDescription: 'The new automation; `Location` is its address',
    examples: { body: createExample, response: automationExample },
    run: ({ db, who, body }) => createLeadAd(db, who.workspaceId, body),
  }),
  listPages: operation({
    id: 'netLeadAds.listPages',
    summary: 'List connected pages',
    description: 'The connected pages whose lead forms automations can answer.',
    access: read,
    query: leadPagesQuery,
    output: leadPagePageSchema,
    outputDescription: 'A page of connected pages',
    examples: { query: { page: '1', perPage: '20' }, response: { data: [pageExample], pageCount: 1 } },
    run: ({ db, who, query }) => listLeadPagesPage(db, who.workspaceId, query),
  }),
  listForms: operation({
    id: 'netLeadAds.listForms',
    summary: "List a page's lead forms",
    description: "One connected page's lead forms with their questions.",
    access: read,
    query: leadFormsQuery,
    output: leadFormPageSchema,
    outputDescription: 'A page of forms (archived ones included)',
    examples: { query: { pageId: '102030405060708', page: '1', perPage: '2' }, response: { data: formExamples, pageCount: 2 } },
    run: ({ db, who, query }) => listLeadFormsPage(db, who.workspaceId, query),
  }),
  get: operation({
    id: 'netLeadAds.get',
    summary: 'Get a lead-ad automation',
    access: read,
    params: idParams,
    output: leadAdAutomationSchema,
    outputDescription: 'The automation',
    examples: { params: { id: '1' }, response: automationExample },
    run: ({ db, who, params }) => getLeadAd(db, who.workspaceId, params.id),
  }),
  update: operation({
    id: 'netLeadAds.update',
    summary: 'Change a lead-ad automation',
    description: 'The given fields replace the stored ones whole.',
    access: write,
    params: idParams,
    body: updateLeadAdInput,
    output: leadAdAutomationSchema,
    outputDescription: 'The automation as changed',
    examples: {
      params: { id: '1' },
      body: { formIds: ['*'], isActive: false },
      response: { ...automationExample, formIds: ['*'], isActive: false, updatedAt: '2026-11-24T08:00:00.000Z' },
    },
    run: ({ db, who, params, body, at }) => updateLeadAd(db, who.workspaceId, params.id, body, at.body),
  }),
  delete: operation({
    id: 'netLeadAds.delete',
    summary: 'Delete a lead-ad automation',
    description: 'Permanently: replying to its leads stops.',
    access: { action: 'delete', scope: 'automations' },
    params: idParams,
    output: successSchema,
    outputDescription: 'Deleted',
    examples: { params: { id: '2' }, response: { success: true } },
    run: ({ db, who, params }) => deleteNetLeadAd(db, who.workspaceId, params.id),
  }),
});
