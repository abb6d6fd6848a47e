import { z } from 'zod';
import type { TagRecord } from '../../domain/tags/tag.repository.js';
import { contactTagOperations as contactTags } from '../../domain/tags/contact-tag.operations.js';
import { tagOperations as tags } from '../../domain/tags/tag.operations.js';
import { tagKeysBeyondListing, type TagListing } from '../../domain/tags/tag.schema.js';
import { contactIdentifier, identifierArg, plainIds, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { listingsOf } from '../listing.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';
import { runOperation } from '../operations.js';
import { zodInputType } from '../zod-input.js';

export const tagListings = listingsOf('tag', tagKeysBeyondListing, ({ loaders }: GraphQLContext) => loaders.tag);
const { beyond } = tagListings;

// A Tag is a whole tag, or a listing among a contact's tags that selected only a listing's fields.
export const TagType = builder.node(builder.objectRef<TagRecord | TagListing>('Tag'), {
  ...nodeOptions('Tag', tags.get.access, ({ loaders }) => loaders.tag),
  fields: (t) => ({
    rawId: rawIdField(t),
    name: t.exposeString('name'),
    createdAt: t.field({ type: 'DateTime', resolve: beyond('createdAt') }),
    updatedAt: t.field({ type: 'DateTime', resolve: beyond('updatedAt') }),
    deletedAt: t.field({ type: 'DateTime', nullable: true, resolve: beyond('deletedAt') }),
    folderId: t.id({ nullable: true, resolve: beyond('folderId') }),
    workspaceId: t.id({ resolve: beyond('workspaceId') }),
  }),
});

/** `{success, affected}` of the bulk mutations, as REST's bulk calls answer. */
export const BulkRelationResultType = builder.objectRef<{ success: boolean; affected: number }>('BulkRelationResult').implement({
  description: 'The answer of a bulk call: `affected` counts the contacts that changed (gained at least one tag or subscription).',
  fields: (t) => ({ success: t.exposeBoolean('success'), affected: t.exposeInt('affected') }),
});

builder.queryField('tags', (t) =>
  t.field({
    type: [TagType],
    description: "The workspace's tags, sorted by name (as GET /v1/tags).",
    access: tags.list.access,
    resolve: (_r, _a, ctx) => runOperation(tags.list, ctx),
  }),
);

const tagIdsArg = (arg: ArgBuilder, schema: z.ZodType<string[]>) =>
  arg.idList({ required: true, description: 'Tag ids: global or plain digit ids, at most 100' }).validate(z.preprocess(plainIds('Tag'), schema));

builder.queryField('tag', (t) =>
  t.field({
    type: TagType,
    description: 'One live tag by id (global or plain) or by name, case-insensitively (as GET /v1/tags/{idOrName}).',
    access: tags.get.access,
    args: { idOrName: t.arg.string({ required: true }).validate(z.preprocess(plainIds('Tag'), tags.get.params.shape.idOrName)) },
    resolve: (_r, { idOrName }, ctx) => runOperation(tags.get, ctx, { params: { idOrName } }),
  }),
);

const CreateTagInputType = zodInputType('CreateTagInput', tags.create.body, {
  description: 'The body of POST /v1/tags: a name (trimmed, 1 to 255 characters) no live tag has, in any case.',
});
const UpdateTagInputType = zodInputType('UpdateTagInput', tags.update.body, { description: 'The body of PUT /v1/tags/{id}: the new name.' });

const tagIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Tag'));

builder.mutationField('createTag', (t) =>
  t.field({
    type: TagType,
    description: 'Like POST /v1/tags: a duplicate name is 422 validation with data.field "name". The trial and MAC gates apply.',
    access: tags.create.access,
    args: { input: t.arg({ type: CreateTagInputType, required: true }).validate(tags.create.body) },
    resolve: (_r, { input }, ctx) => runOperation(tags.create, ctx, { body: input }),
  }),
);

builder.mutationField('updateTag', (t) =>
  t.field({
    type: TagType,
    description: 'Like PUT /v1/tags/{id}: renames a live tag.',
    access: tags.update.access,
    args: { id: tagIdArg(t.arg), input: t.arg({ type: UpdateTagInputType, required: true }).validate(tags.update.body) },
    resolve: (_r, { id, input }, ctx) => runOperation(tags.update, ctx, { params: { id }, body: input }),
  }),
);

builder.mutationField('deleteTag', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/tags/{id}: the tag leaves every list and contact; its name is free again.',
    access: tags.delete.access,
    args: { id: tagIdArg(t.arg) },
    resolve: (_r, { id }, ctx) => runOperation(tags.delete, ctx, { params: { id } }),
  }),
);

const contactTagMutation = (name: string, op: typeof contactTags.add | typeof contactTags.remove | typeof contactTags.set, description: string) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: SuccessType,
      description,
      access: op.access,
      args: { identifier: identifierArg(t.arg), tagIds: tagIdsArg(t.arg, op.body.shape.tagIds) },
      resolve: (_r, args, ctx) => runOperation(op, ctx, { params: { identifier: contactIdentifier(args.identifier) }, body: { tagIds: args.tagIds } }),
    }),
  );

contactTagMutation('addContactTags', contactTags.add, 'Like POST /v1/contacts/{identifier}/tags: tags it has stay; unknown or deleted tag ids are 404 with data.ids, and nothing changes.');
contactTagMutation('removeContactTags', contactTags.remove, 'Like DELETE /v1/contacts/{identifier}/tags: unknown or deleted tag ids are 404 with data.ids, and nothing changes.');
contactTagMutation('setContactTags', contactTags.set, 'Like PUT /v1/contacts/{identifier}/tags: the contact has exactly these tags afterwards (an empty list removes all).');

builder.mutationField('addContactTagsByName', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like POST /v1/contacts/{identifier}/tags/by-name: names match live tags case-insensitively; missing ones are created.',
    access: contactTags.addByName.access,
    args: { identifier: identifierArg(t.arg), names: t.arg.stringList({ required: true }).validate(contactTags.addByName.body.shape.names) },
    resolve: (_r, { identifier, names }, ctx) => runOperation(contactTags.addByName, ctx, { params: { identifier: contactIdentifier(identifier) }, body: { names } }),
  }),
);

builder.mutationField('bulkAddContactTags', (t) =>
  t.field({
    type: BulkRelationResultType,
    description: 'Like POST /v1/contacts/bulk/tags: 1 to 1,000 contacts, one transaction; unknown contact or tag ids are 404 with data.ids, and nothing changes.',
    access: contactTags.bulkAdd.access,
    args: {
      contactIds: t.arg.idList({ required: true, description: 'Contact ids: global or plain digit ids' }).validate(z.preprocess(plainIds('Contact'), contactTags.bulkAdd.body.shape.contactIds)),
      tagIds: tagIdsArg(t.arg, contactTags.bulkAdd.body.shape.tagIds),
    },
    resolve: (_r, args, ctx) => runOperation(contactTags.bulkAdd, ctx, { body: { contactIds: args.contactIds, tagIds: args.tagIds } }),
  }),
);
