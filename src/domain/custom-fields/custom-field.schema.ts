import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { pageQueryFields } from '../shared/pagination.js';
import { contactSchema, customFieldValueSchema, identifierParams } from '../contacts/contact.schema.js';
import { customFieldTypes } from './custom-field-value.js';

/** Custom field definitions and a contact's values: the one set of schemas REST and GraphQL use. */

export const MAX_OPTIONS = 100;
export const OPTION_MAX = 255;
export const NAME_MAX = 255;
export const DESCRIPTION_MAX = 1000;
export const MAX_OPERATIONS = 20;

export const customFieldTypeSchema = z
  .enum(customFieldTypes)
  .meta({ id: 'CustomFieldType', description: 'The type of a custom field: what its values may be (see docs/contacts.md, Custom fields).' });

export const customFieldSchema = z
  .object({
    id: digitId,
    name: z.string(),
    description: z.string(),
    type: customFieldTypeSchema,
    options: z.array(z.string()).nullable().meta({ description: 'The choices of a select field; null for every other type' }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'CustomField' });
export type CustomField = z.infer<typeof customFieldSchema>;

export const customFieldPageSchema = z.object({ data: z.array(customFieldSchema), pageCount: z.number().int() }).meta({ id: 'CustomFieldPage' });

export const customFieldsQuery = z.strictObject({
  ...pageQueryFields,
  type: customFieldTypeSchema.optional().meta({ description: 'Only fields of this type' }),
});

const nameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(NAME_MAX, `name must be at most ${NAME_MAX} characters`)
  .refine((s) => !/^\d+$/.test(s), 'name must not be only digits: it would read as an id in /v1/custom-fields/{idOrName}');

const descriptionSchema = z.string().trim().max(DESCRIPTION_MAX, `description must be at most ${DESCRIPTION_MAX} characters`);

/** A select field's choices: 1 to 100 distinct (case-insensitively) non-empty strings, trimmed. */
export const optionsSchema = z
  .array(z.string().trim().min(1, 'an option must not be empty').max(OPTION_MAX, `an option must be at most ${OPTION_MAX} characters`))
  .min(1, 'options must list at least one choice')
  .max(MAX_OPTIONS, `options must list at most ${MAX_OPTIONS} choices`)
  .superRefine((options, ctx) => {
    const seen = new Set<string>();
    options.forEach((option, i) => {
      const key = option.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `duplicate option ${JSON.stringify(option)} (options are compared case-insensitively)`, path: [i] });
      seen.add(key);
    });
  })
  .meta({ description: `1 to ${MAX_OPTIONS} distinct (case-insensitively) non-empty strings; for select fields only` });

export const createCustomFieldInput = z
  .strictObject({
    name: nameSchema,
    description: descriptionSchema.optional(),
    type: customFieldTypeSchema,
    options: optionsSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.type === 'select' && input.options === undefined) ctx.addIssue({ code: 'custom', message: 'options are required for a select field', path: ['options'] });
    if (input.type !== 'select' && input.options !== undefined) ctx.addIssue({ code: 'custom', message: 'options are only for select fields', path: ['options'] });
  })
  .meta({ id: 'CreateCustomFieldInput', description: 'Names are unique in the workspace, case-insensitively. `options` is required for, and only for, `select`.' });
export type CreateCustomFieldInput = z.infer<typeof createCustomFieldInput>;

export const updateCustomFieldInput = z
  .strictObject({
    name: nameSchema.optional(),
    description: descriptionSchema.optional(),
    type: customFieldTypeSchema.optional(),
    options: optionsSchema.optional(),
  })
  .refine((input) => Object.values(input).some((v) => v !== undefined), { message: 'Give at least one of name, description, type or options' })
  .meta({
    id: 'UpdateCustomFieldInput',
    description:
      'Any of the four; absent ones keep their value. A type or options change converts the stored values to the new type, or is 422 `validation` naming those that do not fit (nothing changes).',
  });
export type UpdateCustomFieldInput = z.infer<typeof updateCustomFieldInput>;

/** `/v1/custom-fields/{idOrName}`: digits are an id, anything else a name (case-insensitive). */
export const idOrNameSchema = z
  .string()
  .min(1)
  .max(NAME_MAX)
  .meta({ description: 'The custom field\'s digit id, or its name (case-insensitive)' });
export const customFieldIdOrNameParams = z.strictObject({ idOrName: idOrNameSchema });

export const contactCustomFieldParams = z.strictObject({
  identifier: identifierParams.shape.identifier,
  idOrName: idOrNameSchema,
});

export const contactCustomFieldIdParams = z.strictObject({
  identifier: identifierParams.shape.identifier,
  customFieldId: digitId.meta({ description: "The custom field's digit id" }),
});

/** A value as sent: a JSON scalar; null (or "") clears the value. Checked against the field's type by the service. */
export const customValueSchema = z
  .union([z.string(), z.number(), z.boolean(), z.null()], {
    error: (issue) => (issue.input === undefined ? 'Required' : 'value must be a string, number, boolean or null'),
  })
  .meta({ id: 'CustomFieldValueInput', description: "A string, number or boolean checked against the field's type; null or \"\" clears the value" });
export type CustomValueInput = z.infer<typeof customValueSchema>;

export const setCustomFieldValueInput = z.strictObject({ value: customValueSchema }).meta({ id: 'SetCustomFieldValueInput' });

/** A field named by id (digit string or positive integer) or by name. */
const fieldIdInput = z.union([digitId, z.number().int().min(1)], { error: 'customFieldId must be a digit string or a positive integer' }).transform(String);
const operationTarget = {
  customFieldId: fieldIdInput.optional(),
  name: z.string().trim().min(1, 'name must not be empty').max(NAME_MAX).optional(),
};

export const customFieldOperationSchema = z
  .discriminatedUnion(
    'op',
    [
      z.strictObject({ op: z.literal('set'), ...operationTarget, value: customValueSchema }),
      z.strictObject({ op: z.literal('clear'), ...operationTarget }),
      z.strictObject({
        op: z.literal('increment'),
        ...operationTarget,
        value: z.union([z.number(), z.string()], { error: (issue) => (issue.input === undefined ? 'Required' : 'value must be a number') }).meta({ description: 'A number (or decimal string) added to the value; an unset value counts as 0' }),
      }),
    ],
    { error: 'op must be set, clear or increment' },
  )
  .superRefine((op, ctx) => {
    if ((op.customFieldId === undefined) === (op.name === undefined)) ctx.addIssue({ code: 'custom', message: 'Give exactly one of customFieldId or name' });
  })
  .meta({
    id: 'CustomFieldOperation',
    description: 'set {value} (null or "" clears), clear, or increment {value} (number fields only). The field by exactly one of customFieldId or name.',
  });
export type CustomFieldOperation = z.infer<typeof customFieldOperationSchema>;

export const customFieldOperationsInput = z
  .strictObject({
    operations: z
      .array(customFieldOperationSchema)
      .min(1, 'operations must hold at least one operation')
      .max(MAX_OPERATIONS, `operations must hold at most ${MAX_OPERATIONS} operations`),
  })
  .meta({ id: 'CustomFieldOperationsInput', description: `1 to ${MAX_OPERATIONS} operations, applied in order, all or nothing.` });

/** Values a contact's fields take at once by PUT .../custom-fields (the older form of the operations). */
export const MAX_SET_FIELDS = 100;

export const setCustomFieldsInput = z
  .strictObject({
    fields: z
      .array(z.strictObject({ customFieldId: fieldIdInput, value: customValueSchema }))
      .min(1, 'fields must hold at least one field')
      .max(MAX_SET_FIELDS, `fields must hold at most ${MAX_SET_FIELDS} fields`),
  })
  .meta({
    id: 'SetCustomFieldsInput',
    description: `1 to ${MAX_SET_FIELDS} values by custom field id, each checked as PUT .../custom-fields/{idOrName} checks it, set all or none (null or "" clears).`,
  });
export type SetCustomFieldsInput = z.infer<typeof setCustomFieldsInput>;

/** A contact's value of one field: the item of GET /v1/contacts/{identifier}/custom-fields (contact.schema.ts). */
export { customFieldValueSchema };
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;

export const customFieldValueListSchema = z.object({ data: z.array(customFieldValueSchema) }).meta({ id: 'ContactCustomFieldValueList' });

export const findByCustomFieldQuery = z.strictObject({
  ...pageQueryFields,
  customFieldId: digitId.meta({ description: "The custom field's digit id" }),
  value: z.string().min(1, 'value must not be empty').max(10_000).meta({ description: "The value, compared in its canonical form for the field's type (3.0 finds 3)" }),
});

/** GET /v1/contacts/find-by-custom-field: a page of full contact objects. */
export const contactsByCustomFieldPageSchema = z.object({ data: z.array(contactSchema), pageCount: z.number().int() }).meta({ id: 'ContactsByCustomFieldPage' });
