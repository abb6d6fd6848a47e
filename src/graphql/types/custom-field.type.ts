import { z } from 'zod';
import { identifierParams } from '../../domain/contacts/contact.schema.js';
import {
  applyCustomFieldOperations,
  clearContactCustomField,
  clearContactCustomFields,
  contactsByCustomFieldPage,
  getContactCustomField,
  setContactCustomField,
  setContactCustomFields,
} from '../../domain/custom-fields/contact-custom-field.service.js';
import type { CustomFieldRecord, CustomFieldValueRecord } from '../../domain/custom-fields/custom-field.repository.js';
import {
  createCustomFieldInput,
  customFieldOperationsInput,
  customFieldsArgs,
  customValueSchema,
  findByCustomFieldQuery,
  idOrNameSchema,
  setCustomFieldsInput,
  updateCustomFieldInput,
} from '../../domain/custom-fields/custom-field.schema.js';
import { createCustomField, deleteCustomField, getCustomField, listCustomFieldsPage } from '../../domain/custom-fields/custom-field.service.js';
import { updateCustomField } from '../../domain/custom-fields/custom-field.service.js';
import { pageArgsSchema } from '../../domain/shared/pagination.js';
import { invalidRequestData } from '../../errors/validation.js';
import { contactIdentifier, withoutNulls } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import { contractEnum } from '../enums.js';
import { decodeNodeId, nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { pageArgs, pageComplexity, pageOf } from '../page.js';
import { ContactRef } from './refs.js';

/**
 * Custom field definitions (scope `custom_fields`) and a contact's values (scope `contacts`), over
 * the services and zod schemas REST uses. Where REST answers `{success: true}` these answer `Success { success }`, as the built delete mutations do.
 */

const readFields = { action: 'read', scope: 'custom_fields' } as const;
const readContacts = { action: 'read', scope: 'contacts' } as const;

export const CustomFieldType = builder.node(builder.objectRef<CustomFieldRecord>('CustomField'), {
  ...nodeOptions('CustomField', readFields, ({ loaders }) => loaders.customField),
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

const identifierArg = identifierParams.shape.identifier;
const idOrNameDescription = 'Its global id, its plain digit id (rawId), or its name (case-insensitive)';

builder.queryField('customFields', (t) =>
  t.field({
    type: pageOf('CustomFieldPage', CustomFieldType),
    description: 'Like GET /v1/custom-fields: by name case-insensitively, ties by id; `type` keeps only fields of that type.',
    access: readFields,
    args: { ...pageArgs(t.arg), type: t.arg.string() },
    validate: customFieldsArgs,
    complexity: pageComplexity,
    resolve: (_r, args, { db, who }) => listCustomFieldsPage(db, who.workspaceId, { page: args.page, perPage: args.perPage, type: args.type ?? undefined }),
  }),
);

builder.queryField('customField', (t) =>
  t.field({
    type: CustomFieldType,
    description: 'Like GET /v1/custom-fields/{idOrName}.',
    access: readFields,
    args: { idOrName: t.arg.string({ required: true, description: idOrNameDescription, validate: idOrNameSchema }) },
    resolve: (_r, { idOrName }, { db, who }) => getCustomField(db, who.workspaceId, fieldRef(idOrName)),
  }),
);

builder.queryField('contactCustomField', (t) =>
  t.field({
    type: ContactCustomFieldValueType,
    description: "Like GET /v1/contacts/{identifier}/custom-fields/{idOrName}: the contact's value of one field (\"\" when unset).",
    access: readContacts,
    args: {
      identifier: t.arg.string({ required: true, validate: identifierArg }),
      idOrName: t.arg.string({ required: true, description: idOrNameDescription, validate: idOrNameSchema }),
    },
    resolve: (_r, { identifier, idOrName }, { db, who }) => getContactCustomField(db, who.workspaceId, contactIdentifier(identifier), fieldRef(idOrName)),
  }),
);

builder.queryField('findContactsByCustomField', (t) =>
  t.field({
    type: pageOf('CustomFieldContactPage', ContactRef),
    description:
      "Like GET /v1/contacts/find-by-custom-field: contacts whose value of the field equals `value` in the field type's canonical form (3.0 finds 3), by contact id.",
    access: readContacts,
    args: {
      ...pageArgs(t.arg),
      customFieldId: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }),
      value: t.arg.string({ required: true }),
    },
    validate: pageArgsSchema.extend({
      customFieldId: recordIdArg('CustomField'),
      value: findByCustomFieldQuery.shape.value,
    }),
    complexity: pageComplexity,
    resolve: (_r, args, { db, who }) =>
      contactsByCustomFieldPage(db, who.workspaceId, { page: args.page, perPage: args.perPage, customFieldId: String(args.customFieldId), value: args.value }, []),
  }),
);


const CreateCustomFieldInputType = builder.inputType('CreateCustomFieldInput', {
  description: 'The body of POST /v1/custom-fields.',
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    type: t.string({ required: true, description: 'shortText, longText, number, boolean, date, datetime, email, phone, url or select' }),
    options: t.stringList({ description: 'The choices: required for, and only for, select' }),
  }),
});

const UpdateCustomFieldInputType = builder.inputType('UpdateCustomFieldInput', {
  description: 'The body of PUT /v1/custom-fields/{id}: any of the four; absent ones keep their value.',
  fields: (t) => ({ name: t.string(), description: t.string(), type: t.string(), options: t.stringList() }),
});

builder.mutationField('createCustomField', (t) =>
  t.field({
    type: CustomFieldType,
    description: 'Like POST /v1/custom-fields: names are unique in the workspace, case-insensitively. The trial and MAC gates apply.',
    access: { action: 'write', scope: 'custom_fields' },
    args: { input: t.arg({ type: CreateCustomFieldInputType, required: true }).validate(z.preprocess(withoutNulls, createCustomFieldInput)) },
    resolve: (_r, { input }, { db, who }) => createCustomField(db, who.workspaceId, input),
  }),
);

builder.mutationField('updateCustomField', (t) =>
  t.field({
    type: CustomFieldType,
    description:
      'Like PUT /v1/custom-fields/{id}: a type or options change converts the stored values, or is a validation error naming those that do not fit (nothing changes).',
    access: { action: 'write', scope: 'custom_fields' },
    args: {
      id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('CustomField')),
      input: t.arg({ type: UpdateCustomFieldInputType, required: true }).validate(z.preprocess(withoutNulls, updateCustomFieldInput)),
    },
    resolve: (_r, { id, input }, { db, who }) => updateCustomField(db, who.workspaceId, id, input, ['input']),
  }),
);

builder.mutationField('deleteCustomField', (t) =>
  t.field({
    type: SuccessType,
    description: "Like DELETE /v1/custom-fields/{id}: the field and every contact's value of it; dynamic images stop naming it. A delete: open after the trial or at the MAC limit.",
    access: { action: 'delete', scope: 'custom_fields' },
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('CustomField')) },
    resolve: async (_r, { id }, { db, who }) => deleteCustomField(db, who.workspaceId, id),
  }),
);

builder.mutationField('setContactCustomField', (t) =>
  t.field({
    type: ContactCustomFieldValueType,
    description:
      "Like PUT /v1/contacts/{identifier}/custom-fields/{idOrName}: the value is checked against the field's type and stored in its canonical form; null or \"\" clears it.",
    access: { action: 'write', scope: 'contacts' },
    args: {
      identifier: t.arg.string({ required: true, validate: identifierArg }),
      idOrName: t.arg.string({ required: true, description: idOrNameDescription, validate: idOrNameSchema }),
      value: t.arg.string({ description: 'The value as text ("3.5", "true", "2026-03-01"); null or "" clears it', validate: customValueSchema.nullish() }),
    },
    resolve: (_r, { identifier, idOrName, value }, { db, who }) =>
      setContactCustomField(db, who.workspaceId, contactIdentifier(identifier), fieldRef(idOrName), value ?? null, ['value']),
  }),
);

builder.mutationField('clearContactCustomField', (t) =>
  t.field({
    type: SuccessType,
    description: "Like DELETE /v1/contacts/{identifier}/custom-fields/{idOrName}: true, also when there was no value.",
    access: { action: 'delete', scope: 'contacts' },
    args: {
      identifier: t.arg.string({ required: true, validate: identifierArg }),
      idOrName: t.arg.string({ required: true, description: idOrNameDescription, validate: idOrNameSchema }),
    },
    resolve: async (_r, { identifier, idOrName }, { db, who }) =>
      clearContactCustomField(db, who.workspaceId, contactIdentifier(identifier), fieldRef(idOrName)),
  }),
);

const OperationKindEnum = contractEnum('CustomFieldOperationKind', ['set', 'clear', 'increment'] as const);

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

const operationsArg = z.preprocess((ops) => (Array.isArray(ops) ? ops.map(operationFromGraphQL) : ops), customFieldOperationsInput.shape.operations);

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
  setCustomFieldsInput.shape.fields,
);

builder.mutationField('setContactCustomFields', (t) =>
  t.field({
    type: [ContactCustomFieldValueType],
    description:
      'Like PATCH /v1/contacts/{identifier}/custom-fields with `operations`: 1 to 20 operations (set, clear, increment), applied in order; like PUT with `fields`: 1 to 100 values by field id. Exactly one of the two, all or nothing. Answers every field with the contact\'s value afterwards.',
    access: { action: 'write', scope: 'contacts' },
    args: {
      identifier: t.arg.string({ required: true, validate: identifierArg }),
      operations: t.arg({ type: [CustomFieldOperationInputType] }).validate(operationsArg.optional()),
      fields: t.arg({ type: [CustomFieldValueInputType], description: 'Values by field id, as PUT /v1/contacts/{identifier}/custom-fields sends them' }).validate(valuesArg.optional()),
    },
    resolve: (_r, { identifier, operations, fields }, { db, who }) => {
      if ((operations == null) === (fields == null)) {
        throw invalidRequestData([{ message: 'Send exactly one of operations or fields', path: [operations == null ? 'operations' : 'fields'] }]);
      }
      return fields != null
        ? setContactCustomFields(db, who.workspaceId, contactIdentifier(identifier), fields, ['fields'])
        : applyCustomFieldOperations(db, who.workspaceId, contactIdentifier(identifier), operations!, ['operations']);
    },
  }),
);

builder.mutationField('clearContactCustomFields', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/contacts/{identifier}/custom-fields: clears every value of the contact.',
    access: { action: 'delete', scope: 'contacts' },
    args: { identifier: t.arg.string({ required: true, validate: identifierArg }) },
    resolve: async (_r, { identifier }, { db, who }) => clearContactCustomFields(db, who.workspaceId, contactIdentifier(identifier)),
  }),
);
