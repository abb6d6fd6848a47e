import { z } from 'zod';
import type { TagRecord } from '../../domain/tags/tag.repository.js';
import {
  bulkAddTagsInput,
  contactTagIdsInput,
  contactTagNamesInput,
  createTagInput,
  setContactTagsInput,
  tagIdOrNameParams,
  tagKeysBeyondListing,
  updateTagInput,
  type TagListing,
} from '../../domain/tags/tag.schema.js';
import { addContactTagsByName, bulkAddTags, changeContactTags, createTag, deleteTag, getTag, listWorkspaceTags, updateTag } from '../../domain/tags/tag.service.js';
import { contactIdentifier, identifierArg, plainIds, type ArgBuilder } from '../args.js';
import { builder, SuccessType } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { listingsOf } from '../listing.js';
import { nodeOptions, rawIdField, recordIdArg } from '../node.js';

export const tagListings = listingsOf('tag', tagKeysBeyondListing, ({ loaders }: GraphQLContext) => loaders.tag);
const { beyond } = tagListings;

// A Tag is a whole tag, or a listing among a contact's tags that selected only a listing's fields.
export const TagType = builder.node(builder.objectRef<TagRecord | TagListing>('Tag'), {
  ...nodeOptions('Tag', { action: 'read', scope: 'tags' }, ({ loaders }) => loaders.tag),
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
    access: { action: 'read', scope: 'tags' },
    resolve: (_r, _a, { db, who }) => listWorkspaceTags(db, who.workspaceId),
  }),
);

const tagIdsArg = (arg: ArgBuilder, schema: z.ZodType<string[]>) =>
  arg.idList({ required: true, description: 'Tag ids: global or plain digit ids, at most 100' }).validate(z.preprocess(plainIds('Tag'), schema));

builder.queryField('tag', (t) =>
  t.field({
    type: TagType,
    description: 'One live tag by id (global or plain) or by name, case-insensitively (as GET /v1/tags/{idOrName}).',
    access: { action: 'read', scope: 'tags' },
    args: { idOrName: t.arg.string({ required: true }).validate(z.preprocess(plainIds('Tag'), tagIdOrNameParams.shape.idOrName)) },
    resolve: (_r, { idOrName }, { db, who }) => getTag(db, who.workspaceId, idOrName),
  }),
);

const CreateTagInputType = builder.inputType('CreateTagInput', {
  description: 'The body of POST /v1/tags: a name (trimmed, 1 to 255 characters) no live tag has, in any case.',
  fields: (t) => ({ name: t.string({ required: true }) }),
});
const UpdateTagInputType = builder.inputType('UpdateTagInput', {
  description: 'The body of PUT /v1/tags/{id}: the new name.',
  fields: (t) => ({ name: t.string({ required: true }) }),
});

const tagIdArg = (arg: ArgBuilder) => arg.id({ required: true, description: 'Its global id, or its plain digit id (rawId)' }).validate(recordIdArg('Tag'));

builder.mutationField('createTag', (t) =>
  t.field({
    type: TagType,
    description: 'Like POST /v1/tags: a duplicate name is 422 validation with data.field "name". The trial and MAC gates apply.',
    access: { action: 'write', scope: 'tags' },
    args: { input: t.arg({ type: CreateTagInputType, required: true }).validate(createTagInput) },
    resolve: (_r, { input }, { db, who }) => createTag(db, who.workspaceId, input),
  }),
);

builder.mutationField('updateTag', (t) =>
  t.field({
    type: TagType,
    description: 'Like PUT /v1/tags/{id}: renames a live tag.',
    access: { action: 'write', scope: 'tags' },
    args: { id: tagIdArg(t.arg), input: t.arg({ type: UpdateTagInputType, required: true }).validate(updateTagInput) },
    resolve: (_r, { id, input }, { db, who }) => updateTag(db, who.workspaceId, id, input),
  }),
);

builder.mutationField('deleteTag', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like DELETE /v1/tags/{id}: the tag leaves every list and contact; its name is free again.',
    access: { action: 'delete', scope: 'tags' },
    args: { id: tagIdArg(t.arg) },
    resolve: async (_r, { id }, { db, who }) => deleteTag(db, who.workspaceId, id),
  }),
);

const contactTagMutation = (name: string, change: 'add' | 'remove' | 'set', description: string) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: SuccessType,
      description,
      access: { action: change === 'remove' ? 'delete' : 'write', scope: 'contacts' },
      args: {
        identifier: identifierArg(t.arg),
        tagIds: tagIdsArg(t.arg, (change === 'set' ? setContactTagsInput : contactTagIdsInput).shape.tagIds),
      },
      resolve: async (_r, args, { db, who }) =>
        changeContactTags(db, who.workspaceId, contactIdentifier(args.identifier), change, args.tagIds),
    }),
  );

contactTagMutation('addContactTags', 'add', 'Like POST /v1/contacts/{identifier}/tags: tags it has stay; unknown or deleted tag ids are 404 with data.ids, and nothing changes.');
contactTagMutation('removeContactTags', 'remove', 'Like DELETE /v1/contacts/{identifier}/tags: unknown or deleted tag ids are 404 with data.ids, and nothing changes.');
contactTagMutation('setContactTags', 'set', 'Like PUT /v1/contacts/{identifier}/tags: the contact has exactly these tags afterwards (an empty list removes all).');

builder.mutationField('addContactTagsByName', (t) =>
  t.field({
    type: SuccessType,
    description: 'Like POST /v1/contacts/{identifier}/tags/by-name: names match live tags case-insensitively; missing ones are created.',
    access: { action: 'write', scope: 'contacts' },
    args: { identifier: identifierArg(t.arg), names: t.arg.stringList({ required: true }).validate(contactTagNamesInput.shape.names) },
    resolve: async (_r, { identifier, names }, { db, who }) => addContactTagsByName(db, who.workspaceId, contactIdentifier(identifier), names),
  }),
);

builder.mutationField('bulkAddContactTags', (t) =>
  t.field({
    type: BulkRelationResultType,
    description: 'Like POST /v1/contacts/bulk/tags: 1 to 1,000 contacts, one transaction; unknown contact or tag ids are 404 with data.ids, and nothing changes.',
    access: { action: 'write', scope: 'contacts' },
    args: {
      contactIds: t.arg.idList({ required: true, description: 'Contact ids: global or plain digit ids' }).validate(z.preprocess(plainIds('Contact'), bulkAddTagsInput.shape.contactIds)),
      tagIds: tagIdsArg(t.arg, bulkAddTagsInput.shape.tagIds),
    },
    resolve: (_r, args, { db, who }) => bulkAddTags(db, who.workspaceId, { contactIds: args.contactIds, tagIds: args.tagIds }),
  }),
);
