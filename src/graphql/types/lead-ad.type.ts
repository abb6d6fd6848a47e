import { z } from 'zod';
import type { FieldMappingRecord } from '../../domain/lead-ads/lead-ad.repository.js';
import { leadAdOperations as leadAds } from '../../domain/lead-ads/lead-ad.operations.js';
import { keywordField, type LeadAdRecord } from '../../domain/lead-ads/lead-ad.schema.js';
import { listLeadAdRecordsPage } from '../../domain/lead-ads/lead-ad.service.js';
import { pageArgsSchema } from '../../domain/shared/pagination.js';
import { plainIds, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageComplexity, pageOf } from '../page.js';
import { zodInputType } from '../zod-input.js';
import { ReplyInput, ReplyType } from './comment-automation.type.js';
import { CustomFieldType } from './custom-field.type.js';
import { SequenceType } from './sequence.type.js';
import { TagType } from './tag.type.js';


/** Records loaded by id; one removed since its id was read is left out. */
const present = <T>(rows: (T | null)[]): T[] => rows.filter((r): r is T => r !== null);

const LeadAdFieldMappingType = builder.objectRef<Omit<FieldMappingRecord, 'automationId'>>('LeadAdFieldMapping').implement({
  description: 'The answer to a form question goes into a custom field of the contact (its type must accept the answer: checked when leads arrive).',
  fields: (t) => ({
    questionKey: t.exposeString('questionKey', { description: 'The key of a question of the forms (LeadForm.questions.key)' }),
    customFieldId: t.exposeID('customFieldId', { description: "The field's plain id" }),
    customField: t.field({
      type: CustomFieldType,
      description: 'The field (one statement for every mapping of the response)',
      // Mappings go with their field when it is deleted: a mapping read a moment ago names one.
      resolve: async (m, _a, { loaders }) => (await loaders.customField.load(Number(m.customFieldId)))!,
    }),
  }),
});

export const LeadAdAutomationType = builder.node(builder.objectRef<LeadAdRecord>('LeadAdAutomation'), {
  ...nodeOptions('LeadAdAutomation', leadAds.get.access, ({ loaders }) => loaders.leadAdAutomation),
  description: 'Replies to new leads of social-network lead-ad forms (REST: /v1/net-lead-ads).',
  fields: (t) => ({
    rawId: rawIdField(t),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    name: t.exposeString('name'),
    pageId: t.exposeString('pageId', { nullable: true, description: 'The connected page (leadPages); null only on automations made before pages were connected' }),
    formIds: t.exposeStringList('formIds', { description: 'Forms of the page it answers; ["*"] is every form of the page' }),
    isActive: t.exposeBoolean('isActive'),
    reply: t.expose('reply', { type: ReplyType }),
    fieldMappings: t.field({
      type: [LeadAdFieldMappingType],
      description: 'Question-to-custom-field mappings, in the order given (one statement for every automation of the response)',
      resolve: (a, _args, { loaders }) => loaders.leadAdFieldMappings.load(Number(a.id)),
    }),
    tags: t.field({
      type: [TagType],
      description: 'Live tags added to each lead, in the order given (one statement for the ids and one for the tags, for every automation of the response)',
      resolve: async (a, _args, { loaders }) => {
        const ids = await loaders.leadAdTagIds.load(Number(a.id));
        return present(await Promise.all(ids.map((r) => loaders.tag.load(Number(r.id)))));
      },
    }),
    sequences: t.field({
      type: [SequenceType],
      description: 'Sequences each lead is subscribed to, in the order given (one statement for the ids and one for the sequences, for every automation of the response)',
      resolve: async (a, _args, { loaders }) => {
        const ids = await loaders.leadAdSequenceIds.load(Number(a.id));
        return present(await Promise.all(ids.map((r) => loaders.sequence.load(Number(r.id)))));
      },
    }),
  }),
});

builder.queryField('leadAdAutomations', (t) =>
  t.field({
    type: pageOf('LeadAdAutomationPage', LeadAdAutomationType),
    description: 'Like GET /v1/net-lead-ads: the lead-ad automations, newest first; `keyword` keeps those whose name contains it (any case).',
    // The list's rule; the records without their relations, which fields load by DataLoader.
    access: leadAds.list.access,
    args: { ...pageArgs(t.arg), keyword: t.arg.string({ description: 'Case-insensitive substring of the name' }) },
    validate: pageArgsSchema.extend({ keyword: keywordField.nullable() }),
    complexity: pageComplexity,
    resolve: (_r, args, { db, who }) => listLeadAdRecordsPage(db, who.workspaceId, { page: args.page, perPage: args.perPage, keyword: args.keyword ?? undefined }),
  }),
);

const leadAdIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('LeadAdAutomation'));

builder.queryField('leadAdAutomation', (t) =>
  t.field({
    type: LeadAdAutomationType,
    description: 'One lead-ad automation (as GET /v1/net-lead-ads/{id}).',
    access: leadAds.get.access,
    args: { id: leadAdIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(leadAds.get, ctx, { params: { id } }),
  }),
);

const FieldMappingInput = zodInputType('LeadAdFieldMappingInput', leadAds.create.body.shape.fieldMappings.unwrap().element, {
  types: { customFieldId: 'ID' },
  descriptions: { customFieldId: 'Global or plain digit id' },
});

// The schema's descriptions are REST's: GraphQL's name its own queries (leadPages, leadForms) and take global ids.
const inputOptions = {
  types: { fieldMappings: [FieldMappingInput], reply: ReplyInput, tagIds: ['ID'], sequenceIds: ['ID'] },
  descriptions: {
    pageId: 'A connected page (leadPages)',
    formIds: 'Forms of the page (leadForms), or ["*"] for every form of the page',
    fieldMappings: 'Each question key once',
    tagIds: 'Live tags: global or plain digit ids',
    sequenceIds: 'Sequences: global or plain digit ids',
    isActive: null,
  },
};

const CreateInputType = zodInputType('CreateLeadAdAutomationInput', leadAds.create.body, {
  ...inputOptions,
  description: 'The body of POST /v1/net-lead-ads; fieldMappings, tagIds and sequenceIds default to none, isActive to true.',
});
const UpdateInputType = zodInputType('UpdateLeadAdAutomationInput', leadAds.update.body, {
  ...inputOptions,
  description: 'The body of PATCH /v1/net-lead-ads/{id}: at least one field; each given one replaces the stored value whole.',
});

/**
 * GraphQL input as the REST body: explicit nulls mean "not given", global ids become plain ids, a
 * reply's absent `value` is null (as the contract's reply object has it) and `values: null` none.
 */
const fromGraphQL = (input: unknown) => {
  if (!input || typeof input !== 'object') return input;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
  if (out.reply && typeof out.reply === 'object') {
    const { value, values, ...rest } = out.reply as Record<string, unknown>;
    out.reply = { ...rest, value: value ?? null, ...(values != null ? { values } : {}) };
  }
  if (Array.isArray(out.tagIds)) out.tagIds = plainIds('Tag')(out.tagIds);
  if (Array.isArray(out.sequenceIds)) out.sequenceIds = plainIds('Sequence')(out.sequenceIds);
  if (Array.isArray(out.fieldMappings)) {
    out.fieldMappings = out.fieldMappings.map((m: unknown) =>
      m && typeof m === 'object' ? { ...m, customFieldId: plainIds('CustomField')((m as { customFieldId?: unknown }).customFieldId) } : m,
    );
  }
  return out;
};

builder.mutationField('createLeadAdAutomation', (t) =>
  t.field({
    type: LeadAdAutomationType,
    description: 'Like POST /v1/net-lead-ads: a form already answered by another automation is 422 validation (reason alreadyClaimed). The trial and MAC gates apply.',
    access: leadAds.create.access,
    args: { input: t.arg({ type: CreateInputType, required: true }).validate(z.preprocess(fromGraphQL, leadAds.create.body)) },
    resolve: (_r, { input }, ctx) => runOperation(leadAds.create, ctx, { body: input }),
  }),
);

builder.mutationField('updateLeadAdAutomation', (t) =>
  t.field({
    type: LeadAdAutomationType,
    description: 'Like PATCH /v1/net-lead-ads/{id}: the given fields replace the stored ones whole; the result must be a valid automation.',
    access: leadAds.update.access,
    args: {
      id: leadAdIdArg(t.arg),
      input: t.arg({ type: UpdateInputType, required: true }).validate(z.preprocess(fromGraphQL, leadAds.update.body)),
    },
    resolve: (_r, { id, input }, ctx) => runOperation(leadAds.update, ctx, { params: { id }, body: input }),
  }),
);

builder.mutationField('deleteNetLeadAdAutomation', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/net-lead-ads/{id}: permanent; replying to its leads stops. A delete: open after the trial or at the MAC limit.',
    access: leadAds.delete.access,
    args: { id: leadAdIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(leadAds.delete, ctx, { params: { id } }),
  }),
);
