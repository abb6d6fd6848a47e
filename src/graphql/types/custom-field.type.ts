import { z } from 'zod';
import { contactCustomFieldOperations as values } from '../../domain/custom-fields/contact-custom-field.operations.js';
import { customFieldOperations as customFields } from '../../domain/custom-fields/custom-field.operations.js';
import type { CustomFieldRecord, CustomFieldValueRecord } from '../../domain/custom-fields/custom-field.repository.js';
import { invalidRequestData } from '../../errors/validation.js';
import { contactIdentifier, withoutNulls, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { contractEnum } from '../enums.js';
import { decodeNodeId, nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { pageArgs, pageArgsSchema, pageComplexity, pageOf } from '../page.js';
import { zodInputType } from '../zod-input.js';
import { ContactRef } from './refs.js';

/**
 * Custom field definitions (scope `custom_fields`) and a contact's values (scope `contacts`), over
 * the operations REST runs (src/domain/custom-fields/*.operations.ts). Where REST answers `{success: true}` these answer `Success { success }`, as the built delete mutations do.
 */

export const CustomFieldType = builder.node(builder.objectRef<CustomFieldRecord>('CustomField'), {
  ...nodeOptions('CustomField', customFields.get.access, ({ loaders }) => loaders.customField),
  description: "A custom field defined in the workspace (its definition, without any contact's value).",
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    type: t.exposeString('type', { description: 'shortText, longText, number, boolean, date, datetime, email, phone, url or select' }),
    options: t.exposeStringList('options', { nullable: true, description: 'The choices of a select field; null for every other type' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    valuesCount: t.int({
      description: 'How many contacts have a value for this field (one statement for every field of the response)',
      resolve: (f, _a, { loaders }) => loaders.customFieldValuesCount.load(Number(f.id)),
    }),
  }),
});

export const ContactCustomFieldValueType = builder.objectRef<Omit<CustomFieldValueRecord, 'contactId'>>('ContactCustomFieldValue').implement({
  description:
    'A custom field of the workspace with this contact\'s value ("" when unset). Not a Node (a field and a contact, not a record of its own): it has no `id`, so caches keep it inside its contact; `customField` is the Node.',
  fields: (t) => ({
    rawId: t.exposeString('id', { description: "The custom field's plain digit id, as the `id` of REST's /custom-fields items" }),
    customField: t.field({
      type: CustomFieldType,
      description: "The field's definition (one statement for every value of the response)",
      // The value was read with its field a moment ago, so the field exists.
      resolve: async (v, _a, { loaders }) => (await loaders.customField.load(Number(v.id)))!,
    }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    value: t.exposeString('value'),
    type: t.exposeString('type'),
  }),
});

/** A CustomField's global id as its digit id; anything else (digits, a name) as given. */
const fieldRef = (idOrName: string) => {
  const node = /^\d+$/.test(idOrName) ? null : decodeNodeId(idOrName);
  return node?.typename === 'CustomField' ? node.id : idOrName;
};

const idOrNameDescription = 'Its global id, its plain digit id (rawId), or its name (case-insensitive)';

builder.queryField('customFields', (t) =>
  t.field({
    type: pageOf('CustomFieldPage', CustomFieldType),
    description: 'Like GET /v1/custom-fields: by name case-insensitively, ties by id; `type` keeps only fields of that type.',
    access: customFields.list.access,
    args: { ...pageArgs(t.arg), type: t.arg.string() },
    validate: pageArgsSchema.extend({ type: customFields.list.query.shape.type.nullable() }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) => runOperation(customFields.list, ctx, { query: { page: args.page, perPage: args.perPage, type: args.type ?? undefined } }),
  }),
);

builder.queryField('customField', (t) =>
  t.field({
    type: CustomFieldType,
    description: 'Like GET /v1/custom-fields/{idOrName}.',
    access: customFields.get.access,
    args: { idOrName: t.arg.string({ required: true, description: idOrNameDescription, validate: customFields.get.params.shape.idOrName }) },
    resolve: (_r, { idOrName }, ctx) => runOperation(customFields.get, ctx, { params: { idOrName: fieldRef(idOrName) } }),
  }),
);

builder.queryField('contactCustomField', (t) =>
  t.field({
    type: ContactCustomFieldValueType,
    description: "Like GET /v1/contacts/{identifier}/custom-fields/{idOrName}: the contact's value of one field (\"\" when unset).",
    access: values.get.access,
    args: {
      identifier: t.arg.string({ required: true, validate: values.get.params.shape.identifier }),
      idOrName: t.arg.string({ required: true, description: idOrNameDescription, validate: values.get.params.shape.idOrName }),
    },
    resolve: (_r, { identifier, idOrName }, ctx) =>
      runOperation(values.get, ctx, { params: { identifier: contactIdentifier(identifier), idOrName: fieldRef(idOrName) } }),
  }),
);

builder.queryField('findContactsByCustomField', (t) =>
  t.field({
    type: pageOf('CustomFieldContactPage', ContactRef),
    description:
      "Like GET /v1/contacts/find-by-custom-field: contacts whose value of the field equals `value` in the field type's canonical form (3.0 finds 3), by contact id.",
    access: values.find.access,
    args: {
      ...pageArgs(t.arg),
      customFieldId: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }),
      value: t.arg.string({ required: true }),
    },
    validate: pageArgsSchema.extend({
      customFieldId: recordIdArg('CustomField'),
      value: values.find.query.shape.value,
    }),
    complexity: pageComplexity,
    resolve: (_r, args, ctx) =>
      runOperation(values.find, ctx, {
        query: { page: args.page, perPage: args.perPage, customFieldId: String(args.customFieldId), value: args.value },
      }),
  }),
);

const typeDescription = 'shortText, longText, number, boolean, date, datetime, email, phone, url or select';

const CreateCustomFieldInputType = zodInputType('CreateCustomFieldInput', customFields.create.body, {
  description: 'The body of POST /v1/custom-fields.',
  descriptions: { type: typeDescription, options: 'The choices: required for, and only for, select' },
});

// null for a field GraphQL describes with nothing (the schema's descriptions are REST's).
const UpdateCustomFieldInputType = zodInputType('UpdateCustomFieldInput', customFields.update.body, {
  description: 'The body of PUT /v1/custom-fields/{id}: any of the four; absent ones keep their value.',
  descriptions: { type: null, options: null },
});

const customFieldIdArg = (arg: ArgBuilder) =>
  arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('CustomField'));

builder.mutationField('createCustomField', (t) =>
  t.field({
    type: CustomFieldType,
    description: 'Like POST /v1/custom-fields: names are unique in the workspace, case-insensitively. The trial and MAC gates apply.',
    access: customFields.create.access,
    args: { input: t.arg({ type: CreateCustomFieldInputType, required: true }).validate(z.preprocess(withoutNulls, customFields.create.body)) },
    resolve: (_r, { input }, ctx) => runOperation(customFields.create, ctx, { body: input }),
  }),
);

builder.mutationField('updateCustomField', (t) =>
  t.field({
    type: CustomFieldType,
    description:
      'Like PUT /v1/custom-fields/{id}: a type or options change converts the stored values, or is a validation error naming those that do not fit (nothing changes).',
    access: customFields.update.access,
    args: {
      id: customFieldIdArg(t.arg),
      input: t.arg({ type: UpdateCustomFieldInputType, required: true }).validate(z.preprocess(withoutNulls, customFields.update.body)),
    },
    resolve: (_r, { id, input }, ctx) => runOperation(customFields.update, ctx, { params: { id }, body: input }),
  }),
);

builder.mutationField('deleteCustomField', (t) =>
  t.field({
    type: SuccessType,
    description: "Like DELETE /v1/custom-fields/{id}: the field and every contact's value of it; dynamic images stop naming it. A delete: open after the trial or at the MAC limit.",
    access: customFields.delete.access,
    args: { id: customFieldIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(customFields.delete, ctx, { params: { id } }),
  }),
);

builder.mutationField('setContactCustomField', (t) =>
  t.field({
    type: ContactCustomFieldValueType,
    description:
      "Like PUT /v1/contacts/{identifier}/custom-fields/{idOrName}: the value is checked against the field's type and stored in its canonical form; null or \"\" clears it.",
    access: values.set.access,
    args: {
      identifier: t.arg.string({ required: true, validate: values.set.params.shape.identifier }),
      idOrName: t.arg.string({ required: true, description: idOrNameDescription, validate: values.set.params.shape.idOrName }),
      value: t.arg.string({ description: 'The value as text ("3.5", "true", "2026-03-01"); null or "" clears it', validate: values.set.body.shape.value.nullish() }),
    },
    resolve: (_r, { identifier, idOrName, value }, ctx) =>
      // The value is an argument of its own: its issues are at ["value"].
      runOperation(values.set, ctx, { params: { identifier: contactIdentifier(identifier), idOrName: fieldRef(idOrName) }, body: { value: value ?? null }, at: { body: [] } }),
  }),
);

builder.mutationField('clearContactCustomField', (t) =>
  t.field({
    type: SuccessType,
    description: "Like DELETE /v1/contacts/{identifier}/custom-fields/{idOrName}: true, also when there was no value.",
    access: values.clear.access,
    args: {
      identifier: t.arg.string({ required: true, validate: values.clear.params.shape.identifier }),
      idOrName: t.arg.string({ required: true, description: idOrNameDescription, validate: values.clear.params.shape.idOrName }),
    },
    resolve: (_r, { identifier, idOrName }, ctx) =>
      runOperation(values.clear, ctx, { params: { identifier: contactIdentifier(identifier), idOrName: fieldRef(idOrName) } }),
  }),
);

const OperationKindEnum = contractEnum('CustomFieldOperationKind', ['set', 'clear', 'increment'] as const);

// By hand: the schema is a union of three operation shapes, with an enum and global ids GraphQL's form has.
const CustomFieldOperationInputType = builder.inputType('CustomFieldOperationInput', {
  description: 'One operation of setContactCustomFields: the field by exactly one of customFieldId or name.',
  fields: (t) => ({
    op: t.field({ type: OperationKindEnum, required: true }),
    customFieldId: t.id({ description: 'Its global id, or its plain digit id (rawId)' }),
    name: t.string({ description: 'The field by name (case-insensitive)' }),
    value: t.string({ description: 'set: the value as text, null or "" clears it; increment: a number such as "1" or "-2.5"' }),
  }),
});

/**
 * An operation as GraphQL sends it, in the shape REST's schema checks: nulls mean "not given"
 * (but `set` keeps `value: null`, which clears), and a CustomField global id becomes its digit id.
 */
const operationFromGraphQL = (o: unknown) => {
  if (!o || typeof o !== 'object') return o;
  const op = o as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(op)) if (v !== undefined && (v !== null || (k === 'value' && op.op === 'set'))) out[k] = v;
  if (typeof out.customFieldId === 'string') out.customFieldId = fieldRef(out.customFieldId);
  return out;
};

const operationsArg = z.preprocess((ops) => (Array.isArray(ops) ? ops.map(operationFromGraphQL) : ops), values.applyOperations.body.shape.operations);

// By hand: the value is a union (string, number, boolean or null) GraphQL takes as a nullable String.
const CustomFieldValueInputType = builder.inputType('ContactCustomFieldValueInput', {
  description: 'A value of setContactCustomFields(fields:): the field by id, the value checked against its type.',
  fields: (t) => ({
    customFieldId: t.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }),
    value: t.string({ description: 'The value as text ("3.5", "true", "2026-03-01"); null or "" clears it' }),
  }),
});

const valuesArg = z.preprocess(
  (fields) =>
    Array.isArray(fields)
      ? fields.map((f: unknown) => (f && typeof f === 'object' ? { ...f, customFieldId: fieldRef(String((f as { customFieldId: unknown }).customFieldId)), value: (f as { value?: unknown }).value ?? null } : f))
      : fields,
  values.setMany.body.shape.fields,
);

builder.mutationField('setContactCustomFields', (t) =>
  t.field({
    type: [ContactCustomFieldValueType],
    description:
      'Like PATCH /v1/contacts/{identifier}/custom-fields with `operations`: 1 to 20 operations (set, clear, increment), applied in order; like PUT with `fields`: 1 to 100 values by field id. Exactly one of the two, all or nothing. Answers every field with the contact\'s value afterwards.',
    // PATCH and PUT share their access rule.
    access: values.applyOperations.access,
    args: {
      identifier: t.arg.string({ required: true, validate: values.applyOperations.params.shape.identifier }),
      operations: t.arg({ type: [CustomFieldOperationInputType] }).validate(operationsArg.optional()),
      fields: t.arg({ type: [CustomFieldValueInputType], description: 'Values by field id, as PUT /v1/contacts/{identifier}/custom-fields sends them' }).validate(valuesArg.optional()),
    },
    resolve: (_r, { identifier, operations, fields }, ctx) => {
      if ((operations == null) === (fields == null)) {
        throw invalidRequestData([{ message: 'Send exactly one of operations or fields', path: [operations == null ? 'operations' : 'fields'] }]);
      }
      // Each list is an argument of its own: its issues are at ["fields", i, ...] or ["operations", i, ...].
      const params = { identifier: contactIdentifier(identifier) };
      const at = { body: [] };
      return fields != null ? runOperation(values.setMany, ctx, { params, body: { fields }, at }) : runOperation(values.applyOperations, ctx, { params, body: { operations }, at });
    },
  }),
);

builder.mutationField('clearContactCustomFields', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/contacts/{identifier}/custom-fields: clears every value of the contact.',
    access: values.clearAll.access,
    args: { identifier: t.arg.string({ required: true, validate: values.clearAll.params.shape.identifier }) },
    resolve: (_r, { identifier }, ctx) => runOperation(values.clearAll, ctx, { params: { identifier: contactIdentifier(identifier) } }),
  }),
);
