import { leadAdOperations as leadAds } from '../../domain/lead-ads/lead-ad.operations.js';
import { leadFormStatusSchema, type LeadForm, type LeadPage, type LeadQuestion } from '../../domain/lead-ads/lead-page.schema.js';
import { pageArgsSchema } from '../../domain/shared/pagination.js';
import { builder } from '../builder.js';
import { contractEnum } from '../enums.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageComplexity, pageOf } from '../page.js';

/**
 * The connected pages and their lead forms (GET /v1/net-lead-ads/pages and /forms). Not Nodes:
 * their ids are the network's, not records of ours, so they carry `rawId` (REST's `id`) and no `id`.
 */

const LeadFormStatusEnum = contractEnum('LeadFormStatus', leadFormStatusSchema.options, 'archived forms get no new leads');

const LeadFormQuestionType = builder.objectRef<LeadQuestion>('LeadFormQuestion').implement({
  fields: (t) => ({
    key: t.exposeString('key', { description: 'What a field mapping names (questionKey)' }),
    label: t.exposeString('label'),
    type: t.exposeString('type', { description: "The network's question type: FULL_NAME, EMAIL, PHONE, CUSTOM, ..." }),
  }),
});

export const LeadFormType = builder.objectRef<LeadForm>('LeadForm').implement({
  description: 'A lead form of a connected page, with its questions.',
  fields: (t) => ({
    rawId: t.exposeString('id', { description: "The network's form id (REST's `id`): an entry of an automation's formIds" }),
    pageId: t.exposeString('pageId'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: LeadFormStatusEnum }),
    questions: t.expose('questions', { type: [LeadFormQuestionType] }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const LeadPageType = builder.objectRef<LeadPage>('LeadPage').implement({
  description: 'A social-network page connected to the workspace, whose lead forms automations answer.',
  fields: (t) => ({
    rawId: t.exposeString('id', { description: "The network's page id (REST's `id`): an automation's pageId" }),
    name: t.exposeString('name'),
    inboxId: t.exposeID('inboxId', { nullable: true }),
    formsCount: t.exposeInt('formsCount'),
    forms: t.field({
      type: [LeadFormType],
      description: 'Every form of the page, archived ones included, in creation order (one statement for every page of the response)',
      resolve: (p, _a, { loaders }) => loaders.leadPageForms.load(p.id),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('leadPages', (t) =>
  t.field({
    type: pageOf('LeadPagePage', LeadPageType),
    description: 'Like GET /v1/net-lead-ads/pages: the connected pages, in the order they were connected.',
    access: leadAds.listPages.access,
    args: pageArgs(t.arg),
    validate: pageArgsSchema,
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(leadAds.listPages, ctx, { query: { page: args.page, perPage: args.perPage } }),
  }),
);

builder.queryField('leadForms', (t) =>
  t.field({
    type: pageOf('LeadFormPage', LeadFormType),
    description: "Like GET /v1/net-lead-ads/forms?pageId=: one page's forms in creation order; a page the workspace has not connected is notFound.",
    access: leadAds.listForms.access,
    args: { pageId: t.arg.string({ required: true, description: 'The page (LeadPage.rawId)' }), ...pageArgs(t.arg) },
    validate: pageArgsSchema.extend({ pageId: leadAds.listForms.query.shape.pageId }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(leadAds.listForms, ctx, { query: { pageId: args.pageId, page: args.page, perPage: args.perPage } }),
  }),
);
