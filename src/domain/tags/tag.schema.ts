import { z } from 'zod';
import { keysBeyond, type Listing } from '../shared/listing.js';
import { digitId, isoDateTime } from '../shared/schemas.js';

export const tagListItemSchema = z.object({ id: digitId, name: z.string() }).meta({ id: 'Tag' });
export const tagListSchema = z.object({ data: z.array(tagListItemSchema) }).meta({ id: 'TagList' });

/** A tag as a record (create, get, rename, a contact's tags): the columns of the contact's `tags` items. */
export const tagSchema = z
  .object({
    id: digitId,
    name: z.string(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    deletedAt: isoDateTime.nullable(),
    folderId: digitId.nullable(),
    workspaceId: digitId,
  })
  .meta({ id: 'TagRecord' });

/**
 * A tag listing is what GET /v1/tags lists of each tag, its id and name: the tags of a page of
 * contacts that asks for nothing more read only these (tag.repository.ts tagListingsForContacts).
 */
export const tagListingKeys = Object.keys(tagListItemSchema.shape) as (keyof z.infer<typeof tagListItemSchema>)[];
/** The fields of a tag a listing does not hold. */
export const tagKeysBeyondListing = keysBeyond(tagSchema.shape, tagListingKeys);
export type TagListing = Listing<z.infer<typeof tagSchema>, (typeof tagListingKeys)[number]>;

export const contactTagListSchema = z.object({ data: z.array(tagSchema) }).meta({ id: 'ContactTagList' });

/** At most this many tag ids or names per call (a contact's tags, and the tags of a bulk call). */
export const MAX_TAGS_PER_CALL = 100;
/** At most this many contact ids per bulk call. */
export const MAX_BULK_CONTACTS = 1000;

/** A tag name: trimmed, 1 to 255 characters. */
export const tagNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(255, 'name must be at most 255 characters');

export const createTagInput = z.strictObject({ name: tagNameSchema }).meta({ id: 'CreateTagInput' });
export type CreateTagInput = z.infer<typeof createTagInput>;
export const updateTagInput = z.strictObject({ name: tagNameSchema }).meta({ id: 'UpdateTagInput', description: 'Renames the tag.' });
export type UpdateTagInput = z.infer<typeof updateTagInput>;

/** GET /v1/tags/{idOrName}: digits are an id first (then a name), anything else a name. */
export const tagIdOrNameParams = z.strictObject({
  idOrName: z
    .string()
    .min(1)
    .max(255)
    .meta({ description: 'Tag id (digits), or its name (case-insensitive). Digits that are no live tag\'s id are tried as a name.' }),
});

const tagIdList = (min: number) =>
  z
    .array(digitId)
    .min(min, `tagIds must hold at least ${min} id`)
    .max(MAX_TAGS_PER_CALL, `tagIds must hold at most ${MAX_TAGS_PER_CALL} ids`)
    .meta({ description: `Digit-string tag ids, at most ${MAX_TAGS_PER_CALL} (duplicates count once)` });

/** POST and DELETE /v1/contacts/{identifier}/tags: 1 to 100 ids. */
export const contactTagIdsInput = z.strictObject({ tagIds: tagIdList(1) }).meta({ id: 'ContactTagIdsInput' });
/** PUT /v1/contacts/{identifier}/tags: exactly these, 0 to 100 ids (an empty list removes every tag). */
export const setContactTagsInput = z.strictObject({ tagIds: tagIdList(0) }).meta({ id: 'SetContactTagsInput' });
export type ContactTagIdsInput = z.infer<typeof contactTagIdsInput>;

export const contactTagNamesInput = z
  .strictObject({
    names: z
      .array(tagNameSchema)
      .min(1, 'names must hold at least 1 name')
      .max(MAX_TAGS_PER_CALL, `names must hold at most ${MAX_TAGS_PER_CALL} names`)
      .meta({ description: `Tag names (trimmed, 1 to 255 characters), at most ${MAX_TAGS_PER_CALL}; missing live tags are created` }),
  })
  .meta({ id: 'ContactTagNamesInput' });
export type ContactTagNamesInput = z.infer<typeof contactTagNamesInput>;

/** Contact ids of a bulk call: 1 to 1,000 digit-string ids. */
export const bulkContactIds = z
  .array(digitId)
  .min(1, 'contactIds must hold at least 1 id')
  .max(MAX_BULK_CONTACTS, `contactIds must hold at most ${MAX_BULK_CONTACTS} ids`)
  .meta({ description: `Digit-string contact ids, at most ${MAX_BULK_CONTACTS} (duplicates count once)` });

export const bulkAddTagsInput = z.strictObject({ contactIds: bulkContactIds, tagIds: tagIdList(1) }).meta({ id: 'BulkAddTagsInput' });
export type BulkAddTagsInput = z.infer<typeof bulkAddTagsInput>;

/** `{success, affected}` of the bulk calls: `affected` counts the contacts that changed. */
export const bulkResultSchema = z
  .object({ success: z.boolean(), affected: z.number().int().min(0).meta({ description: 'How many of the contacts changed (gained at least one tag or subscription)' }) })
  .meta({ id: 'BulkRelationResult' });
