import { z } from 'zod';
import type { FilterField } from '../../domain/contacts/contact-filter.schema.js';
import { contactSearchOperations as contactSearch } from '../../domain/contacts/contact-search.operations.js';
import { plainIds } from '../args.js';
import { builder } from '../builder.js';
import { connectionArgs, connectionComplexity, DEFAULT_FIRST, keysetConnection, MAX_FIRST } from '../connection.js';
import { byCreatedAt } from '../cursor.js';
import { runOperation } from '../operations.js';
import { zodInputType } from '../zod-input.js';
import { contactListings, ContactRef } from './refs.js';

const contactCursor = byCreatedAt('contact');
const { connection, count } = contactSearch;

/** The search tree of POST /v1/contacts/search, as an input type; checked by the same rules. */
export const ContactFilterInput = zodInputType('ContactFilterInput', connection.query.shape.filter, {
  description: 'A group (exactly one of and, or, not) or a condition (field, operator, value). See contactFilterFields.',
  types: { value: 'FilterValue' },
  // not: the type's description covers it; '' leaves it without the condition schema's own.
  descriptions: { field: 'A field of contactFilterFields: firstName, tags, customField:<id>, ...', not: null },
  nested: { and: 'ContactFilterInput', or: 'ContactFilterInput', not: 'ContactFilterInput' },
});

/** withoutNulls (../args.ts) through the whole search tree: every group and condition, but never inside a `value`. */
export const treeWithoutNulls = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(treeWithoutNulls);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, k === 'value' ? x : treeWithoutNulls(x)]));
  return v;
};

/** The list filters of GET /v1/contacts, as arguments (tagIds: contacts with all of them). */
const filterArgs = (t: Parameters<Parameters<typeof builder.queryField>[1]>[0]) => ({
  keyword: t.arg.string(),
  tagIds: t.arg.idList({ description: 'Contacts with all of these tags (global or plain digit ids)' }),
  inboxId: t.arg.id({ description: 'Contacts in this inbox (global or plain digit id)' }),
  createdAfter: t.arg({ type: 'DateTime' }),
  createdBefore: t.arg({ type: 'DateTime' }),
});
/** The filters' rules, as the connection's operation states them; GraphQL sends a left-out argument as null. */
const filterArgsSchema = z.object({
  keyword: connection.query.shape.keyword.nullish(),
  tagIds: z.preprocess(plainIds('Tag'), connection.query.shape.tagId.nullish()),
  inboxId: z.preprocess(plainIds('Inbox'), connection.query.shape.inboxId.nullish()),
  createdAfter: connection.query.shape.createdAfter.nullish(),
  createdBefore: connection.query.shape.createdBefore.nullish(),
});
type FilterArgs = z.infer<typeof filterArgsSchema>;
const listFilters = (a: FilterArgs) => ({
  keyword: a.keyword ?? undefined,
  tagId: a.tagIds ?? undefined,
  inboxId: a.inboxId ?? undefined,
  createdAfter: a.createdAfter ?? undefined,
  createdBefore: a.createdBefore ?? undefined,
});

builder.queryField('contacts', (t) =>
  t.connection(
    {
      type: ContactRef,
      description: `Contacts, newest first (creation time, then id), with the filters of GET /v1/contacts and \`filter\`, the search tree of POST /v1/contacts/search. \`first\` defaults to ${DEFAULT_FIRST}, at most ${MAX_FIRST}.`,
      access: connection.access,
      args: { ...filterArgs(t), filter: t.arg({ type: ContactFilterInput }) },
      validate: connectionArgs.extend({ ...filterArgsSchema.shape, filter: z.preprocess(treeWithoutNulls, connection.query.shape.filter).nullish() }),
      complexity: connectionComplexity,
      resolve: (_r, args, ctx, info) => {
        // A page that shows nothing a listing lacks lets a plain list read listings only.
        const query = { ...listFilters(args), filter: args.filter ?? undefined, listings: !contactListings.selectsBeyond(info, ['edges', 'node']) };
        return keysetConnection(contactCursor, args, (window) => runOperation(connection, ctx, { query: { ...query, ...window } }));
      },
    },
    { name: 'ContactConnection' },
    { name: 'ContactEdge' },
  ),
);

builder.queryField('contactsCount', (t) =>
  t.int({
    description: 'How many contacts the filters find (as GET /v1/contacts/count).',
    access: count.access,
    args: filterArgs(t),
    validate: filterArgsSchema,
    resolve: async (_r, args, ctx) => (await runOperation(count, ctx, { query: listFilters(args) })).count,
  }),
);

const FilterFieldType = builder.objectRef<FilterField>('ContactFilterField').implement({
  description: 'A field a search condition can name, its operators and value kind (as GET /v1/contacts/filter-fields).',
  fields: (t) => ({
    field: t.exposeString('field'),
    label: t.exposeString('label'),
    kind: t.exposeString('kind'),
    customFieldType: t.exposeString('customFieldType', { nullable: true }),
    operators: t.exposeStringList('operators'),
    options: t.exposeStringList('options', { nullable: true }),
    indexed: t.exposeBoolean('indexed'),
  }),
});

builder.queryField('contactFilterFields', (t) =>
  t.field({
    type: [FilterFieldType],
    description: "The fields a contacts filter can name: the contact's own, then the workspace's custom fields.",
    access: contactSearch.listFilterFields.access,
    resolve: (_r, _a, ctx) => runOperation(contactSearch.listFilterFields, ctx),
  }),
);

const FilterValueLabelType = builder.objectRef<{ field: string; value: unknown; label: string | null }>('ContactFilterValueLabel').implement({
  fields: (t) => ({
    field: t.exposeString('field'),
    value: t.field({ type: 'FilterValue', resolve: (v) => v.value }),
    label: t.exposeString('label', { nullable: true }),
  }),
});

const labels = contactSearch.resolveFilterValueLabels;
const FilterValueInput = zodInputType('ContactFilterValueInput', labels.body.shape.values.element, { types: { value: 'FilterValue' } });

builder.queryField('contactFilterValueLabels', (t) =>
  t.field({
    type: [FilterValueLabelType],
    description: "Names of a saved filter's values: tag and inbox ids, gender and select options (as POST /v1/contacts/filter-value-labels).",
    access: labels.access,
    args: { values: t.arg({ type: [FilterValueInput], required: true }) },
    validate: z.object({ values: labels.body.shape.values }),
    resolve: (_r, { values }, ctx) => runOperation(labels, ctx, { body: { values } }),
  }),
);
