import {
  CreateLeadAdAutomationDocument,
  DeleteNetLeadAdAutomationDocument,
  LeadAdAutomationDocument,
  LeadAdAutomationsDocument,
  LeadFormsDocument,
  LeadPagesDocument,
  UpdateLeadAdAutomationDocument,
} from '../../graphql/generated/graphql.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import type { GraphQLOperation } from '../graphql-operations.js';
import type { TestApp } from '../harness.js';

let serial = 0;

/** A connected page of its own with one form (`<page>1`): a create may answer it. */
const pageWithForm = async (t: TestApp, ws: number) => {
  const pageId = String(77_000_000 + ++serial);
  const f = fixtures(t.db, ws);
  await f.leadForm(await f.leadPage(pageId), `${pageId}1`, 'Spring coupon');
  return { pageId, formId: `${pageId}1` };
};

const read = { action: 'read', scope: 'automations', workspaceTokensOnly: false } as const;

export const leadAdOperations: GraphQLOperation[] = [
  { field: 'Query.leadAdAutomations', ...read, prepare: async (t) => (o) => gql(t, LeadAdAutomationsDocument, { perPage: 5, keyword: 'spring' }, o) },
  {
    field: 'Query.leadAdAutomation',
    ...read,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).leadAd('Spring form'));
      return (o) => gql(t, LeadAdAutomationDocument, { id }, o);
    },
  },
  { field: 'Query.leadPages', ...read, prepare: async (t) => (o) => gql(t, LeadPagesDocument, {}, o) },
  {
    field: 'Query.leadForms',
    ...read,
    prepare: async (t, ws) => {
      const { pageId } = await pageWithForm(t, ws);
      return (o) => gql(t, LeadFormsDocument, { pageId }, o);
    },
  },
  {
    field: 'Mutation.createLeadAdAutomation',
    action: 'write',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { pageId, formId } = await pageWithForm(t, ws);
      return (o) => gql(t, CreateLeadAdAutomationDocument, { input: { name: 'Spring leads', pageId, formIds: [formId], reply: { type: 'text', value: 'Thanks!' } } }, o);
    },
  },
  {
    field: 'Mutation.updateLeadAdAutomation',
    action: 'write',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const { pageId, formId } = await pageWithForm(t, ws);
      const id = String(await fixtures(t.db, ws).leadAd('Spring form', { pageId, formIds: [formId] }));
      return (o) => gql(t, UpdateLeadAdAutomationDocument, { id, input: { isActive: false } }, o);
    },
  },
  {
    field: 'Mutation.deleteNetLeadAdAutomation',
    action: 'delete',
    scope: 'automations',
    workspaceTokensOnly: false,
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).leadAd('Spring form'));
      return (o) => gql(t, DeleteNetLeadAdAutomationDocument, { id }, o);
    },
  },
];
