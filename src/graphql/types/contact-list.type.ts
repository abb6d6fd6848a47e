import { z } from 'zod';
import { contactConditionSchema, filterValueLabelsBody, MAX_CONDITION_IDS, type ContactCondition } from '../../domain/contacts/contact-filter.schema.js';
import { listFilterFields, resolveFilterValueLabels } from '../../domain/contacts/contact-filter.service.js';
import { countContactsMatching, listContactsKeyset } from '../../domain/contacts/contact-search.service.js';
import { listContactListings, listContacts } from '../../domain/contacts/contact.repository.js';
import { digitId, isoDateTime } from '../../domain/shared/schemas.js';
import { builder } from '../builder.js';
import { connectionArgs, connectionComplexity, DEFAULT_FIRST, keysetConnection, MAX_FIRST } from '../connection.js';
import { byCreatedAt } from '../cursor.js';
import { contactListings, ContactRef } from './refs.js';

const read = { action: 'read', scope: 'contacts' } as const;

const contactCursor = byCreatedAt('contact');

/** The search tree of POST /v1/contacts/search, as an input type; checked by the same rules. */
/** The input as GraphQL delivers it (nulls for omitted fields); the zod schema turns it into a ContactCondition. */
interface ContactFilterShape {
  and?: ContactFilterShape[] | null;
  or?: ContactFilterShape[] | null;
  not?: ContactFilterShape | null;
  field?: string | null;
  operator?: string | null;
  value?: string | number | boolean | object | null;
}

export const ContactFilterInput = builder.inputRef<ContactFilterShape>('ContactFilterInput').implement({
  description: 'A group (exactly one of and, or, not) or a condition (field, operator, value). See contactFilterFields.',
  fields: (t) => ({
    and: t.field({ type: [ContactFilterInput] }),
    or: t.field({ type: [ContactFilterInput] }),
    not: t.field({ type: ContactFilterInput }),
    field: t.string({ description: 'A field of contactFilterFields: firstName, tags, customField:<id>, ...' }),
    operator: t.string(),
    value: t.field({ type: 'FilterValue' }),
  }),
});

/** withoutNulls (../args.ts) through the whole search tree: every group and condition, but never inside a `value`. */
const treeWithoutNulls = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(treeWithoutNulls);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, k === 'value' ? x : treeWithoutNulls(x)]));
  return v;
};

/** The list filters of GET /v1/contacts, as arguments (tagIds: contacts with all of them). */
const filterArgs = (t: Parameters<Parameters<typeof builder.queryField>[1]>[0]) => ({
  keyword: t.arg.string(),
  tagIds: t.arg.idList({ description: 'Contacts with all of these tags' }),
  inboxId: t.arg.id(),
  createdAfter: t.arg({ type: 'DateTime' }),
  createdBefore: t.arg({ type: 'DateTime' }),
});
const filterArgsSchema = z.object({
  keyword: z.string().max(255).nullish(),
  tagIds: z.array(digitId).max(MAX_CONDITION_IDS).nullish(),
  inboxId: digitId.nullish(),
  createdAfter: isoDateTime.nullish(),
  createdBefore: isoDateTime.nullish(),
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
      access: read,
      args: { ...filterArgs(t), filter: t.arg({ type: ContactFilterInput }) },
      validate: connectionArgs.extend({ ...filterArgsSchema.shape, filter: z.preprocess(treeWithoutNulls, contactConditionSchema).nullish() }),
      complexity: connectionComplexity,
      resolve: (_r, args, { db, who }, info) => {
        const filters = listFilters(args);
        const onlyKeyword = !args.filter && !filters.tagId && !filters.inboxId && !filters.createdAfter && !filters.createdBefore;
        // The plain list reads listings when the page shows nothing more (a frontend's usual page).
        if (onlyKeyword && !filters.keyword && !contactListings.selectsBeyond(info, ['edges', 'node'])) return keysetConnection(contactCursor, args, (window) => listContactListings(db, who.workspaceId, window));
        // A keyword alone keeps the list's tuned keyword plan (contact.repository.ts listContacts).
        return keysetConnection(contactCursor, args, (window) =>
          onlyKeyword
            ? listContacts(db, who.workspaceId, { ...window, keyword: filters.keyword })
            : listContactsKeyset(db, who.workspaceId, { ...filters, filter: (args.filter ?? undefined) as ContactCondition | undefined }, window),
        );
      },
    },
    { name: 'ContactConnection' },
    { name: 'ContactEdge' },
  ),
);

builder.queryField('contactsCount', (t) =>
  t.int({
    description: 'How many contacts the filters find (as GET /v1/contacts/count).',
    access: read,
    args: filterArgs(t),
    validate: filterArgsSchema,
    resolve: async (_r, args, { db, who }) => (await countContactsMatching(db, who.workspaceId, listFilters(args))).count,
  }),
);

const FilterFieldType = builder.objectRef<Awaited<ReturnType<typeof listFilterFields>>[number]>('ContactFilterField').implement({
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
    access: read,
    resolve: (_r, _a, { db, who }) => listFilterFields(db, who.workspaceId),
  }),
);

const FilterValueLabelType = builder.objectRef<{ field: string; value: unknown; label: string | null }>('ContactFilterValueLabel').implement({
  fields: (t) => ({
    field: t.exposeString('field'),
    value: t.field({ type: 'FilterValue', resolve: (v) => v.value }),
    label: t.exposeString('label', { nullable: true }),
  }),
});

const FilterValueInput = builder.inputType('ContactFilterValueInput', {
  fields: (t) => ({ field: t.string({ required: true }), value: t.field({ type: 'FilterValue', required: true }) }),
});

builder.queryField('contactFilterValueLabels', (t) =>
  t.field({
    type: [FilterValueLabelType],
    description: "Names of a saved filter's values: tag and inbox ids, gender and select options (as POST /v1/contacts/filter-value-labels).",
    access: read,
    args: { values: t.arg({ type: [FilterValueInput], required: true }) },
    validate: z.object({ values: filterValueLabelsBody.shape.values }),
    resolve: (_r, { values }, { db, who }) => resolveFilterValueLabels(db, who.workspaceId, values as { field: string; value: string | number | boolean }[]),
  }),
);
