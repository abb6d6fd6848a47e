import { z } from 'zod';
import { conversationScalarsSchema } from '../conversations/conversation.schema.js';
import { digitId, isoDateTime } from '../shared/schemas.js';
import { pageArgsSchema, pageQueryFields } from '../shared/pagination.js';
import { contactCustomFieldSchema, contactInboxSchema, contactScalarsSchema, contactTagSchema } from './contact.schema.js';

/**
 * Which contacts a list, count or search returns: the query filters of GET /v1/contacts and the
 * condition tree of POST /v1/contacts/search, both compiled by contact-search.repository.ts.
 */

/** Relations a list can embed (`include=tags,customFields`), each one statement for the whole page. */
export const contactIncludes = ['tags', 'customFields', 'inboxes', 'conversations'] as const;
export type ContactInclude = (typeof contactIncludes)[number];

export const MAX_CONDITIONS = 50;
export const MAX_DEPTH = 5;
/** Ids one relation condition (tags, inboxes) or the tagId filter may list. */
export const MAX_CONDITION_IDS = 100;

/**
 * One node of the search tree: a group (`and`, `or`: 1..50 children; `not`: one child) or a
 * condition `{field, operator, value?}`. Exactly one kind per node. The field catalogue
 * (`filterFieldCatalogue`) says which operators and values each field takes; those rules need the
 * workspace's custom fields, so the service checks them after this shape check.
 */
export interface ContactCondition {
  and?: ContactCondition[];
  or?: ContactCondition[];
  not?: ContactCondition;
  field?: string;
  operator?: string;
  value?: unknown;
}

export const contactConditionSchema: z.ZodType<ContactCondition> = z
  .strictObject({
    get and() {
      return z.array(contactConditionSchema).min(1).max(MAX_CONDITIONS).optional();
    },
    get or() {
      return z.array(contactConditionSchema).min(1).max(MAX_CONDITIONS).optional();
    },
    get not() {
      return contactConditionSchema.optional();
    },
    field: z.string().min(1).max(100).optional(),
    operator: z.string().min(1).max(50).optional(),
    value: z.unknown().optional(),
  })
  .superRefine((node, ctx) => {
    const kinds = (['and', 'or', 'not', 'field'] as const).filter((k) => node[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'A condition is exactly one of {and: [...]}, {or: [...]}, {not: {...}} or {field, operator, value}' });
    } else if (kinds[0] === 'field' && node.operator === undefined) {
      ctx.addIssue({ code: 'custom', message: 'operator is required with field', path: ['operator'] });
    } else if (kinds[0] !== 'field' && (node.operator !== undefined || node.value !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'operator and value belong to a condition with a field, not to a group' });
    }
  })
  .meta({
    id: 'ContactCondition',
    description: `A group ({and: [...]}, {or: [...]}, {not: {...}}) or a condition {field, operator, value}. At most ${MAX_CONDITIONS} conditions and ${MAX_DEPTH} levels of groups. GET /v1/contacts/filter-fields lists the fields, their operators and value types.`,
  });

/** `include` as sent in a URL: a comma-separated list (`tags,customFields`). */
const includeText = z
  .string()
  .transform((s) => s.split(',').map((p) => p.trim()).filter(Boolean))
  .pipe(z.array(z.enum(contactIncludes, { error: `include takes ${contactIncludes.join(', ')}` })))
  .meta({ description: `Comma-separated relations to embed: ${contactIncludes.join(', ')}` });

/** `tagId` may repeat (`tagId=1&tagId=2`: contacts with all of them). */
const tagIdsText = z
  .union([digitId, z.array(digitId).max(MAX_CONDITION_IDS)])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .meta({ description: 'Tag id; repeat for contacts with all of them' });

/** The simple filters of GET /v1/contacts and /v1/contacts/count. */
const listFilterFields = {
  keyword: z.string().max(255).optional().meta({ description: 'Case-insensitive substring of first name, last name, email or phone' }),
  tagId: tagIdsText.optional(),
  inboxId: digitId.optional().meta({ description: 'Contacts that joined this inbox' }),
  createdAfter: isoDateTime.optional().meta({ description: 'Created at or after this instant' }),
  createdBefore: isoDateTime.optional().meta({ description: 'Created before this instant' }),
};

export const contactCountQuery = z.strictObject(listFilterFields);
export const contactListQuery = z.strictObject({ ...pageQueryFields, ...listFilterFields, include: includeText.optional() });

/**
 * One window of the GraphQL connection (newest first, by creation time then id): the list filters
 * (`tagId` a list: contacts with all of those tags) and the search tree together, and the window
 * the adapter reads (`limit` rows after the key `after`). `listings`: the caller shows no field a
 * listing lacks (contactListingKeys), so a plain list reads only those columns.
 */
export const contactWindowQuery = z.object({
  keyword: listFilterFields.keyword,
  tagId: z.array(digitId).max(MAX_CONDITION_IDS).optional().meta({ description: 'Contacts with all of these tags' }),
  inboxId: listFilterFields.inboxId,
  createdAfter: listFilterFields.createdAfter,
  createdBefore: listFilterFields.createdBefore,
  filter: contactConditionSchema.optional(),
  listings: z.boolean().optional(),
  limit: z.number().int().min(1),
  after: z.object({ createdAt: isoDateTime, id: z.number().int() }).optional(),
});
export type ContactWindowQuery = z.output<typeof contactWindowQuery>;

export type ContactListFilters = {
  keyword?: string;
  tagId?: string[];
  inboxId?: string;
  createdAfter?: string;
  createdBefore?: string;
};

export const contactSearchBody = z
  .strictObject({
    filter: contactConditionSchema,
    page: pageArgsSchema.shape.page,
    perPage: pageArgsSchema.shape.perPage,
    include: z.array(z.enum(contactIncludes)).max(contactIncludes.length).optional(),
  })
  .meta({ id: 'ContactSearchInput' });
export type ContactSearchBody = z.infer<typeof contactSearchBody>;

/** The kinds of value a field holds; each kind has its operators. */
export const filterValueKinds = ['text', 'enum', 'boolean', 'datetime', 'number', 'date', 'ids'] as const;
export type FilterValueKind = (typeof filterValueKinds)[number];

export const operatorsByKind: Record<FilterValueKind, readonly string[]> = {
  text: ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'isEmpty', 'isNotEmpty'],
  enum: ['equals', 'notEquals', 'in', 'isEmpty', 'isNotEmpty'],
  boolean: ['is'],
  datetime: ['before', 'after', 'between', 'isEmpty', 'isNotEmpty'],
  number: ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'isEmpty', 'isNotEmpty'],
  date: ['equals', 'before', 'after', 'between', 'isEmpty', 'isNotEmpty'],
  ids: ['hasAny', 'hasAll', 'hasNone'],
};

export const filterFieldSchema = z
  .object({
    field: z.string(),
    label: z.string(),
    kind: z.enum(filterValueKinds),
    /** The custom field's own type (shortText, number, select, ...); null for the contact's own fields. */
    customFieldType: z.string().nullable(),
    operators: z.array(z.string()),
    /** The allowed values of an enum field (gender, a select custom field); null otherwise. */
    options: z.array(z.string()).nullable(),
    /** Whether an index serves the condition's lookup (docs/contacts.md, "Cost and indexes"). */
    indexed: z.boolean(),
  })
  .meta({ id: 'ContactFilterField' });
export const filterFieldListSchema = z.object({ data: z.array(filterFieldSchema) }).meta({ id: 'ContactFilterFieldList' });
export type FilterField = z.infer<typeof filterFieldSchema>;

export const filterValueLabelsBody = z
  .strictObject({
    values: z
      .array(z.strictObject({ field: z.string().min(1).max(100), value: z.union([z.string().max(255), z.number(), z.boolean()]) }))
      .min(1)
      .max(100),
  })
  .meta({ id: 'ContactFilterValueLabelsInput' });
export const filterValueLabelsSchema = z
  .object({
    data: z.array(z.object({ field: z.string(), value: z.union([z.string(), z.number(), z.boolean()]), label: z.string().nullable() })),
  })
  .meta({ id: 'ContactFilterValueLabels' });

export const contactCountSchema = z.object({ count: z.number().int().min(0) }).meta({ id: 'ContactCount' });

/** A listed contact: its own fields, plus the relations `include` asked for (absent otherwise). */
export const contactListItemSchema = contactScalarsSchema
  .extend({
    tags: z.array(contactTagSchema).optional(),
    contactCustomFields: z.array(contactCustomFieldSchema).optional(),
    contactInboxes: z.array(contactInboxSchema).optional(),
    conversations: z.array(conversationScalarsSchema).optional(),
  })
  .meta({ id: 'ContactListItem' });
export const contactPageSchema = z.object({ data: z.array(contactListItemSchema), pageCount: z.number().int() }).meta({ id: 'ContactPage' });
